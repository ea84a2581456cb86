import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser, hashParams, uniqueEmail } from './auth-support';

interface Account {
  email: string;
  verified: boolean;
  name: string;
}

/** Accounts at the test IdP, by login name (the dev login form accepts any password). */
const accounts = new Map<string, Account>();

/** oidc-provider on loopback as the identity provider, with its built-in dev login pages. */
async function startIdp(callbackUrl: () => string) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let provider: Provider | undefined;
  server.on('request', (req, res) => {
    provider ??= new Provider(issuer, {
      clients: [
        {
          client_id: 'lyceum',
          client_secret: 'lyceum-test-secret',
          redirect_uris: [callbackUrl()],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: true } },
      async findAccount(_ctx, id) {
        const account = accounts.get(id);
        if (!account) return undefined;
        return {
          accountId: id,
          claims: async () => ({
            sub: id,
            email: account.email,
            email_verified: account.verified,
            name: account.name,
          }),
        };
      },
    });
    provider.callback()(req, res);
  });
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A tiny browser: follows redirects, keeps cookies per host, submits the IdP's forms. */
async function browse(start: string, login: string, stopAt: string): Promise<URL> {
  const jar = new Map<string, Map<string, string>>();
  let url = start;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.startsWith(stopAt)) return new URL(url);
    const host = new URL(url).host;
    const cookies = jar.get(host) ?? new Map<string, string>();
    jar.set(host, cookies);
    const response = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await response.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(html);
    if (!form) throw new Error(`Stuck at ${url} (${response.status}): ${html.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const [input] of html.matchAll(/<input[^>]*>/gi)) {
      const name = /name="([^"]+)"/.exec(input)?.[1];
      if (name) fields.set(name, /value="([^"]*)"/.exec(input)?.[1] ?? '');
    }
    if (fields.has('login')) fields.set('login', login);
    if (fields.has('password')) fields.set('password', 'any');
    url = new URL(form[1]!, url).toString();
    method = 'POST';
    body = fields.toString();
  }
  throw new Error('Too many redirects');
}

describe.each(databaseKinds)('auth OIDC sign-in against oidc-provider on %s', (kind) => {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof startIdp>>;
  beforeAll(async () => {
    let serverUrl = '';
    idp = await startIdp(() => `${serverUrl}/auth/v1/callback`);
    server = await startTestServer(kind, {
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: 'lyceum',
      OIDC_CLIENT_SECRET: 'lyceum-test-secret',
      OIDC_PROVIDER_NAME: 'university',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
    });
    serverUrl = server.url;
  });
  afterAll(async () => {
    await server?.stop();
    await idp?.close();
  });

  const back = () => `${server.url}/auth/confirm`;

  it('signs a new user in through /authorize and the callback (implicit flow)', async () => {
    const login = `new-${kind}`;
    const email = uniqueEmail('idp');
    accounts.set(login, { email, verified: true, name: 'Ada Lovelace' });
    const client = browserLikeClient(server);
    const { data } = await client.auth.signInWithOAuth({
      provider: 'university' as never,
      options: { redirectTo: back(), skipBrowserRedirect: true },
    });
    expect(data.url).toMatch(/\/auth\/v1\/authorize\?provider=university/);
    const landing = await browse(data.url!, login, back());
    const params = hashParams(landing);
    expect(params.get('error_description')).toBeNull();
    const { data: user } = await client.auth.getUser(params.get('access_token')!);
    expect(user.user).toMatchObject({
      email,
      app_metadata: { provider: 'university', providers: ['university'] },
      user_metadata: { full_name: 'Ada Lovelace' },
    });
    expect(user.user?.identities?.[0]).toMatchObject({ provider: 'university', id: login });
    expect(user.user?.email_confirmed_at).toBeTruthy();
  });

  it('links to an existing account by verified email, with PKCE back to the app', async () => {
    const { email, password } = await confirmedUser(server);
    const login = `existing-${kind}`;
    accounts.set(login, { email, verified: true, name: 'Grace Hopper' });
    const client = browserLikeClient(server, { flowType: 'pkce' });
    const { data } = await client.auth.signInWithOAuth({
      provider: 'university' as never,
      options: { redirectTo: back(), skipBrowserRedirect: true },
    });
    expect(data.url).toMatch(/code_challenge=/);
    const landing = await browse(data.url!, login, back());
    const exchanged = await client.auth.exchangeCodeForSession(landing.searchParams.get('code')!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    expect(exchanged.data.user?.identities?.map((i) => i.provider).sort()).toEqual([
      'email',
      'university',
    ]);
    // The password still works: linking added a way in, it did not replace one.
    expect(
      (await browserLikeClient(server).auth.signInWithPassword({ email, password })).error,
    ).toBeNull();
  });

  it('does not link by an unverified email', async () => {
    const { email } = await confirmedUser(server);
    const login = `unverified-${kind}`;
    accounts.set(login, { email, verified: false, name: 'Mallory' });
    const { data } = await browserLikeClient(server).auth.signInWithOAuth({
      provider: 'university' as never,
      options: { redirectTo: back(), skipBrowserRedirect: true },
    });
    const landing = await browse(data.url!, login, back());
    expect(hashParams(landing).get('error_code')).toBe('email_exists');
  });

  it('links and unlinks identities for a signed-in user', async () => {
    const { client, email } = await confirmedUser(server);
    const login = `link-${kind}`;
    accounts.set(login, { email: uniqueEmail('other-address'), verified: true, name: 'Linked' });
    const { data, error } = await client.auth.linkIdentity({
      provider: 'university' as never,
      options: { redirectTo: back(), skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    await browse(data.url!, login, back());
    const identities = await client.auth.getUserIdentities();
    expect(identities.data?.identities.map((i) => i.provider).sort()).toEqual([
      'email',
      'university',
    ]);
    expect((await client.auth.getUser()).data.user?.email).toBe(email);

    const university = identities.data!.identities.find((i) => i.provider === 'university')!;
    expect((await client.auth.unlinkIdentity(university)).error).toBeNull();
    const left = (await client.auth.getUserIdentities()).data!.identities;
    expect(left.map((i) => i.provider)).toEqual(['email']);
    const last = await client.auth.unlinkIdentity(left[0]!);
    expect(last.error).toMatchObject({ status: 422, code: 'single_identity_not_deletable' });
  });

  it('refuses unknown providers and forged callbacks', async () => {
    const unknown = await fetch(`${server.url}/auth/v1/authorize?provider=github`, {
      redirect: 'manual',
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toMatch(/Unsupported provider/);
    const forged = await fetch(
      `${server.url}/auth/v1/callback?code=x&state=00000000-0000-4000-8000-000000000000`,
      { redirect: 'manual' },
    );
    expect(forged.status).toBe(400);
    expect((await forged.json()).code).toBe('bad_oauth_state');
    const settings = await (
      await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: server.anonKey } })
    ).json();
    expect(settings.external).toMatchObject({ email: true, university: true });
  });
});
