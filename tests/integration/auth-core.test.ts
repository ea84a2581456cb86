import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import {
  browserLikeClient,
  codeIn,
  confirmedUser,
  followLink,
  hashParams,
  latestMail,
  linkIn,
  mailCount,
  uniqueEmail,
} from './auth-support';

const password = 'a long enough passphrase';

describe.each(databaseKinds)('auth core wire protocol on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      SITE_URL: undefined,
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '1000',
    });
  });
  afterAll(() => server?.stop());

  const authFetch = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/auth/v1${path}`, {
      ...init,
      headers: { apikey: server.anonKey, 'content-type': 'application/json', ...init.headers },
    });

  it('signs up with a confirmation mail; sign-in waits for the confirmation link', async () => {
    const client = browserLikeClient(server);
    const email = uniqueEmail('signup');
    const redirect = `${server.url}/auth/confirm`;
    const signUp = await client.auth.signUp({
      email,
      password,
      options: { emailRedirectTo: redirect, data: { full_name: 'Ada Lovelace' } },
    });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session).toBeNull();
    expect(signUp.data.user).toMatchObject({ email, user_metadata: { full_name: 'Ada Lovelace' } });
    expect(signUp.data.user?.email_confirmed_at).toBeUndefined();

    const early = await client.auth.signInWithPassword({ email, password });
    expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed' });

    const mail = await latestMail(server, email);
    expect(mail.subject).toMatch(/Confirm your Lyceum account/);
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
    const landing = await followLink(linkIn(mail));
    expect(`${landing.origin}${landing.pathname}`).toBe(redirect);
    const params = hashParams(landing);
    expect(params.get('type')).toBe('signup');
    expect(params.get('token_type')).toBe('bearer');
    expect(Number(params.get('expires_in'))).toBe(3600);
    const { data: fromLink } = await server
      .withToken(params.get('access_token')!)
      .auth.getUser(params.get('access_token')!);
    expect(fromLink.user?.email).toBe(email);

    // The link is single-use.
    const again = await followLink(linkIn(mail));
    expect(hashParams(again).get('error_code')).toBe('otp_expired');

    const signIn = await client.auth.signInWithPassword({ email, password });
    expect(signIn.error).toBeNull();
    expect(signIn.data.session?.token_type).toBe('bearer');
    expect(signIn.data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect(signIn.data.user?.identities?.[0]).toMatchObject({
      provider: 'email',
      identity_id: expect.any(String),
    });
    expect(signIn.data.user?.factors).toEqual([]);
    expect(signIn.data.user?.app_metadata).toMatchObject({
      provider: 'email',
      providers: ['email'],
      roles: ['learner'],
    });

    // The sign-up trigger created the profile, visible to its owner through REST.
    const profile = await client.from('profiles').select('full_name, display_name').single();
    expect(profile.error).toBeNull();
    expect(profile.data).toEqual({ full_name: 'Ada Lovelace', display_name: email.split('@')[0] });
  });

  it('issues ES256 access tokens with the listed claims, verifiable with the JWKS', async () => {
    const { client, email } = await confirmedUser(server);
    const { data } = await client.auth.getSession();
    const token = data.session!.access_token;
    const header = jose.decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: 'ES256', kid: server.deps.keys.current.kid, typ: 'JWT' });
    const jwks = await (await fetch(`${server.url}/auth/v1/.well-known/jwks.json`)).json();
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const { payload } = await jose.jwtVerify(token, jose.createLocalJWKSet(jwks));
    expect(payload).toMatchObject({
      sub: data.session!.user.id,
      role: 'authenticated',
      aud: 'authenticated',
      email,
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      app_metadata: { provider: 'email', roles: ['learner'] },
      user_metadata: {},
    });
    expect(payload.exp! - payload.iat!).toBe(3600);

    const claims = await client.auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims.sub).toBe(data.session!.user.id);
  });

  it('getClaims verifies locally and rejects expired and tampered tokens', async () => {
    const { client } = await confirmedUser(server);
    const { data } = await client.auth.getSession();
    const token = data.session!.access_token;
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = [
      h,
      Buffer.from(JSON.stringify({ ...payload, role: 'service_role' })).toString('base64url'),
      s,
    ].join('.');
    const anon = server.anon();
    const bad = await anon.auth.getClaims(tampered);
    expect(bad.error?.message).toBe('Invalid JWT signature');

    const expired = await new jose.SignJWT({ ...payload, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'ES256', kid: server.deps.keys.current.kid })
      .sign(server.deps.keys.current.privateKey);
    const old = await anon.auth.getClaims(expired);
    expect(old.error?.message).toMatch(/expired/i);

    const user = await anon.auth.getUser(tampered);
    expect(user.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    const expiredUser = await anon.auth.getUser(expired);
    expect(expiredUser.error).toMatchObject({ status: 403, code: 'bad_jwt' });
  });

  it('rotates refresh tokens; reuse after 10 s revokes the whole session', async () => {
    const { client } = await confirmedUser(server);
    const first = (await client.auth.getSession()).data.session!;
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const second = refreshed.data.session!;
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // A second use inside the window (two tabs at once) continues the session.
    const racing = await authFetch('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: first.refresh_token }),
    });
    expect(racing.status).toBe(200);

    // Backdate the rotation past the 10-second window: the same token is now a replay.
    await server.deps.db.query(
      `update auth.refresh_tokens set revoked_at = now() - interval '11 seconds' where revoked_at is not null`,
    );
    const replay = await authFetch('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: first.refresh_token }),
    });
    expect(replay.status).toBe(400);
    expect(replay.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await replay.json()).toEqual({
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    });
    // The whole session is gone: the newest refresh token and the access token stop working.
    const after = await authFetch('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: second.refresh_token }),
    });
    expect(after.status).toBe(400);
    expect((await after.json()).code).toBe('refresh_token_not_found');
    // supabase-js turns session_not_found into AuthSessionMissingError; the wire says 403.
    const user = await server.anon().auth.getUser(second.access_token);
    expect(user.error?.name).toBe('AuthSessionMissingError');
    const raw = await fetch(`${server.url}/auth/v1/user`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${second.access_token}` },
    });
    expect(raw.status).toBe(403);
    expect(await raw.json()).toEqual({
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
    });

    const unknown = await server.anon().auth.refreshSession({ refresh_token: 'not-a-token' });
    expect(unknown.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });

  it('ends sessions past their lifetime or inactivity limit', async () => {
    const { client } = await confirmedUser(server);
    const session = (await client.auth.getSession()).data.session!;
    const claims = jose.decodeJwt(session.access_token);
    await server.deps.db.query(
      `update auth.sessions set refreshed_at = now() - interval '8 days' where id = $1`,
      [claims.session_id],
    );
    const idle = await client.auth.refreshSession();
    expect(idle.error).toMatchObject({ status: 400, code: 'session_expired' });

    const other = await confirmedUser(server);
    const s2 = (await other.client.auth.getSession()).data.session!;
    await server.deps.db.query(
      `update auth.sessions set not_after = now() - interval '1 second' where id = $1`,
      [jose.decodeJwt(s2.access_token).session_id],
    );
    const user = await server.anon().auth.getUser(s2.access_token);
    expect(user.error?.name).toBe('AuthSessionMissingError');
  });

  it('answers wrong passwords, bad input and unknown grants with GoTrue codes', async () => {
    const { email } = await confirmedUser(server);
    const anon = browserLikeClient(server);
    const wrong = await anon.auth.signInWithPassword({ email, password: 'not the password' });
    expect(wrong.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
    const nobody = await anon.auth.signInWithPassword({ email: uniqueEmail('ghost'), password });
    expect(nobody.error).toMatchObject({ code: 'invalid_credentials' });
    const { rows } = await server.deps.db.query<{ reason: string }>(
      'select reason from auth.failed_sign_ins where email = $1',
      [email],
    );
    expect(rows.map((r) => r.reason)).toContain('invalid_credentials');

    const weak = await anon.auth.signUp({ email: uniqueEmail(), password: 'password123' });
    expect(weak.error).toMatchObject({
      status: 422,
      code: 'weak_password',
      name: 'AuthWeakPasswordError',
      reasons: ['pwned'],
    });
    const short = await anon.auth.signUp({ email: uniqueEmail(), password: 'short' });
    expect(short.error).toMatchObject({ code: 'weak_password', reasons: ['length'] });
    const badEmail = await anon.auth.signUp({ email: 'not-an-email', password });
    expect(badEmail.error).toMatchObject({ status: 400, code: 'email_address_invalid' });

    const notJson = await authFetch('/signup', { method: 'POST', body: '{oops' });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).code).toBe('bad_json');
    const grant = await authFetch('/token?grant_type=magic', { method: 'POST', body: '{}' });
    expect(grant.status).toBe(400);
    const noKey = await fetch(`${server.url}/auth/v1/settings`);
    expect(noKey.status).toBe(401);
    const badKey = await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: 'x.y.z' } });
    expect(badKey.status).toBe(401);
  });

  it('does not reveal whether a confirmed address already has an account', async () => {
    const { email } = await confirmedUser(server);
    const before = await mailCount(server, email);
    const again = await browserLikeClient(server).auth.signUp({
      email,
      password: 'another long passphrase',
    });
    expect(again.error).toBeNull();
    expect(again.data.user?.email).toBe(email);
    expect(await mailCount(server, email)).toBe(before);
  });

  it('reads and updates the user, keeping metadata merges and email rules', async () => {
    const { client, email } = await confirmedUser(server);
    const got = await client.auth.getUser();
    expect(got.data.user?.email).toBe(email);
    const updated = await client.auth.updateUser({ data: { display_name: 'Ada', theme: 'dark' } });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toEqual({ display_name: 'Ada', theme: 'dark' });
    const removed = await client.auth.updateUser({ data: { theme: null } });
    expect(removed.data.user?.user_metadata).toEqual({ display_name: 'Ada' });

    const taken = await confirmedUser(server);
    const clash = await client.auth.updateUser({ email: taken.email });
    expect(clash.error).toMatchObject({ status: 422, code: 'email_exists' });

    const newEmail = uniqueEmail('changed');
    const change = await client.auth.updateUser({ email: newEmail });
    expect(change.error).toBeNull();
    expect(change.data.user?.new_email).toBe(newEmail);
    expect(change.data.user?.email).toBe(email);
    const mail = await latestMail(server, newEmail);
    expect((await latestMail(server, email)).subject).toMatch(/email address is being changed/);
    const verified = await browserLikeClient(server).auth.verifyOtp({
      email: newEmail,
      token: codeIn(mail),
      type: 'email_change',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(newEmail);
    const signIn = await browserLikeClient(server).auth.signInWithPassword({
      email: newEmail,
      password,
    });
    expect(signIn.error).toBeNull();
  });

  it('signs out with scope local, others and global; the client ignores 401/403/404', async () => {
    const { email } = await confirmedUser(server);
    const devices = await Promise.all(
      [1, 2, 3].map(async () => {
        const c = browserLikeClient(server);
        await c.auth.signInWithPassword({ email, password });
        return c;
      }),
    );
    const tokens = await Promise.all(
      devices.map(async (d) => (await d.auth.getSession()).data.session!.access_token),
    );
    const others = await devices[0]!.auth.signOut({ scope: 'others' });
    expect(others.error).toBeNull();
    expect((await devices[0]!.auth.getUser()).error).toBeNull();
    expect((await server.anon().auth.getUser(tokens[1]!)).error?.name).toBe(
      'AuthSessionMissingError',
    );

    const local = await devices[0]!.auth.signOut({ scope: 'local' });
    expect(local.error).toBeNull();
    expect((await devices[0]!.auth.getSession()).data.session).toBeNull();
    // Signing out again of a session the server no longer has (403) is ignored by the client.
    const stale = await devices[1]!.auth.signOut();
    expect(stale.error).toBeNull();
    expect((await devices[1]!.auth.getSession()).data.session).toBeNull();

    const a = browserLikeClient(server);
    const b = browserLikeClient(server);
    await a.auth.signInWithPassword({ email, password });
    await b.auth.signInWithPassword({ email, password });
    expect((await a.auth.signOut({ scope: 'global' })).error).toBeNull();
    expect((await b.auth.getUser()).error?.name).toBe('AuthSessionMissingError');

    const badScope = await fetch(`${server.url}/auth/v1/logout?scope=everyone`, {
      method: 'POST',
      headers: { apikey: server.anonKey, authorization: `Bearer ${tokens[2]}` },
    });
    expect([400, 403]).toContain(badScope.status);
  });

  it('exchanges a PKCE sign-up confirmation code for a session', async () => {
    const client = browserLikeClient(server, { flowType: 'pkce' });
    const email = uniqueEmail('pkce');
    const signUp = await client.auth.signUp({
      email,
      password,
      options: { emailRedirectTo: `${server.url}/auth/confirm` },
    });
    expect(signUp.error).toBeNull();
    const landing = await followLink(linkIn(await latestMail(server, email)));
    const code = landing.searchParams.get('code');
    expect(code).toBeTruthy();
    const exchanged = await client.auth.exchangeCodeForSession(code!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    const reused = await client.auth.exchangeCodeForSession(code!);
    expect(reused.error).toBeTruthy();
    const wrongVerifier = await authFetch('/token?grant_type=pkce', {
      method: 'POST',
      body: JSON.stringify({ auth_code: 'nope', code_verifier: 'x'.repeat(43) }),
    });
    expect(wrongVerifier.status).toBe(404);
    expect((await wrongVerifier.json()).code).toBe('flow_state_not_found');
  });

  it('publishes settings and refuses redirects to foreign origins', async () => {
    const settings = await (await authFetch('/settings')).json();
    expect(settings).toMatchObject({
      external: { email: true, phone: false },
      mailer_autoconfirm: false,
    });
    const email = uniqueEmail('redirect');
    await browserLikeClient(server).auth.signUp({
      email,
      password,
      options: { emailRedirectTo: 'https://evil.example/steal' },
    });
    const landing = await followLink(linkIn(await latestMail(server, email)));
    expect(landing.origin).toBe(new URL(server.url).origin);
  });
});

describe.each(databaseKinds)('auth with autoconfirm and short tokens on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      MAILER_AUTOCONFIRM: 'true',
      ACCESS_TOKEN_TTL_SECONDS: '5',
    });
  });
  afterAll(() => server?.stop());

  it('signs up straight into a session when MAILER_AUTOCONFIRM is on', async () => {
    const client = browserLikeClient(server);
    const email = uniqueEmail('auto');
    const { data, error } = await client.auth.signUp({ email, password });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    const again = await client.auth.signUp({ email, password });
    expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' });
  });

  it('refreshes on the auto-refresh timer when exp is short', async () => {
    const client = browserLikeClient(server, { autoRefreshToken: true });
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    await client.auth.signUp({ email: uniqueEmail('timer'), password });
    const first = (await client.auth.getSession()).data.session!;
    // The ticker refreshes when fewer than 3 ticks (90 s) remain: with exp 5 s, at once.
    await client.auth.startAutoRefresh();
    await expect.poll(() => events.includes('TOKEN_REFRESHED'), { timeout: 10_000 }).toBe(true);
    const next = (await client.auth.getSession()).data.session!;
    expect(next.refresh_token).not.toBe(first.refresh_token);
    await client.auth.stopAutoRefresh();
  });
});
