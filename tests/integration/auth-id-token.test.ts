/**
 * `signInWithIdToken` (`POST /token?grant_type=id_token`) against the configured OIDC provider:
 * the token's signature checked with the provider's published keys, its issuer, audience,
 * expiry and nonce (the SHA-256 of the one the app sends, as GoTrue checks it); GoTrue's
 * refusals for providers this deployment has not enabled, for other grants, and for `web3`.
 * The provider is a loopback issuer this file runs: discovery, a key set, and tokens it signs.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser, uniqueEmail } from './auth-support';

const CLIENT_ID = 'lyceum-app';

interface Issuer {
  url: string;
  sign(
    claims: Record<string, unknown>,
    options?: { expiresIn?: string; key?: 'other' },
  ): Promise<string>;
  close(): Promise<void>;
}

/** An OpenID provider reduced to what ID-token sign-in reads: discovery and its keys. */
async function startIssuer(): Promise<Issuer> {
  const published = await jose.generateKeyPair('RS256');
  const unpublished = await jose.generateKeyPair('RS256');
  const jwk = {
    ...(await jose.exportJWK(published.publicKey)),
    kid: 'k1',
    alg: 'RS256',
    use: 'sig',
  };
  const server = http.createServer((req, res) => {
    const send = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') {
      return send({
        issuer: url,
        authorization_endpoint: `${url}/auth`,
        token_endpoint: `${url}/token`,
        jwks_uri: `${url}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (req.url === '/jwks') return send({ keys: [jwk] });
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    sign: (claims, options = {}) =>
      new jose.SignJWT({ iss: url, aud: CLIENT_ID, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '5m')
        .sign(options.key === 'other' ? unpublished.privateKey : published.privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(databaseKinds)('sign-in with an ID token on %s', (kind) => {
  let server: TestServer;
  let issuer: Issuer;
  beforeAll(async () => {
    issuer = await startIssuer();
    server = await startTestServer(kind, {
      SITE_URL: undefined,
      OIDC_ISSUER: issuer.url,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_PROVIDER_NAME: 'university',
      AUTH_ANONYMOUS_USERS: 'true',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
  });

  it('signs in with a token and its nonce, creating the account once', async () => {
    const email = uniqueEmail('idtoken');
    const nonce = 'raw nonce the app kept';
    const sub = `student-${email}`;
    const token = await issuer.sign({
      sub,
      email,
      email_verified: true,
      name: 'Ada Lovelace',
      nonce: sha256Hex(nonce),
    });
    const client = browserLikeClient(server);
    const { data, error } = await client.auth.signInWithIdToken({
      provider: 'university',
      token,
      nonce,
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      is_anonymous: false,
      app_metadata: { provider: 'university', providers: ['university'] },
      user_metadata: { full_name: 'Ada Lovelace' },
    });
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.identities?.[0]).toMatchObject({ provider: 'university', id: sub });
    expect(jose.decodeJwt(data.session!.access_token).amr).toMatchObject([{ method: 'oauth' }]);

    // A later token for the same person signs in to the same account.
    const later = await browserLikeClient(server).auth.signInWithIdToken({
      provider: 'university',
      token: await issuer.sign({ sub, email, email_verified: true }),
    });
    expect(later.error).toBeNull();
    expect(later.data.user?.id).toBe(data.user?.id);
  });

  it('signs an existing account in when the provider verified its address', async () => {
    const member = await confirmedUser(server);
    const { data, error } = await browserLikeClient(server).auth.signInWithIdToken({
      provider: 'university',
      token: await issuer.sign({
        sub: `m-${member.email}`,
        email: member.email,
        email_verified: true,
      }),
    });
    expect(error).toBeNull();
    const me = await member.client.auth.getUser();
    expect(data.user?.id).toBe(me.data.user?.id);
    expect(data.user?.app_metadata.providers).toEqual(['email', 'university']);
  });

  it('refuses tokens that are forged, foreign, expired, for another client or without the nonce', async () => {
    const client = browserLikeClient(server);
    const attempt = async (token: string, nonce?: string) => {
      const { data, error } = await client.auth.signInWithIdToken({
        provider: 'university',
        token,
        nonce,
      });
      expect(data.session).toBeNull();
      return error;
    };
    const claims = { sub: 'someone', email: uniqueEmail('forged'), email_verified: true };

    expect(await attempt(await issuer.sign(claims, { key: 'other' }))).toMatchObject({
      status: 400,
      message: 'Bad ID token',
    });
    expect(
      await attempt(await issuer.sign({ ...claims, iss: 'https://elsewhere.example' })),
    ).toMatchObject({
      status: 400,
      message: 'Bad ID token',
    });
    expect(await attempt(await issuer.sign(claims, { expiresIn: '-1m' }))).toMatchObject({
      status: 400,
      message: 'Bad ID token',
    });
    expect(await attempt(await issuer.sign({ ...claims, aud: 'another-app' }))).toMatchObject({
      status: 400,
      message: 'Unacceptable audience in id_token: [another-app]',
    });
    expect(await attempt(`${await issuer.sign(claims)}x`)).toMatchObject({
      message: 'Bad ID token',
    });

    const nonce = 'the app nonce';
    const withNonce = await issuer.sign({ ...claims, nonce: sha256Hex(nonce) });
    expect(await attempt(withNonce)).toMatchObject({
      status: 400,
      message: 'Passed nonce and nonce in id_token should either both exist or not.',
    });
    expect(await attempt(withNonce, 'another nonce')).toMatchObject({
      status: 400,
      message: 'Nonces mismatch',
    });
    // The raw nonce in the token (not its hash) does not pass either.
    expect(await attempt(await issuer.sign({ ...claims, nonce }), nonce)).toMatchObject({
      message: 'Nonces mismatch',
    });
    expect(await attempt(await issuer.sign(claims), nonce)).toMatchObject({
      message: 'Passed nonce and nonce in id_token should either both exist or not.',
    });
    const { rows } = await server.deps.db.query<{ n: number }>(
      'select count(*)::int as n from auth.users where email = $1',
      [claims.email],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('links a token to an anonymous account, which becomes permanent', async () => {
    const client = browserLikeClient(server);
    const guest = await client.auth.signInAnonymously();
    const email = uniqueEmail('idtoken-link');
    const nonce = 'link nonce';
    const { data, error } = await client.auth.linkIdentity({
      provider: 'university',
      token: await issuer.sign({
        sub: `l-${email}`,
        email,
        email_verified: true,
        nonce: sha256Hex(nonce),
      }),
      nonce,
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ id: guest.data.user!.id, email, is_anonymous: false });
    expect(jose.decodeJwt(data.session!.access_token).is_anonymous).toBe(false);
  });

  it("answers GoTrue's refusals for providers and grants that are not enabled", async () => {
    const token = await issuer.sign({ sub: 'x' });
    const google = await server.anon().auth.signInWithIdToken({ provider: 'google', token });
    expect(google.error).toMatchObject({
      status: 400,
      code: 'provider_disabled',
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    });
    const apple = await server.anon().auth.signInWithIdToken({ provider: 'apple', token });
    expect(apple.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Detected ID token issuer is not an Apple ID token issuer',
    });
    const unknown = await server.anon().auth.signInWithIdToken({ provider: 'github', token });
    expect(unknown.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Custom OIDC provider "github" not allowed',
    });

    const post = (grant: string, body: unknown) =>
      fetch(`${server.url}/auth/v1/token?grant_type=${grant}`, {
        method: 'POST',
        headers: { apikey: server.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const missing = await post('id_token', { provider: 'university' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: 'invalid request',
      error_description: 'id_token required',
    });
    const web3 = await post('web3', {
      chain: 'ethereum',
      message: 'Sign in to Lyceum',
      signature: '0x00',
    });
    expect(web3.status).toBe(422);
    expect(await web3.json()).toEqual({
      code: 'web3_provider_disabled',
      message: 'Web3 provider is disabled',
    });
    const other = await post('client_credentials', {});
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({
      code: 'invalid_credentials',
      message: 'unsupported_grant_type',
    });
  });
});

describe('ID tokens without an OIDC provider, or behind closed sign-ups', () => {
  let issuer: Issuer;
  beforeAll(async () => {
    issuer = await startIssuer();
  });
  afterAll(() => issuer?.close());

  it('names the provider as not allowed when none is configured', async () => {
    const server = await startTestServer('pglite', { SITE_URL: undefined });
    try {
      const { error } = await server.anon().auth.signInWithIdToken({
        provider: 'university',
        token: await issuer.sign({ sub: 'x' }),
      });
      expect(error).toMatchObject({
        status: 400,
        code: 'validation_failed',
        message: 'Custom OIDC provider "university" not allowed',
      });
    } finally {
      await server.stop();
    }
  });

  it('creates no account while sign-ups are disabled, but signs existing ones in', async () => {
    const server = await startTestServer('pglite', {
      SITE_URL: undefined,
      OIDC_ISSUER: issuer.url,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_PROVIDER_NAME: 'university',
      AUTH_DISABLE_SIGNUP: 'true',
    });
    try {
      const email = uniqueEmail('idtoken-closed');
      const claims = { sub: `c-${email}`, email, email_verified: true };
      const refused = await server.anon().auth.signInWithIdToken({
        provider: 'university',
        token: await issuer.sign(claims),
      });
      expect(refused.error).toMatchObject({ status: 422, code: 'signup_disabled' });
      await server.service().auth.admin.createUser({ email, email_confirm: true });
      const allowed = await server.anon().auth.signInWithIdToken({
        provider: 'university',
        token: await issuer.sign(claims),
      });
      expect(allowed.error).toBeNull();
      expect(allowed.data.user?.email).toBe(email);
    } finally {
      await server.stop();
    }
  });
});
