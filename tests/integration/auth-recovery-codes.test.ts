import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, userWithTotp } from './auth-support';

async function signedInAtAal1(server: TestServer, email: string, password: string) {
  const client = browserLikeClient(server);
  expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull();
  const level = (await client.auth.mfa.getAuthenticatorAssuranceLevel()).data;
  expect(level).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
  return client;
}

async function methods(client: SupabaseClient): Promise<string[]> {
  const level = (await client.auth.mfa.getAuthenticatorAssuranceLevel()).data!;
  return level.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method));
}

/** How a person might type a code from paper: upper case, in blocks of four. */
const typed = (code: string) => code.toUpperCase().match(/.{4}/g)!.join('-');

describe.each(databaseKinds)('MFA recovery codes on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_MFA_VERIFY: '1000',
    });
  });
  afterAll(() => server?.stop());

  it('generates ten codes once at aal2; each stands in for the authenticator once and reaches aal2', async () => {
    const { client, email, password } = await userWithTotp(server);
    const none = await client.auth.mfa.recoveryCodes.getStatus();
    expect(none.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });

    const generated = await client.auth.mfa.recoveryCodes.generate();
    expect(generated.error).toBeNull();
    const { codes, total, id } = generated.data!;
    expect(total).toBe(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{16}$/);
    expect(generated.data).toMatchObject({
      type: 'recovery_code',
      friendly_name: 'Recovery codes',
    });
    const again = await client.auth.mfa.recoveryCodes.generate();
    expect(again.error).toMatchObject({ status: 422, code: 'mfa_verified_factor_exists' });
    const { rows } = await server.deps.db.query<{ code_hash: string }>(
      'select code_hash from auth.mfa_recovery_codes where factor_id = $1',
      [id],
    );
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.code_hash)).not.toContain(codes[0]);

    // A session that got no further than the password: the thief's, perhaps.
    const thief = await signedInAtAal1(server, email, password);
    const owner = await signedInAtAal1(server, email, password);
    const listed = await owner.auth.mfa.listFactors();
    expect(listed.data?.recovery_code).toEqual([
      expect.objectContaining({ id, status: 'verified' }),
    ]);
    const used = await owner.auth.mfa.recoveryCodes.verify({ code: typed(codes[0]!) });
    expect(used.error).toBeNull();
    expect((await owner.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
    expect(await methods(owner)).toEqual(['mfa/recovery_code', 'password']);
    expect((await owner.auth.refreshSession()).error).toBeNull();
    expect((await owner.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
    expect((await thief.auth.getUser()).error?.name).toBe('AuthSessionMissingError');
    expect((await owner.auth.mfa.recoveryCodes.getStatus()).data).toEqual({
      id,
      type: 'recovery_code',
      total: 10,
      remaining: 9,
    });

    const later = await signedInAtAal1(server, email, password);
    const reused = await later.auth.mfa.recoveryCodes.verify({ code: codes[0]! });
    expect(reused.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const bogus = await later.auth.mfa.recoveryCodes.verify({ code: 'not a code' });
    expect(bogus.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const empty = await later.auth.mfa.recoveryCodes.verify({ code: '' });
    expect(empty.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await later.auth.mfa.recoveryCodes.verify({ code: codes[1]! })).error).toBeNull();
  });

  it('regenerates and removes codes only at aal2; new codes replace the old ones', async () => {
    const { client, email, password } = await userWithTotp(server);
    const first = (await client.auth.mfa.recoveryCodes.generate()).data!;
    const atAal1 = await signedInAtAal1(server, email, password);
    for (const call of [
      () => atAal1.auth.mfa.recoveryCodes.regenerate(),
      () => atAal1.auth.mfa.recoveryCodes.unenroll(),
      () => atAal1.auth.mfa.recoveryCodes.generate(),
    ]) {
      expect((await call()).error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    }
    // The status is readable at aal1, so the sign-in screen can offer a code.
    expect((await atAal1.auth.mfa.recoveryCodes.getStatus()).data?.remaining).toBe(10);

    const second = (await client.auth.mfa.recoveryCodes.regenerate()).data!;
    expect(second.id).toBe(first.id);
    expect(second.codes).toHaveLength(10);
    const stale = await atAal1.auth.mfa.recoveryCodes.verify({ code: first.codes[0]! });
    expect(stale.error?.code).toBe('mfa_verification_failed');
    expect(
      (await atAal1.auth.mfa.recoveryCodes.verify({ code: second.codes[0]! })).error,
    ).toBeNull();

    expect((await client.auth.mfa.recoveryCodes.unenroll()).data).toEqual({ id: first.id });
    expect((await client.auth.mfa.recoveryCodes.getStatus()).error?.code).toBe(
      'mfa_factor_not_found',
    );
  });

  it('locks the codes for ten minutes after ten wrong ones', async () => {
    const { client, email, password } = await userWithTotp(server);
    const { codes } = (await client.auth.mfa.recoveryCodes.generate()).data!;
    const guesser = await signedInAtAal1(server, email, password);
    for (let i = 0; i < 10; i += 1) {
      const wrong = await guesser.auth.mfa.recoveryCodes.verify({ code: 'zzzzzzzzzzzzzzzz' });
      expect(wrong.error?.code).toBe('mfa_verification_failed');
    }
    const locked = await guesser.auth.mfa.recoveryCodes.verify({ code: codes[0]! });
    expect(locked.error).toMatchObject({ status: 429, code: 'mfa_recovery_codes_locked' });
    expect(locked.error?.message).toMatch(/Try again in 10 minutes/);
  });

  it('goes with the last authenticator, and is not challenged like one', async () => {
    const { client, factorId } = await userWithTotp(server);
    const { id } = (await client.auth.mfa.recoveryCodes.generate()).data!;
    const challenge = await client.auth.mfa.challenge({ factorId: id });
    expect(challenge.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(challenge.error?.message).toMatch(/recovery-codes\/verify/);
    expect((await client.auth.mfa.unenroll({ factorId })).error).toBeNull();
    const user = await client.auth.getUser();
    expect(user.data.user?.factors ?? []).toEqual([]);
    // The session is aal1 again from its next token on.
    expect((await client.auth.refreshSession()).error).toBeNull();
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal1',
    });
  });

  it('lets an administrator remove a lost authenticator so the user can sign in and enrol again', async () => {
    const { client, email, password, factorId } = await userWithTotp(server);
    await client.auth.mfa.recoveryCodes.generate();
    const userId = (await client.auth.getUser()).data.user!.id;
    const admin = server.service().auth.admin;

    const listed = await admin.mfa.listFactors({ userId });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors.map((f) => f.factor_type).sort()).toEqual([
      'recovery_code',
      'totp',
    ]);
    const missing = await admin.mfa.deleteFactor({
      userId,
      id: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const byUser = await browserLikeClient(server).auth.admin.mfa.deleteFactor({
      userId,
      id: factorId,
    });
    expect(byUser.error).not.toBeNull();

    const removed = await admin.mfa.deleteFactor({ userId, id: factorId });
    expect(removed.error).toBeNull();
    expect((await admin.mfa.listFactors({ userId })).data?.factors).toEqual([]);

    const back = browserLikeClient(server);
    expect((await back.auth.signInWithPassword({ email, password })).error).toBeNull();
    expect((await back.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: 'aal1',
      nextLevel: 'aal1',
    });
    expect((await back.auth.updateUser({ password: 'a fresh start passphrase' })).error).toBeNull();
    expect((await back.auth.mfa.listFactors()).data?.all).toEqual([]);
  });
});
