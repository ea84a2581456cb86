/**
 * An account whose only verified factor is a phone factor, on a server whose phone MFA
 * verification is switched off (AUTH_MFA_PHONE_VERIFY=false), answered as GoTrue answers it
 * (decision 0061): no challenge, no verification, so no aal2, and a verified factor is not
 * removed at aal1; the administrator's factor deletion is the way back.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser } from './auth-support';

async function accessToken(client: SupabaseClient): Promise<string> {
  return (await client.auth.getSession()).data.session!.access_token;
}

describe.each(databaseKinds)(
  'a phone-only MFA account with phone verification off on %s',
  (kind) => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, {
        AUTH_MFA_PHONE_ENROLL: 'true',
        AUTH_MFA_PHONE_VERIFY: 'false',
        AUTH_RATE_LIMIT_SIGN_IN: '1000',
        AUTH_RATE_LIMIT_MFA_VERIFY: '1000',
      });
    });
    afterAll(() => server?.stop());

    /**
     * A user whose phone factor was verified while the setting was on: enrolled through
     * supabase-js, then marked verified as that earlier verification left it.
     */
    async function phoneOnlyUser() {
      const { client, email, password } = await confirmedUser(server);
      const enrolled = await client.auth.mfa.enroll({
        factorType: 'phone',
        phone: '+447700900123',
      });
      expect(enrolled.error).toBeNull();
      const factorId = enrolled.data!.id;
      await server.deps.db.query(`update auth.mfa_factors set status = 'verified' where id = $1`, [
        factorId,
      ]);
      const userId = (await client.auth.getUser()).data.user!.id;
      const signedIn = browserLikeClient(server);
      expect((await signedIn.auth.signInWithPassword({ email, password })).error).toBeNull();
      return { client: signedIn, email, password, factorId, userId };
    }

    it('refuses the challenge and the verification with GoTrue’s 422, so the session stays aal1', async () => {
      const { client, factorId } = await phoneOnlyUser();
      const settings = await fetch(`${server.url}/auth/v1/settings`, {
        headers: { apikey: server.anonKey },
      }).then((r) => r.json());
      expect(settings.mfa).toMatchObject({ phone: true });
      expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
        currentLevel: 'aal1',
        nextLevel: 'aal2',
      });
      expect((await client.auth.mfa.listFactors()).data?.phone).toEqual([
        expect.objectContaining({ id: factorId, status: 'verified' }),
      ]);

      const off = {
        status: 422,
        code: 'mfa_phone_verify_not_enabled',
        message: 'MFA verification is disabled for Phone',
      };
      expect((await client.auth.mfa.challenge({ factorId, channel: 'sms' })).error).toMatchObject(
        off,
      );
      const verify = await client.auth.mfa.verify({
        factorId,
        challengeId: '00000000-0000-4000-8000-000000000000',
        code: '123456',
      });
      expect(verify.error).toMatchObject(off);
      expect(
        (await client.auth.mfa.challengeAndVerify({ factorId, code: '123456' })).error,
      ).toMatchObject(off);
      expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe(
        'aal1',
      );
    });

    it('keeps GoTrue’s aal2 rules: the factor is not removed, nothing enrolled, no password change', async () => {
      const { client, factorId } = await phoneOnlyUser();
      const unenroll = await client.auth.mfa.unenroll({ factorId });
      expect(unenroll.error).toMatchObject({
        status: 422,
        code: 'insufficient_aal',
        message: 'AAL2 required to unenroll verified factor',
      });
      const enroll = await client.auth.mfa.enroll({ factorType: 'totp' });
      expect(enroll.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
      const password = await client.auth.updateUser({ password: 'another long passphrase' });
      expect(password.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
      expect((await client.auth.mfa.listFactors()).data?.phone).toHaveLength(1);

      // Signing out the other sessions, which this server otherwise keeps for aal2, is not held
      // to a level the account cannot reach (GoTrue never asks for it).
      const others = await client.auth.admin.signOut(await accessToken(client), 'others');
      expect(others.error).toBeNull();
      expect((await client.auth.getUser()).error).toBeNull();
    });

    it('is opened again by the administrator deleting the factor, as in GoTrue', async () => {
      const { client, email, password, factorId, userId } = await phoneOnlyUser();
      const admin = server.service().auth.admin;
      expect((await admin.mfa.listFactors({ userId })).data?.factors).toEqual([
        expect.objectContaining({ id: factorId, factor_type: 'phone', status: 'verified' }),
      ]);
      const removed = await admin.mfa.deleteFactor({ userId, id: factorId });
      expect(removed.error).toBeNull();
      // auth-js hands back its request's whole result; the answer is GoTrue's removed factor.
      expect(removed.data).toMatchObject({
        data: { id: factorId, factor_type: 'phone', status: 'verified' },
      });
      expect((await admin.mfa.listFactors({ userId })).data?.factors).toEqual([]);

      // The session that was stuck at aal1 now has nothing more to reach.
      await client.auth.refreshSession();
      expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
        currentLevel: 'aal1',
        nextLevel: 'aal1',
      });
      const back = browserLikeClient(server);
      expect((await back.auth.signInWithPassword({ email, password })).error).toBeNull();
      expect((await back.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
        currentLevel: 'aal1',
        nextLevel: 'aal1',
      });
      expect(
        (await back.auth.updateUser({ password: 'a fresh start passphrase' })).error,
      ).toBeNull();
      // And a second factor the server verifies can be set up again.
      expect((await back.auth.mfa.enroll({ factorType: 'totp' })).error).toBeNull();
    });
  },
);
