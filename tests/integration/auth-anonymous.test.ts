/**
 * `signInAnonymously()` as GoTrue answers it: off unless AUTH_ANONYMOUS_USERS is set, an
 * account with `is_anonymous` in the user and in the access token (so row-level security can
 * tell anonymous users apart), and the way to a permanent account later: an address added with
 * `updateUser({ email })` and confirmed, then a password.
 */
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

describe.each(databaseKinds)('anonymous sign-ins on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      SITE_URL: undefined,
      AUTH_ANONYMOUS_USERS: 'true',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_ANONYMOUS: '1000',
    });
    await server.deps.db.exec(`
      create table public.anon_guestbook (
        author uuid not null default auth.uid(),
        body text not null
      );
      alter table public.anon_guestbook enable row level security;
      grant select, insert on public.anon_guestbook to authenticated;
      create policy "everyone signed in reads" on public.anon_guestbook for select
        to authenticated using (true);
      create policy "permanent users write" on public.anon_guestbook for insert
        to authenticated
        with check (author = auth.uid() and (auth.jwt() ->> 'is_anonymous')::boolean is false);
      notify pgrst, 'reload schema';
    `);
  });
  afterAll(() => server?.stop());

  it('signs in with no address: a session whose user and token say is_anonymous', async () => {
    const client = browserLikeClient(server);
    const { data, error } = await client.auth.signInAnonymously({
      options: { data: { nickname: 'visitor' } },
    });
    expect(error).toBeNull();
    const user = data.user!;
    expect(user).toMatchObject({
      is_anonymous: true,
      email: '',
      phone: '',
      role: 'authenticated',
      aud: 'authenticated',
      identities: [],
      user_metadata: { nickname: 'visitor' },
    });
    expect(user.app_metadata.provider).toBeUndefined();
    const claims = jose.decodeJwt(data.session!.access_token);
    expect(claims).toMatchObject({
      sub: user.id,
      role: 'authenticated',
      is_anonymous: true,
      amr: [{ method: 'anonymous' }],
    });
    // The session works like any other: the user endpoint and a refresh.
    const me = await client.auth.getUser();
    expect(me.data.user?.is_anonymous).toBe(true);
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(jose.decodeJwt(refreshed.data.session!.access_token).is_anonymous).toBe(true);
  });

  it('lets row-level security tell anonymous users from permanent ones', async () => {
    const guest = browserLikeClient(server);
    expect((await guest.auth.signInAnonymously()).error).toBeNull();
    const refused = await guest.from('anon_guestbook').insert({ body: 'from a guest' });
    expect(refused.error?.code).toBe('42501');

    const member = await confirmedUser(server);
    const written = await member.client.from('anon_guestbook').insert({ body: 'from a member' });
    expect(written.error).toBeNull();
    // Reading is open to both: the guest is an authenticated user, as on Supabase.
    const read = await guest.from('anon_guestbook').select('body');
    expect(read.data).toEqual(expect.arrayContaining([{ body: 'from a member' }]));
  });

  it('links an address by confirmation, then takes a password: a permanent account', async () => {
    const client = browserLikeClient(server);
    const signedIn = await client.auth.signInAnonymously();
    const id = signedIn.data.user!.id;

    // GoTrue's rule: no password for an anonymous account without an address to recover it.
    const early = await client.auth.updateUser({ password: 'a long enough passphrase' });
    expect(early.error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      message: 'Updating password of an anonymous user without an email or phone is not allowed',
    });

    const email = uniqueEmail('anon-link');
    const asked = await client.auth.updateUser({ email });
    expect(asked.error).toBeNull();
    expect(asked.data.user).toMatchObject({ id, is_anonymous: true, new_email: email });

    // A wrong code changes nothing; the mailed one links the address.
    const mail = await latestMail(server, email);
    const wrong = await client.auth.verifyOtp({ email, token: '000000', type: 'email_change' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const verified = await client.auth.verifyOtp({
      email,
      token: codeIn(mail),
      type: 'email_change',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user).toMatchObject({ id, email, is_anonymous: false });
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();
    expect(verified.data.user?.app_metadata).toMatchObject({
      provider: 'email',
      providers: ['email'],
    });
    expect(jose.decodeJwt(verified.data.session!.access_token).is_anonymous).toBe(false);

    const password = 'a long enough passphrase';
    const set = await client.auth.updateUser({ password });
    expect(set.error).toBeNull();
    const again = browserLikeClient(server);
    const byPassword = await again.auth.signInWithPassword({ email, password });
    expect(byPassword.error).toBeNull();
    expect(byPassword.data.user).toMatchObject({ id, is_anonymous: false });

    // Now permanent, the same person may write where guests may not.
    const written = await again.from('anon_guestbook').insert({ body: 'linked' });
    expect(written.error).toBeNull();
  });

  it('links through the mailed link too, and refuses an address another account has', async () => {
    const taken = await confirmedUser(server);
    const client = browserLikeClient(server);
    await client.auth.signInAnonymously();
    const clash = await client.auth.updateUser({ email: taken.email });
    expect(clash.error).toMatchObject({ status: 422, code: 'email_exists' });

    const email = uniqueEmail('anon-link');
    expect((await client.auth.updateUser({ email })).error).toBeNull();
    const landing = hashParams(await followLink(linkIn(await latestMail(server, email))));
    expect(landing.get('type')).toBe('email_change');
    const me = await server.anon().auth.getUser(landing.get('access_token')!);
    expect(me.data.user).toMatchObject({ email, is_anonymous: false });
  });

  it('keeps second factors for permanent accounts, as GoTrue does', async () => {
    const client = browserLikeClient(server);
    await client.auth.signInAnonymously();
    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    expect(enrolled.error).toMatchObject({
      status: 403,
      code: 'no_authorization',
      message: 'Anonymous user not allowed to perform these actions',
    });
  });

  it('reports the setting in /settings', async () => {
    const response = await fetch(`${server.url}/auth/v1/settings`, {
      headers: { apikey: server.anonKey },
    });
    expect((await response.json()).external).toMatchObject({ anonymous_users: true });
  });
});

describe('anonymous sign-ins: the setting and the limits', () => {
  let off: TestServer | undefined;
  let limited: TestServer | undefined;
  afterAll(async () => {
    await off?.stop();
    await limited?.stop();
  });

  it('are off by default, with GoTrue’s code and message', async () => {
    off = await startTestServer('pglite', { SITE_URL: undefined });
    const { data, error } = await browserLikeClient(off).auth.signInAnonymously();
    expect(data.session).toBeNull();
    expect(error).toMatchObject({
      status: 422,
      code: 'anonymous_provider_disabled',
      message: 'Anonymous sign-ins are disabled',
    });
    const { rows } = await off.deps.db.query<{ n: number }>(
      'select count(*)::int as n from auth.users where is_anonymous',
    );
    expect(rows[0]!.n).toBe(0);
    const settings = await fetch(`${off.url}/auth/v1/settings`, {
      headers: { apikey: off.anonKey },
    });
    expect((await settings.json()).external).toMatchObject({ anonymous_users: false });
  });

  it('count per address per hour, and need the beta gate’s coupon like any sign-up', async () => {
    limited = await startTestServer('pglite', {
      SITE_URL: undefined,
      AUTH_ANONYMOUS_USERS: 'true',
      AUTH_RATE_LIMIT_ANONYMOUS: '2',
      BETA_GATE: 'true',
    });
    const gated = await browserLikeClient(limited).auth.signInAnonymously();
    expect(gated.error).toMatchObject({ status: 403, code: 'coupon_required' });

    await limited.deps.db.query(
      "insert into public.coupons (code, tier, max_redemptions) values ('GUEST-PASS', 'free', 10)",
    );
    const withCoupon = await browserLikeClient(limited).auth.signInAnonymously({
      options: { data: { coupon: 'GUEST-PASS' } },
    });
    expect(withCoupon.error).toBeNull();
    expect(withCoupon.data.user?.user_metadata.coupon).toBeUndefined();

    const over = await browserLikeClient(limited).auth.signInAnonymously({
      options: { data: { coupon: 'GUEST-PASS' } },
    });
    expect(over.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect(over.error?.message).toMatch(/anonymous sign-ins .* per hour/);
  });

  it('are refused while sign-ups are disabled', async () => {
    const server = await startTestServer('pglite', {
      SITE_URL: undefined,
      AUTH_ANONYMOUS_USERS: 'true',
      AUTH_DISABLE_SIGNUP: 'true',
    });
    try {
      const { error } = await browserLikeClient(server).auth.signInAnonymously();
      expect(error).toMatchObject({ status: 422, code: 'signup_disabled' });
    } finally {
      await server.stop();
    }
  });
});
