/**
 * Passkeys (AUTH_PASSKEYS, decision 0056) through supabase-js 2.119's passkey calls, answered
 * by a software authenticator: register while signed in, sign in with no address or password,
 * list, rename, delete, the admin's list and delete; GoTrue's refusals for a forged or reused
 * challenge, a wrong origin, a replayed assertion, an unknown credential, another user's
 * passkey, and passkeys while off.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SoftAuthenticator,
  type CreationOptions,
  type RequestOptions,
} from '../support/soft-authenticator';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser, userWithTotp } from './auth-support';

describe.each(databaseKinds)('passkeys on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_PASSKEYS: 'true',
      AUTH_PASSKEYS_MAX_PER_USER: '2',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_MFA_VERIFY: '1000',
    });
  });
  afterAll(() => server?.stop());

  async function register(client: SupabaseClient, authenticator: SoftAuthenticator) {
    const started = await client.auth.passkey.startRegistration();
    expect(started.error).toBeNull();
    const credential = authenticator.create(started.data!.options as unknown as CreationOptions);
    return client.auth.passkey.verifyRegistration({
      challengeId: started.data!.challenge_id,
      credential: credential.toJSON() as never,
    });
  }

  async function signIn(authenticator: SoftAuthenticator, tamper: { origin?: string } = {}) {
    const client = browserLikeClient(server);
    const started = await client.auth.passkey.startAuthentication();
    expect(started.error).toBeNull();
    const options = started.data!.options as unknown as RequestOptions;
    expect(options.allowCredentials ?? []).toEqual([]);
    const assertion = authenticator.get(options, tamper);
    const result = await client.auth.passkey.verifyAuthentication({
      challengeId: started.data!.challenge_id,
      credential: assertion.toJSON() as never,
    });
    return { client, result, assertion, challengeId: started.data!.challenge_id };
  }

  it('registers a passkey, signs in with it alone, renames, lists and deletes it', async () => {
    const { client, email } = await confirmedUser(server);
    const authenticator = new SoftAuthenticator(server.url);
    const registered = await register(client, authenticator);
    expect(registered.error).toBeNull();
    expect(registered.data).toMatchObject({ friendly_name: 'Passkey 1' });
    const passkeyId = (registered.data as unknown as { id: string }).id;

    const { client: fresh, result } = await signIn(authenticator);
    expect(result.error).toBeNull();
    const { data: userData } = await fresh.auth.getUser();
    expect(userData.user?.email).toBe(email);
    const aal = await fresh.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data?.currentLevel).toBe('aal1');
    expect(
      aal.data?.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method)),
    ).toEqual(['passkey']);
    // A passkey is not a second factor.
    expect((await fresh.auth.mfa.listFactors()).data?.all).toEqual([]);
    expect(aal.data?.nextLevel).toBe('aal1');

    const renamed = await fresh.auth.passkey.update({ passkeyId, friendlyName: 'Laptop' });
    expect(renamed.error).toBeNull();
    const listed = await fresh.auth.passkey.list();
    expect(listed.data).toEqual([
      expect.objectContaining({
        id: passkeyId,
        friendly_name: 'Laptop',
        last_used_at: expect.any(String),
      }),
    ]);
    const emptyName = await fresh.auth.passkey.update({ passkeyId, friendlyName: '' });
    expect(emptyName.error).toMatchObject({ status: 400, code: 'validation_failed' });

    const admin = server.service().auth.admin.passkey;
    const adminList = await admin.listPasskeys({ userId: userData.user!.id });
    expect(adminList.data).toEqual([expect.objectContaining({ id: passkeyId })]);

    expect((await fresh.auth.passkey.delete({ passkeyId })).error).toBeNull();
    expect((await fresh.auth.passkey.list()).data).toEqual([]);
    const after = await signIn(authenticator);
    expect(after.result.error).toMatchObject({ status: 400, code: 'webauthn_verification_failed' });

    // The administrator's delete, for a lost device.
    const again = await register(client, authenticator);
    const againId = (again.data as unknown as { id: string }).id;
    expect(
      (await admin.deletePasskey({ userId: userData.user!.id, passkeyId: againId })).error,
    ).toBeNull();
    expect((await admin.listPasskeys({ userId: userData.user!.id })).data).toEqual([]);
  });

  it('refuses replays, reused and forged challenges, wrong origins and unknown credentials', async () => {
    const { client } = await confirmedUser(server);
    const authenticator = new SoftAuthenticator(server.url);
    expect((await register(client, authenticator)).error).toBeNull();

    const first = await signIn(authenticator);
    expect(first.result.error).toBeNull();
    // The same assertion again: its challenge is used.
    const reused = await browserLikeClient(server).auth.passkey.verifyAuthentication({
      challengeId: first.challengeId,
      credential: first.assertion.toJSON() as never,
    });
    expect(reused.error).toMatchObject({
      status: 400,
      code: 'webauthn_challenge_not_found',
      message: 'Challenge not found or already used',
    });
    // On a new challenge, it was signed over the old one.
    const anon = browserLikeClient(server);
    const started = await anon.auth.passkey.startAuthentication();
    const replayed = await anon.auth.passkey.verifyAuthentication({
      challengeId: started.data!.challenge_id,
      credential: first.assertion.toJSON() as never,
    });
    expect(replayed.error).toMatchObject({ status: 400, code: 'webauthn_verification_failed' });
    expect(replayed.error?.message).toMatch(/challenge/i);

    const wrongOrigin = await signIn(authenticator, { origin: 'https://evil.example' });
    expect(wrongOrigin.result.error).toMatchObject({
      status: 400,
      code: 'webauthn_verification_failed',
    });
    expect(wrongOrigin.result.error?.message).toMatch(/origin/i);

    const stranger = new SoftAuthenticator(server.url);
    stranger.create({
      challenge: 'AAAA',
      rp: { id: 'localhost', name: 'x' },
      user: { id: 'AAAA', name: 'x' },
    });
    const unknown = await signIn(stranger);
    expect(unknown.result.error).toMatchObject({
      status: 400,
      code: 'webauthn_verification_failed',
    });

    const forged = await anon.auth.passkey.verifyAuthentication({
      challengeId: '00000000-0000-4000-8000-000000000000',
      credential: first.assertion.toJSON() as never,
    });
    expect(forged.error).toMatchObject({ status: 400, code: 'webauthn_challenge_not_found' });
    const notUuid = await anon.auth.passkey.verifyAuthentication({
      challengeId: 'abc',
      credential: first.assertion.toJSON() as never,
    });
    expect(notUuid.error).toMatchObject({
      status: 400,
      message: 'challenge_id must be a valid UUID',
    });

    // Nothing above moved the counter or signed anyone in: an honest sign-in still works.
    const honest = await signIn(authenticator);
    expect(honest.result.error).toBeNull();
  });

  it('keeps passkeys to their owner, asks for aal2 with MFA on, and caps their number', async () => {
    const owner = await confirmedUser(server);
    const authenticator = new SoftAuthenticator(server.url);
    const passkeyId = (
      (await register(owner.client, authenticator)).data as unknown as { id: string }
    ).id;
    const other = await confirmedUser(server);
    expect((await other.client.auth.passkey.delete({ passkeyId })).error).toMatchObject({
      status: 404,
      message: 'Passkey not found',
    });
    expect(
      (await other.client.auth.passkey.update({ passkeyId, friendlyName: 'Mine' })).error,
    ).toMatchObject({ status: 404 });
    // Another user's registration challenge cannot be answered by this one.
    const theirs = await other.client.auth.passkey.startRegistration();
    const hijack = await owner.client.auth.passkey.verifyRegistration({
      challengeId: theirs.data!.challenge_id,
      credential: authenticator
        .create(theirs.data!.options as unknown as CreationOptions)
        .toJSON() as never,
    });
    expect(hijack.error).toMatchObject({ status: 400, code: 'webauthn_challenge_not_found' });
    expect((await owner.client.auth.passkey.list()).data).toHaveLength(1);

    expect((await register(owner.client, authenticator)).error).toBeNull();
    const third = await owner.client.auth.passkey.startRegistration();
    expect(third.error).toMatchObject({ status: 422, code: 'too_many_passkeys' });

    const mfa = await userWithTotp(server);
    const relogged = browserLikeClient(server);
    await relogged.auth.signInWithPassword({ email: mfa.email, password: mfa.password });
    const atAal1 = await relogged.auth.passkey.startRegistration();
    expect(atAal1.error).toMatchObject({
      status: 403,
      code: 'insufficient_aal',
      message: 'AAL2 session is required to manage passkeys when MFA is enabled',
    });
    expect((await mfa.client.auth.passkey.startRegistration()).error).toBeNull();
  });
});

describe('passkeys while off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server?.stop());

  it('answers GoTrue’s 404 passkey_disabled', async () => {
    const result = await server.anon().auth.passkey.startAuthentication();
    expect(result.error).toMatchObject({
      status: 404,
      code: 'passkey_disabled',
      message: 'Passkeys are disabled',
    });
    const settings = await fetch(`${server.url}/auth/v1/settings`, {
      headers: { apikey: server.anonKey },
    }).then((r) => r.json());
    expect(settings.passkeys_enabled).toBe(false);
  });
});
