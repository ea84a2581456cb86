/**
 * Phone MFA factors (AUTH_MFA_PHONE_ENROLL, decision 0055) through supabase-js: enrol a number,
 * challenge it by SMS (the dev mailbox here), verify to aal2, list, unenroll; GoTrue's refusals
 * for bad numbers, wrong and expired codes, challenges too close together, another user's
 * factor and channels it cannot text on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser, latestMail, mailCount } from './auth-support';

let counter = 0;
/** A fresh number per test (E.164, a fictional UK range). */
function uniquePhone(): string {
  counter += 1;
  return `+447700${String(Date.now() % 100_000).padStart(5, '0')}${counter % 10}`;
}

const codeIn = (text: string) => /code is (\d{6})/.exec(text)![1]!;

describe.each(databaseKinds)('phone MFA factors on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_MFA_PHONE_ENROLL: 'true',
      AUTH_MFA_PHONE_MAX_FREQUENCY_SECONDS: '30',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_MFA_VERIFY: '1000',
      AUTH_RATE_LIMIT_SMS: '1000',
    });
  });
  afterAll(() => server?.stop());

  /** Moves the factor's last challenge back, as if the wait between texts had passed. */
  async function waitOutFrequency(factorId: string) {
    await server.deps.db.query(
      `update auth.mfa_challenges set created_at = created_at - interval '31 seconds' where factor_id = $1`,
      [factorId],
    );
  }

  it('enrols a number, texts a code, verifies to aal2, and asks for it at the next sign-in', async () => {
    const { client, email, password } = await confirmedUser(server);
    const phone = uniquePhone();
    const settings = await fetch(`${server.url}/auth/v1/settings`, {
      headers: { apikey: server.anonKey },
    }).then((r) => r.json());
    expect(settings.mfa).toMatchObject({ phone: true });

    const enrolled = await client.auth.mfa.enroll({
      factorType: 'phone',
      phone,
      friendlyName: 'My phone',
    });
    expect(enrolled.error).toBeNull();
    expect(enrolled.data).toMatchObject({ type: 'phone', friendly_name: 'My phone', phone });
    const factorId = enrolled.data!.id;

    const challenge = await client.auth.mfa.challenge({ factorId, channel: 'sms' });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ type: 'phone' });
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000);
    const text = await latestMail(server, phone);
    expect(text.subject).toBe('SMS');
    const code = codeIn(text.text_body);

    const again = await client.auth.mfa.challenge({ factorId });
    expect(again.error).toMatchObject({ status: 429, code: 'over_sms_send_rate_limit' });
    expect(again.error?.message).toMatch(/only request this after \d+ seconds/);

    const wrong = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid MFA Phone code entered',
    });

    const verified = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code,
    });
    expect(verified.error).toBeNull();
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(
      aal.data?.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method)),
    ).toEqual(['mfa/phone', 'password']);
    const factors = await client.auth.mfa.listFactors();
    expect(factors.data?.phone).toEqual([
      expect.objectContaining({
        id: factorId,
        factor_type: 'phone',
        status: 'verified',
        friendly_name: 'My phone',
        phone: phone.slice(1),
      }),
    ]);

    // A used challenge cannot be verified again.
    const replay = await client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code,
    });
    expect(replay.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });

    // The same number cannot be enrolled twice while verified.
    const twice = await client.auth.mfa.enroll({ factorType: 'phone', phone });
    expect(twice.error).toMatchObject({ status: 422, code: 'mfa_verified_factor_exists' });

    // The next sign-in is aal1 until a texted code is verified.
    const next = browserLikeClient(server);
    expect((await next.auth.signInWithPassword({ email, password })).error).toBeNull();
    const level = await next.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    await waitOutFrequency(factorId);
    const signInChallenge = await next.auth.mfa.challengeAndVerify({ factorId, code: '000000' });
    expect(signInChallenge.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    await waitOutFrequency(factorId);
    const fresh = await next.auth.mfa.challenge({ factorId });
    expect(fresh.error).toBeNull();
    const ok = await next.auth.mfa.verify({
      factorId,
      challengeId: fresh.data!.id,
      code: codeIn((await latestMail(server, phone)).text_body),
    });
    expect(ok.error).toBeNull();
    expect(ok.data?.user.factors?.[0]).toMatchObject({ factor_type: 'phone' });

    // At aal2 the factor can be removed; then the account signs in with the password alone.
    expect((await next.auth.mfa.unenroll({ factorId })).error).toBeNull();
    expect((await next.auth.mfa.listFactors()).data?.phone).toEqual([]);
  });

  it('refuses bad numbers, channels it cannot text on, expired codes and another user’s factor', async () => {
    const { client } = await confirmedUser(server);
    const noPhone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '' });
    expect(noPhone.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Phone number required to enroll Phone factor',
    });
    const bad = await client.auth.mfa.enroll({ factorType: 'phone', phone: 'call me maybe' });
    expect(bad.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Invalid phone number format (E.164 required)',
    });
    const unknownType = await client.auth.mfa.enroll({
      factorType: 'sms' as 'phone',
      phone: '+15555550100',
    });
    expect(unknownType.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'factor_type needs to be totp, phone, or webauthn',
    });

    const phone = uniquePhone();
    const factorId = (await client.auth.mfa.enroll({ factorType: 'phone', phone })).data!.id;
    const whatsapp = await client.auth.mfa.challenge({ factorId, channel: 'whatsapp' });
    expect(whatsapp.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(whatsapp.error?.message).toMatch(/^Invalid channel/);
    expect(await mailCount(server, phone)).toBe(0);

    // Another user can neither challenge nor verify nor remove this factor.
    const other = await confirmedUser(server);
    const foreign = await other.client.auth.mfa.challenge({ factorId });
    expect(foreign.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    expect(await mailCount(server, phone)).toBe(0);

    const challenge = await client.auth.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    const code = codeIn((await latestMail(server, phone)).text_body);
    const stolen = await other.client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code,
    });
    expect(stolen.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const removed = await other.client.auth.mfa.unenroll({ factorId });
    expect(removed.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });

    await server.deps.db.query(
      `update auth.mfa_challenges set created_at = now() - interval '6 minutes' where id = $1`,
      [challenge.data!.id],
    );
    const late = await client.auth.mfa.verify({ factorId, challengeId: challenge.data!.id, code });
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
    expect(late.error?.message).toContain(challenge.data!.id);
    const { rows } = await server.deps.db.query<{ status: string }>(
      'select status from auth.mfa_factors where id = $1',
      [factorId],
    );
    expect(rows[0]!.status).toBe('unverified');
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe(
      'aal1',
    );
  });
});

describe('phone MFA factors while verification is off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', {
      AUTH_MFA_PHONE_ENROLL: 'true',
      AUTH_MFA_PHONE_VERIFY: 'false',
    });
  });
  afterAll(() => server?.stop());

  it('enrols but answers GoTrue’s 422 to a challenge, texting nothing', async () => {
    const { client } = await confirmedUser(server);
    const phone = uniquePhone();
    const factorId = (await client.auth.mfa.enroll({ factorType: 'phone', phone })).data!.id;
    const challenge = await client.auth.mfa.challenge({ factorId });
    expect(challenge.error).toMatchObject({
      status: 422,
      code: 'mfa_phone_verify_not_enabled',
      message: 'MFA verification is disabled for Phone',
    });
    expect(await mailCount(server, phone)).toBe(0);
  });
});
