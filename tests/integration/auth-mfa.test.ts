import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser } from './auth-support';

function codeFor(secret: string, offsetSteps = 0): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });
}

describe.each(databaseKinds)('auth MFA (TOTP) on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_MFA_VERIFY: '1000',
    });
  });
  afterAll(() => server?.stop());

  it('enrols with a QR code, verifies to aal2, and asks for the code at the next sign-in', async () => {
    const { client, email, password } = await confirmedUser(server);
    const enrolled = await client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Phone app',
    });
    expect(enrolled.error).toBeNull();
    const factor = enrolled.data!;
    expect(factor.type).toBe('totp');
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    expect(factor.totp.uri).toMatch(/^otpauth:\/\/totp\/Lyceum:/);
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]+$/);

    const duplicate = await client.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Phone app',
    });
    expect(duplicate.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });

    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data?.expires_at).toBeGreaterThan(Date.now() / 1000);
    const wrong = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: codeFor(factor.totp.secret, 5),
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    });

    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    const verified = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: codeFor(factor.totp.secret),
    });
    expect(verified.error).toBeNull();
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(
      aal.data?.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method)),
    ).toEqual(['totp', 'password']);
    const factors = await client.auth.mfa.listFactors();
    expect(factors.data?.totp).toEqual([
      expect.objectContaining({ id: factor.id, status: 'verified', friendly_name: 'Phone app' }),
    ]);

    // The same code cannot be used twice.
    const challenge2 = await client.auth.mfa.challenge({ factorId: factor.id });
    const replay = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge2.data!.id,
      code: codeFor(factor.totp.secret),
    });
    expect(replay.error?.code).toBe('mfa_verification_failed');

    // A refresh keeps aal2.
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe(
      'aal2',
    );

    // Next sign-in: aal1 with aal2 as the next level, until the code is entered.
    const second = browserLikeClient(server);
    await second.auth.signInWithPassword({ email, password });
    const level = await second.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const enrollAtAal1 = await second.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Another',
    });
    expect(enrollAtAal1.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    const unenrollAtAal1 = await second.auth.mfa.unenroll({ factorId: factor.id });
    expect(unenrollAtAal1.error).toMatchObject({ code: 'insufficient_aal' });
    const next = await second.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: codeFor(factor.totp.secret, 1),
    });
    expect(next.error).toBeNull();
    expect((await second.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe(
      'aal2',
    );

    const removed = await second.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factor.id });
    const after = await second.auth.getUser();
    expect(after.data.user?.factors).toEqual([]);
  });

  it('locks a factor for ten minutes after ten wrong codes, whatever the address', async () => {
    const { client } = await confirmedUser(server);
    const factor = (await client.auth.mfa.enroll({ factorType: 'totp' })).data!;
    const wrong = codeFor(factor.totp.secret, 10);
    for (let i = 0; i < 10; i += 1) {
      const attempt = await client.auth.mfa.challengeAndVerify({
        factorId: factor.id,
        code: wrong,
      });
      expect(attempt.error?.code).toBe('mfa_verification_failed');
    }
    const locked = await client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: codeFor(factor.totp.secret),
    });
    expect(locked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    expect(locked.error?.message).toMatch(/Try again in 10 minutes/);
    await server.deps.db.query(
      `update auth.mfa_factors set locked_until = now() - interval '1 second' where id = $1`,
      [factor.id],
    );
    const after = await client.auth.mfa.challengeAndVerify({
      factorId: factor.id,
      code: codeFor(factor.totp.secret),
    });
    expect(after.error).toBeNull();
  });

  it('refuses phone factors while off, unknown factors and expired challenges clearly', async () => {
    const { client } = await confirmedUser(server);
    const phone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550100' });
    expect(phone.error).toMatchObject({
      status: 422,
      code: 'mfa_phone_enroll_not_enabled',
      message: 'MFA enroll is disabled for Phone',
    });
    const missing = await client.auth.mfa.challenge({
      factorId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });

    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp' });
    const factor = enrolled.data!;
    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    await server.deps.db.query(
      `update auth.mfa_challenges set created_at = now() - interval '6 minutes' where id = $1`,
      [challenge.data!.id],
    );
    const late = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: codeFor(factor.totp.secret),
    });
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
    // An unverified factor can be removed at aal1.
    expect((await client.auth.mfa.unenroll({ factorId: factor.id })).error).toBeNull();
  });
});

describe('MFA verification limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { AUTH_RATE_LIMIT_MFA_VERIFY: '2' });
  });
  afterAll(() => server?.stop());

  it('answers the third verification within a minute with 429', async () => {
    const { client } = await confirmedUser(server);
    const factor = (await client.auth.mfa.enroll({ factorType: 'totp' })).data!;
    const results = [];
    for (let i = 0; i < 3; i += 1) {
      const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
      results.push(
        await client.auth.mfa.verify({
          factorId: factor.id,
          challengeId: challenge.data!.id,
          code: '000000',
        }),
      );
    }
    expect(results.map((r) => r.error?.status)).toEqual([422, 422, 429]);
    expect(results[2]!.error?.code).toBe('over_request_rate_limit');
  });
});
