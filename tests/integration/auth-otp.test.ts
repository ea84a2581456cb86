/**
 * `signInWithOtp` with an email, as supabase-js sends it (`POST /otp`): a magic link and a code
 * for a confirmed account, a sign-up confirmation for a new address, GoTrue's refusals; the
 * same links and codes returned to the service role by `admin.generateLink` instead of mailed;
 * and unknown auth paths answered with a JSON 404 instead of the web app's page.
 */
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

describe.each(databaseKinds)('email OTP and magic links on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      SITE_URL: undefined,
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
    });
  });
  afterAll(() => server?.stop());

  it('mails a confirmed account a magic link that signs in, and a code that signs in once', async () => {
    const { email } = await confirmedUser(server);
    const client = browserLikeClient(server);
    const redirect = `${server.url}/app`;
    const sent = await client.auth.signInWithOtp({ email, options: { emailRedirectTo: redirect } });
    expect(sent.error).toBeNull();
    expect(sent.data).toMatchObject({ user: null, session: null });

    const mail = await latestMail(server, email);
    expect(mail.subject).toBe('Your Lyceum sign-in link');
    const landing = await followLink(linkIn(mail));
    expect(`${landing.origin}${landing.pathname}`).toBe(redirect);
    const params = hashParams(landing);
    expect(params.get('type')).toBe('magiclink');
    const me = await server.anon().auth.getUser(params.get('access_token')!);
    expect(me.data.user?.email).toBe(email);

    // The same link works once.
    const again = await followLink(linkIn(mail));
    expect(hashParams(again).get('error_code')).toBe('otp_expired');

    // The code from a new mail, typed in: `verifyOtp` with type 'email' (or 'magiclink').
    await client.auth.signInWithOtp({ email });
    const code = codeIn(await latestMail(server, email));
    const wrong = await client.auth.verifyOtp({ email, token: '000000', type: 'email' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const verified = await client.auth.verifyOtp({ email, token: code, type: 'email' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
    const reused = await client.auth.verifyOtp({ email, token: code, type: 'magiclink' });
    expect(reused.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('signs a new address up with a confirmation mail, and its link signs in', async () => {
    const email = uniqueEmail('otp-new');
    const client = browserLikeClient(server);
    const sent = await client.auth.signInWithOtp({
      email,
      options: { data: { full_name: 'Grace Hopper' } },
    });
    expect(sent.error).toBeNull();
    const mail = await latestMail(server, email);
    expect(mail.subject).toBe('Confirm your Lyceum account');
    const params = hashParams(await followLink(linkIn(mail)));
    expect(params.get('type')).toBe('signup');
    const me = await server.anon().auth.getUser(params.get('access_token')!);
    expect(me.data.user).toMatchObject({ email, user_metadata: { full_name: 'Grace Hopper' } });
    expect(me.data.user?.email_confirmed_at).toBeTruthy();

    // Now confirmed, the next request is a magic link, not another confirmation.
    await client.auth.signInWithOtp({ email });
    expect((await latestMail(server, email)).subject).toBe('Your Lyceum sign-in link');
    // It has no password: password sign-in is refused.
    const withPassword = await client.auth.signInWithPassword({
      email,
      password: 'anything at all',
    });
    expect(withPassword.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  });

  it('ends a PKCE magic link in a code the client exchanges for a session', async () => {
    const { email } = await confirmedUser(server);
    const client = browserLikeClient(server, { flowType: 'pkce' });
    const redirect = `${server.url}/app`;
    expect(
      (await client.auth.signInWithOtp({ email, options: { emailRedirectTo: redirect } })).error,
    ).toBeNull();
    const landing = await followLink(linkIn(await latestMail(server, email)));
    const code = landing.searchParams.get('code');
    expect(code).toBeTruthy();
    const exchanged = await client.auth.exchangeCodeForSession(code!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.session?.user.email).toBe(email);
  });

  it('refuses what GoTrue refuses, with its codes and messages, and sends nothing', async () => {
    const client = server.anon();
    const email = uniqueEmail('otp-refused');
    const noSignUp = await client.auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false },
    });
    expect(noSignUp.error).toMatchObject({
      status: 422,
      code: 'otp_disabled',
      message: 'Signups not allowed for otp',
    });
    expect(await mailCount(server, email)).toBe(0);

    const phone = await client.auth.signInWithOtp({ phone: '+441234567890' });
    expect(phone.error).toMatchObject({ status: 400, code: 'phone_provider_disabled' });

    const post = (body: unknown) =>
      fetch(`${server.url}/auth/v1/otp`, {
        method: 'POST',
        headers: { apikey: server.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const both = await post({ email, phone: '+441234567890' });
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({
      code: 'validation_failed',
      message: 'Only an email address or phone number should be provided',
    });
    const neither = await post({});
    expect(await neither.json()).toMatchObject({
      code: 'validation_failed',
      message: 'One of email or phone must be set',
    });
    const invalid = await post({ email: 'not an address' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: 'email_address_invalid' });
    const badType = await post({ email, create_user: 'yes' });
    expect(badType.status).toBe(400);
    expect(await badType.json()).toMatchObject({ code: 'bad_json' });
    expect(await mailCount(server, email)).toBe(0);
  });

  it('generates magic-link, sign-up, invite, recovery and email-change links without mailing them', async () => {
    const admin = server.service().auth.admin;
    const redirectTo = `${server.url}/app`;

    const { email } = await confirmedUser(server);
    const mailsBefore = await mailCount(server, email);
    const magic = await admin.generateLink({ type: 'magiclink', email, options: { redirectTo } });
    expect(magic.error).toBeNull();
    expect(magic.data.user?.email).toBe(email);
    expect(magic.data.properties).toMatchObject({
      verification_type: 'magiclink',
      redirect_to: redirectTo,
    });
    expect(magic.data.properties?.email_otp).toMatch(/^\d{6}$/);
    const signedIn = hashParams(await followLink(magic.data.properties!.action_link));
    expect(signedIn.get('type')).toBe('magiclink');
    expect((await server.anon().auth.getUser(signedIn.get('access_token')!)).data.user?.email).toBe(
      email,
    );

    // hashed_token is what verifyOtp({ token_hash }) takes; the code works by address.
    const recovery = await admin.generateLink({ type: 'recovery', email });
    const byHash = await server.anon().auth.verifyOtp({
      token_hash: recovery.data.properties!.hashed_token,
      type: 'recovery',
    });
    expect(byHash.error).toBeNull();
    expect(byHash.data.session?.user.email).toBe(email);

    const newEmail = uniqueEmail('generated-change');
    const change = await admin.generateLink({ type: 'email_change_new', email, newEmail });
    expect(change.error).toBeNull();
    expect(change.data.properties?.verification_type).toBe('email_change_new');
    await followLink(change.data.properties!.action_link);
    const { data: changed } = await admin.getUserById(magic.data.user!.id);
    expect(changed.user?.email).toBe(newEmail);
    expect(await mailCount(server, email)).toBe(mailsBefore);

    const signUpEmail = uniqueEmail('generated-signup');
    const signUp = await admin.generateLink({
      type: 'signup',
      email: signUpEmail,
      password: 'a long enough passphrase',
      options: { data: { full_name: 'Katherine Johnson' } },
    });
    expect(signUp.error).toBeNull();
    expect(signUp.data.user).toMatchObject({
      email: signUpEmail,
      user_metadata: { full_name: 'Katherine Johnson' },
    });
    expect(signUp.data.user?.email_confirmed_at).toBeFalsy();
    const confirmed = await server.anon().auth.verifyOtp({
      email: signUpEmail,
      token: signUp.data.properties!.email_otp,
      type: 'signup',
    });
    expect(confirmed.error).toBeNull();
    const withPassword = await server.anon().auth.signInWithPassword({
      email: signUpEmail,
      password: 'a long enough passphrase',
    });
    expect(withPassword.error).toBeNull();

    const invitee = uniqueEmail('generated-invite');
    const invite = await admin.generateLink({ type: 'invite', email: invitee });
    expect(invite.data.properties?.verification_type).toBe('invite');
    expect(hashParams(await followLink(invite.data.properties!.action_link)).get('type')).toBe(
      'invite',
    );

    // A magic link for an address without an account is a sign-up link, as GoTrue makes it.
    const stranger = uniqueEmail('generated-magic-new');
    const firstMagic = await admin.generateLink({ type: 'magiclink', email: stranger });
    expect(firstMagic.data.properties?.verification_type).toBe('signup');
    for (const address of [signUpEmail, invitee, stranger])
      expect(await mailCount(server, address)).toBe(0);
  });

  it('refuses generate_link as GoTrue does', async () => {
    const admin = server.service().auth.admin;
    const missing = await admin.generateLink({ type: 'recovery', email: uniqueEmail('nobody') });
    expect(missing.error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User with this email not found',
    });
    const { email } = await confirmedUser(server);
    const again = await admin.generateLink({
      type: 'signup',
      email,
      password: 'a long enough passphrase',
    });
    expect(again.error).toMatchObject({ status: 422, code: 'email_exists' });
    const current = await admin.generateLink({
      type: 'email_change_current',
      email,
      newEmail: uniqueEmail('current'),
    });
    expect(current.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const noPassword = await admin.generateLink({
      type: 'signup',
      email: uniqueEmail('no-password'),
    } as never);
    expect(noPassword.error).toMatchObject({ status: 422, code: 'validation_failed' });

    const post = (key: string, body: unknown) =>
      fetch(`${server.url}/auth/v1/admin/generate_link`, {
        method: 'POST',
        headers: {
          apikey: key,
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const unknownType = await post(server.serviceRoleKey, { type: 'teleport', email });
    expect(unknownType.status).toBe(400);
    expect(await unknownType.json()).toMatchObject({
      code: 'validation_failed',
      message: 'Invalid email action link type requested: teleport',
    });
    const asAnon = await post(server.anonKey, { type: 'magiclink', email });
    expect(asAnon.status).toBe(403);
  });

  it('answers unknown auth paths with a JSON 404, and known ones still answer', async () => {
    // Admin paths need the service role first, known or not (as GoTrue's admin routes do).
    for (const [method, path, key] of [
      ['GET', '/no-such-endpoint', server.anonKey],
      ['POST', '/admin/nothing/here', server.serviceRoleKey],
      ['DELETE', '/otp', server.anonKey],
    ] as const) {
      const response = await fetch(`${server.url}/auth/v1${path}`, {
        method,
        headers: { apikey: key, authorization: `Bearer ${key}` },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({
        code: 'not_found',
        message: `No auth endpoint ${method} /auth/v1${path}`,
      });
    }
    const settings = await fetch(`${server.url}/auth/v1/settings`, {
      headers: { apikey: server.anonKey },
    });
    expect(settings.status).toBe(200);
    const metadata = await fetch(`${server.url}/auth/v1/sso/saml/metadata`, {
      headers: { apikey: server.anonKey },
    });
    expect(metadata.status).not.toBe(404);
  });
});

describe('email OTP behind the beta gate', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { SITE_URL: undefined, BETA_GATE: 'true' });
  });
  afterAll(() => server?.stop());

  it('needs a coupon to create an account, as a sign-up does, but not to sign in', async () => {
    const email = uniqueEmail('otp-gated');
    const refused = await server.anon().auth.signInWithOtp({ email });
    expect(refused.error).toMatchObject({ status: 403, code: 'coupon_required' });
    expect(await mailCount(server, email)).toBe(0);
    const { rows } = await server.deps.db.query('select 1 from auth.users where email = $1', [
      email,
    ]);
    expect(rows).toHaveLength(0);

    const member = uniqueEmail('otp-member');
    const created = await server.service().auth.admin.createUser({
      email: member,
      password: 'a long enough passphrase',
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    expect((await server.anon().auth.signInWithOtp({ email: member })).error).toBeNull();
    expect((await latestMail(server, member)).subject).toBe('Your Lyceum sign-in link');
  });
});

describe("GoTrue's sign-up settings", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', {
      SITE_URL: undefined,
      AUTH_DISABLE_SIGNUP: 'true',
      AUTH_PASSWORD_MIN_LENGTH: '12',
      AUTH_MANUAL_LINKING: 'false',
    });
  });
  afterAll(() => server?.stop());

  it('refuses sign-ups with GoTrue’s message while the service role still creates accounts', async () => {
    const settings = await fetch(`${server.url}/auth/v1/settings`, {
      headers: { apikey: server.anonKey },
    });
    expect(await settings.json()).toMatchObject({ disable_signup: true, password_min_length: 12 });

    const refused = {
      status: 422,
      code: 'signup_disabled',
      message: 'Signups not allowed for this instance',
    };
    const email = uniqueEmail('closed');
    const signUp = await server.anon().auth.signUp({ email, password: 'a long enough passphrase' });
    expect(signUp.error).toMatchObject(refused);
    expect((await server.anon().auth.signInWithOtp({ email })).error).toMatchObject(refused);
    const admin = server.service().auth.admin;
    const link = await admin.generateLink({
      type: 'signup',
      email,
      password: 'a long enough passphrase',
    });
    expect(link.error).toMatchObject(refused);
    expect(await mailCount(server, email)).toBe(0);

    const short = await admin.createUser({ email, password: 'eleven char', email_confirm: true });
    expect(short.error).toMatchObject({
      status: 422,
      code: 'weak_password',
      message: 'Password should be at least 12 characters.',
    });
    const created = await admin.createUser({
      email,
      password: 'a long enough passphrase',
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    // An existing account still signs in by magic link.
    expect((await server.anon().auth.signInWithOtp({ email })).error).toBeNull();
    const invited = await admin.inviteUserByEmail(uniqueEmail('closed-invite'));
    expect(invited.error).toBeNull();
  });

  it('refuses linkIdentity while manual linking is off', async () => {
    const email = uniqueEmail('no-linking');
    await server.service().auth.admin.createUser({
      email,
      password: 'a long enough passphrase',
      email_confirm: true,
    });
    const client = browserLikeClient(server);
    expect(
      (await client.auth.signInWithPassword({ email, password: 'a long enough passphrase' })).error,
    ).toBeNull();
    const linked = await client.auth.linkIdentity({ provider: 'google' });
    expect(linked.error).toMatchObject({
      status: 404,
      code: 'manual_linking_disabled',
      message: 'Manual linking is disabled',
    });
  });
});
