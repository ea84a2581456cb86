/**
 * Recovery codes for an account whose only second step is a security key or a phone number
 * (decision 0063): generated at aal2, used at the next sign-in instead of the step, and removed
 * with the last step of that kind; without a verified step they are refused.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftAuthenticator, type CreationOptions } from '../support/soft-authenticator';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser, latestMail } from './auth-support';

let counter = 0;
/** A fresh number per test (E.164, a fictional UK range). */
function uniquePhone(): string {
  counter += 1;
  return `+447700${String(Date.now() % 100_000).padStart(5, '0')}${counter % 10}`;
}

async function level(client: SupabaseClient) {
  return (await client.auth.mfa.getAuthenticatorAssuranceLevel()).data;
}

describe.each(databaseKinds)('recovery codes with a security key or phone only on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_MFA_PHONE_ENROLL: 'true',
      AUTH_MFA_PHONE_MAX_FREQUENCY_SECONDS: '0',
      AUTH_MFA_WEBAUTHN_ENROLL: 'true',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_MFA_VERIFY: '1000',
      AUTH_RATE_LIMIT_SMS: '1000',
    });
  });
  afterAll(() => server?.stop());

  async function withSecurityKey() {
    const user = await confirmedUser(server);
    const factor = await user.client.auth.mfa.webauthn.enroll({ friendlyName: 'Security key' });
    expect(factor.error).toBeNull();
    const factorId = factor.data!.id;
    const challenge = await user.client.auth.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    const { id, webauthn } = challenge.data as unknown as {
      id: string;
      webauthn: { credential_options: { publicKey: CreationOptions } };
    };
    const credential = new SoftAuthenticator(server.url).create(
      webauthn.credential_options.publicKey,
      { fmt: 'packed' },
    );
    const verified = await user.client.auth.mfa.verify({
      factorId,
      challengeId: id,
      webauthn: { type: 'create', rpId: 'localhost', credential_response: credential },
    } as never);
    expect(verified.error).toBeNull();
    return { ...user, factorId };
  }

  async function withPhone() {
    const user = await confirmedUser(server);
    const phone = uniquePhone();
    const enrolled = await user.client.auth.mfa.enroll({ factorType: 'phone', phone });
    expect(enrolled.error).toBeNull();
    const factorId = enrolled.data!.id;
    const challenge = await user.client.auth.mfa.challenge({ factorId, channel: 'sms' });
    expect(challenge.error).toBeNull();
    const code = /code is (\d{6})/.exec((await latestMail(server, phone)).text_body)![1]!;
    const verified = await user.client.auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code,
    });
    expect(verified.error).toBeNull();
    return { ...user, factorId };
  }

  it.each([
    ['a security key', 'webauthn', withSecurityKey],
    ['a phone number', 'phone', withPhone],
  ])(
    'an account with only %s gets codes, signs in with one, and loses them with the step',
    async (_, type, enrol) => {
      const { client, email, password, factorId } = await enrol();
      expect((await level(client))?.currentLevel).toBe('aal2');
      const generated = await client.auth.mfa.recoveryCodes.generate();
      expect(generated.error).toBeNull();
      expect(generated.data?.codes).toHaveLength(10);

      // The next sign-in passes its second step with a code instead of the key or phone.
      const next = browserLikeClient(server);
      expect((await next.auth.signInWithPassword({ email, password })).error).toBeNull();
      expect(await level(next)).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
      const listed = await next.auth.mfa.listFactors();
      expect(listed.data?.all.map((f) => f.factor_type as string).sort()).toEqual(
        [type, 'recovery_code'].sort(),
      );
      const used = await next.auth.mfa.recoveryCodes.verify({ code: generated.data!.codes[0]! });
      expect(used.error).toBeNull();
      expect((await level(next))?.currentLevel).toBe('aal2');
      expect((await next.auth.mfa.recoveryCodes.getStatus()).data).toMatchObject({
        total: 10,
        remaining: 9,
      });

      // Removing the only step removes the codes too; the account is password-only again.
      expect((await next.auth.mfa.unenroll({ factorId })).error).toBeNull();
      const after = await next.auth.getUser();
      expect(after.data.user?.factors ?? []).toEqual([]);
      const status = await next.auth.mfa.recoveryCodes.getStatus();
      expect(status.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
      expect((await next.auth.refreshSession()).error).toBeNull();
      expect(await level(next)).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
    },
  );

  it('refuses codes to an account without a verified second step', async () => {
    const { client } = await confirmedUser(server);
    const refused = await client.auth.mfa.recoveryCodes.generate();
    expect(refused.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
  });
});
