import http from 'node:http';
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
  uniqueEmail,
} from './auth-support';

describe.each(databaseKinds)('auth recovery, re-authentication and admin on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '1000',
    });
  });
  afterAll(() => server?.stop());

  it('recovers a password through the mailed link (implicit flow)', async () => {
    const { email } = await confirmedUser(server);
    const client = browserLikeClient(server);
    const sent = await client.auth.resetPasswordForEmail(email, {
      redirectTo: `${server.url}/reset-password`,
    });
    expect(sent.error).toBeNull();
    const mail = await latestMail(server, email);
    expect(mail.subject).toMatch(/Reset your Lyceum password/);
    const landing = await followLink(linkIn(mail));
    expect(landing.pathname).toBe('/reset-password');
    const params = hashParams(landing);
    expect(params.get('type')).toBe('recovery');
    await client.auth.setSession({
      access_token: params.get('access_token')!,
      refresh_token: params.get('refresh_token')!,
    });
    const changed = await client.auth.updateUser({ password: 'a brand new passphrase' });
    expect(changed.error).toBeNull();
    const old = await browserLikeClient(server).auth.signInWithPassword({
      email,
      password: 'a long enough passphrase',
    });
    expect(old.error?.code).toBe('invalid_credentials');
    const fresh = await browserLikeClient(server).auth.signInWithPassword({
      email,
      password: 'a brand new passphrase',
    });
    expect(fresh.error).toBeNull();
  });

  it('recovers with PKCE: the code exchange fires PASSWORD_RECOVERY', async () => {
    const { email } = await confirmedUser(server);
    const client = browserLikeClient(server, { flowType: 'pkce' });
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    await client.auth.resetPasswordForEmail(email, { redirectTo: `${server.url}/reset-password` });
    const landing = await followLink(linkIn(await latestMail(server, email)));
    const code = landing.searchParams.get('code')!;
    const { error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(events).toContain('PASSWORD_RECOVERY');
  });

  it('answers recover for unknown addresses the same way, and sends nothing', async () => {
    const ghost = uniqueEmail('ghost');
    const { error } = await server.anon().auth.resetPasswordForEmail(ghost);
    expect(error).toBeNull();
    const { rows } = await server.deps.db.query(
      'select 1 from auth.dev_mailbox where to_address = $1',
      [ghost],
    );
    expect(rows).toHaveLength(0);
    const bad = await server.anon().auth.resetPasswordForEmail('nope');
    expect(bad.error).toMatchObject({ status: 400, code: 'email_address_invalid' });
  });

  it('verifies OTP codes and token hashes with POST /verify', async () => {
    const email = uniqueEmail('otp');
    const client = browserLikeClient(server);
    await client.auth.signUp({ email, password: 'a long enough passphrase' });
    const mail = await latestMail(server, email);
    const wrong = await client.auth.verifyOtp({
      email,
      token: '000000' === codeIn(mail) ? '111111' : '000000',
      type: 'signup',
    });
    expect(wrong.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });
    const ok = await client.auth.verifyOtp({ email, token: codeIn(mail), type: 'signup' });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.access_token).toBeTruthy();
    expect(ok.data.user?.email_confirmed_at).toBeTruthy();

    await client.auth.resetPasswordForEmail(email);
    const recovery = await latestMail(server, email);
    const tokenHash = new URL(linkIn(recovery)).searchParams.get('token')!;
    const byHash = await browserLikeClient(server).auth.verifyOtp({
      token_hash: tokenHash,
      type: 'recovery',
    });
    expect(byHash.error).toBeNull();
    expect(byHash.data.user?.email).toBe(email);
    const badType = await browserLikeClient(server).auth.verifyOtp({
      token_hash: tokenHash,
      type: 'sms' as never,
    });
    expect(badType.error?.status).toBe(400);
  });

  it('kills a mailed code after five wrong guesses', async () => {
    const email = uniqueEmail('guess');
    await browserLikeClient(server).auth.signUp({ email, password: 'a long enough passphrase' });
    const mail = await latestMail(server, email);
    const right = codeIn(mail);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const guess = await browserLikeClient(server).auth.verifyOtp({
        email,
        token: wrong,
        type: 'signup',
      });
      expect(guess.error?.code).toBe('otp_expired');
    }
    const late = await browserLikeClient(server).auth.verifyOtp({
      email,
      token: right,
      type: 'signup',
    });
    expect(late.error?.code).toBe('otp_expired');
    // The link is a separate, unguessable secret, and it died with the code.
    const landing = await followLink(linkIn(mail));
    expect(hashParams(landing).get('error_code')).toBe('otp_expired');
    // A new mail brings a working code.
    await browserLikeClient(server).auth.resend({ type: 'signup', email });
    const fresh = await latestMail(server, email);
    const ok = await browserLikeClient(server).auth.verifyOtp({
      email,
      token: codeIn(fresh),
      type: 'signup',
    });
    expect(ok.error).toBeNull();
  });

  it('needs the mailed nonce to change the password once the session is older than 24 h', async () => {
    const { client, email } = await confirmedUser(server);
    const session = (await client.auth.getSession()).data.session!;
    const sessionId = jose.decodeJwt(session.access_token).session_id;
    // A fresh session may change the password directly.
    expect((await client.auth.updateUser({ password: 'second long passphrase' })).error).toBeNull();

    await server.deps.db.query(
      `update auth.sessions set created_at = now() - interval '25 hours' where id = $1`,
      [sessionId],
    );
    const blocked = await client.auth.updateUser({ password: 'third long passphrase' });
    expect(blocked.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    const badNonce = await client.auth.updateUser({
      password: 'third long passphrase',
      nonce: '123',
    });
    expect(badNonce.error).toMatchObject({ code: 'reauthentication_not_valid' });

    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await latestMail(server, email);
    expect(mail.subject).toMatch(/security code/);
    const ok = await client.auth.updateUser({
      password: 'third long passphrase',
      nonce: codeIn(mail),
    });
    expect(ok.error).toBeNull();
    const same = await client.auth.updateUser({
      password: 'third long passphrase',
      nonce: codeIn(mail),
    });
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' });
    const signIn = await browserLikeClient(server).auth.signInWithPassword({
      email,
      password: 'third long passphrase',
    });
    expect(signIn.error).toBeNull();
  });

  it('checks a nonce sent with a fresh session too: a wrong one changes nothing', async () => {
    // The settings screen always re-authenticates; a wrong code must not be waved through
    // because the session happens to be recent.
    const { client, email } = await confirmedUser(server);
    const wrong = await client.auth.updateUser({
      password: 'fourth long passphrase',
      nonce: '000000',
    });
    expect(wrong.error).toMatchObject({ status: 400, code: 'reauthentication_not_valid' });
    const stillOld = await browserLikeClient(server).auth.signInWithPassword({
      email,
      password: 'fourth long passphrase',
    });
    expect(stillOld.error?.code).toBe('invalid_credentials');

    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await latestMail(server, email);
    const ok = await client.auth.updateUser({
      password: 'fourth long passphrase',
      nonce: codeIn(mail),
    });
    expect(ok.error).toBeNull();
    const signIn = await browserLikeClient(server).auth.signInWithPassword({
      email,
      password: 'fourth long passphrase',
    });
    expect(signIn.error).toBeNull();
  });

  it('shows mail in the dev mailbox at /_dev/mailbox in embedded mode only', async () => {
    const email = uniqueEmail('mailbox');
    await browserLikeClient(server).auth.signUp({ email, password: 'a long enough passphrase' });
    const page = await fetch(`${server.url}/_dev/mailbox?to=${encodeURIComponent(email)}`);
    if (kind === 'postgres') {
      // With a PostgreSQL server the mail is still stored, but not served.
      expect(page.status).toBe(404);
      expect((await latestMail(server, email)).subject).toMatch(/Confirm/);
      return;
    }
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Confirm your Lyceum account');
    expect(html).toMatch(/<a href="http:\/\/[^"]+\/auth\/v1\/verify\?token=/);
  });

  it('lets the service role list, create, update, ban and delete users', async () => {
    const admin = server.service().auth.admin;
    const email = uniqueEmail('admin-made');
    const created = await admin.createUser({
      email,
      password: 'a long enough passphrase',
      email_confirm: true,
      user_metadata: { full_name: 'Grace Hopper' },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user?.email_confirmed_at).toBeTruthy();
    const dup = await admin.createUser({ email, password: 'a long enough passphrase' });
    expect(dup.error).toMatchObject({ status: 422, code: 'email_exists' });
    const weak = await admin.createUser({ email: uniqueEmail(), password: 'password' });
    expect(weak.error?.code).toBe('weak_password');

    const list = await admin.listUsers({ page: 1, perPage: 2 });
    expect(list.error).toBeNull();
    expect(list.data.users.length).toBeLessThanOrEqual(2);
    expect((list.data as { total?: number }).total).toBeGreaterThanOrEqual(1);
    const got = await admin.getUserById(id);
    expect(got.data.user?.user_metadata).toEqual({ full_name: 'Grace Hopper' });

    const user = browserLikeClient(server);
    expect(
      (await user.auth.signInWithPassword({ email, password: 'a long enough passphrase' })).error,
    ).toBeNull();
    const banned = await admin.updateUserById(id, { ban_duration: '24h' });
    expect(banned.error).toBeNull();
    expect(banned.data.user?.banned_until).toBeTruthy();
    const blocked = await browserLikeClient(server).auth.signInWithPassword({
      email,
      password: 'a long enough passphrase',
    });
    expect(blocked.error).toMatchObject({ code: 'user_banned' });
    expect((await user.auth.getUser()).error).toBeTruthy();
    const badDuration = await admin.updateUserById(id, { ban_duration: 'forever' });
    expect(badDuration.error?.status).toBe(400);
    expect((await admin.updateUserById(id, { ban_duration: 'none' })).error).toBeNull();

    // Anyone else is refused.
    const { client } = await confirmedUser(server);
    const token = (await client.auth.getSession()).data.session!.access_token;
    const asUser = await fetch(`${server.url}/auth/v1/admin/users`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${token}` },
    });
    expect(asUser.status).toBe(403);
    expect((await asUser.json()).code).toBe('not_admin');

    expect((await admin.deleteUser(id)).error).toBeNull();
    expect((await admin.getUserById(id)).error).toMatchObject({
      status: 404,
      code: 'user_not_found',
    });
    const notUuid = await fetch(`${server.url}/auth/v1/admin/users/not-a-uuid`, {
      headers: { apikey: server.serviceRoleKey, authorization: `Bearer ${server.serviceRoleKey}` },
    });
    expect(notUuid.status).toBe(404);
  });

  it('lists users newest first with GoTrue paging, filter and sort, and 400s for bad pages', async () => {
    const admin = server.service().auth.admin;
    const tag = `Listing ${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const created = await admin.createUser({
        email: uniqueEmail(`listing${n}`),
        password: 'a long enough passphrase',
        email_confirm: true,
        user_metadata: { full_name: `${tag} ${n}` },
      });
      ids.push(created.data.user!.id);
    }
    const newest = await admin.listUsers({ page: 1, perPage: 1 });
    expect(newest.data.users.map((u) => u.id)).toEqual([ids[2]]);

    const list = (query: string) =>
      fetch(`${server.url}/auth/v1/admin/users?${query}`, {
        headers: {
          apikey: server.serviceRoleKey,
          authorization: `Bearer ${server.serviceRoleKey}`,
        },
      });
    const filtered = await list(`filter=${encodeURIComponent(tag.toLowerCase())}&per_page=2`);
    expect(filtered.status).toBe(200);
    expect(filtered.headers.get('x-total-count')).toBe('3');
    expect(filtered.headers.get('link')).toContain('rel="next"');
    const firstPage = (await filtered.json()) as { users: { id: string }[] };
    expect(firstPage.users.map((u) => u.id)).toEqual([ids[2], ids[1]]);
    const oldest = await list(`filter=${encodeURIComponent(tag)}&sort=created_at%20asc`);
    expect(((await oldest.json()) as { users: { id: string }[] }).users.map((u) => u.id)).toEqual(
      ids,
    );

    for (const [query, message] of [
      ['page=abc', 'Bad Pagination Parameters: strconv.ParseUint: parsing "abc": invalid syntax'],
      ['per_page=-1', 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax'],
      ['sort=email', 'Bad Sort Parameters: unknown field email'],
    ]) {
      const bad = await list(query!);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ code: 'validation_failed', message });
    }
  });
});

describe('auth abuse limits and the production mailbox switch', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', {
      AUTH_RATE_LIMIT_SIGN_IN: '3',
      AUTH_RATE_LIMIT_MFA_VERIFY: '2',
    });
  });
  afterAll(() => server?.stop());

  it('answers the fourth sign-in within five minutes with 429 over_request_rate_limit', async () => {
    const client = browserLikeClient(server);
    for (let i = 0; i < 3; i += 1) {
      const attempt = await client.auth.signInWithPassword({
        email: 'x@example.com',
        password: 'wrong password!',
      });
      expect(attempt.error?.code).toBe('invalid_credentials');
    }
    const limited = await client.auth.signInWithPassword({
      email: 'x@example.com',
      password: 'wrong password!',
    });
    expect(limited.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect(limited.error?.message).toMatch(/at most 3 per 5 minutes/);
    const raw = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.com', password: 'wrong password!' }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('keeps /_dev/mailbox out of production', async () => {
    const production = await startTestServer('pglite', { NODE_ENV: 'production' });
    try {
      expect((await fetch(`${production.url}/_dev/mailbox`)).status).toBe(404);
    } finally {
      await production.stop();
    }
  });
});

describe('auth links without SITE_URL on a public address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server?.stop());

  it('refuses to build a mail link from a forged Host header', async () => {
    const { email } = await confirmedUser(server);
    const before = await server.deps.db.query('select 1 from auth.dev_mailbox');
    // fetch() does not let a caller set Host; node:http does, as any attacker's client would.
    const { status, body } = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const request = http.request(
          `${server.url}/auth/v1/recover`,
          {
            method: 'POST',
            headers: {
              apikey: server.anonKey,
              'content-type': 'application/json',
              host: 'evil.example',
            },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify({ email }));
      },
    );
    expect(status).toBe(500);
    expect(JSON.parse(body).message).toMatch(/SITE_URL is not configured/);
    const after = await server.deps.db.query('select 1 from auth.dev_mailbox');
    expect(after.rows).toHaveLength(before.rows.length);
  });
});
