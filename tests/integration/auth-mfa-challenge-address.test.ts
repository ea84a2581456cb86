/**
 * An MFA challenge is answered from the client address that created it, as GoTrue's
 * validateChallenge requires (decision 0057): a WebAuthn challenge (registration or sign-in
 * assertion) or a TOTP challenge verified from another address is refused with 422
 * `mfa_ip_address_mismatch` and changes nothing; the same answer from the creating address
 * still works. Clients are told apart by the loopback address their connections leave from.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFrom } from '../support/fetch-from';
import {
  SoftAuthenticator,
  type CreationOptions,
  type RequestOptions,
} from '../support/soft-authenticator';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser, totpCode, userWithTotp } from './auth-support';

const mismatch = {
  status: 422,
  code: 'mfa_ip_address_mismatch',
  message: 'Challenge and verify IP addresses mismatch.',
};

describe.each(databaseKinds)('MFA challenges bound to their address on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_MFA_WEBAUTHN_ENROLL: 'true',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_MFA_VERIFY: '1000',
    });
  });
  afterAll(() => server?.stop());

  /** The same session as `client`'s, its requests leaving from `address`. */
  async function sameSessionFrom(client: SupabaseClient, address: string) {
    const { data } = await client.auth.getSession();
    const other = createClient(server.url, server.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { fetch: fetchFrom(address) },
    });
    const set = await other.auth.setSession({
      access_token: data.session!.access_token,
      refresh_token: data.session!.refresh_token,
    });
    expect(set.error).toBeNull();
    return other;
  }

  async function challenge(client: SupabaseClient, factorId: string) {
    const result = await client.auth.mfa.challenge({ factorId });
    expect(result.error).toBeNull();
    return result.data as unknown as {
      id: string;
      webauthn: { type: 'create' | 'request'; credential_options: { publicKey: unknown } };
    };
  }

  function verify(
    client: SupabaseClient,
    factorId: string,
    challengeId: string,
    type: 'create' | 'request',
    credential: unknown,
  ) {
    return client.auth.mfa.verify({
      factorId,
      challengeId,
      webauthn: { type, rpId: 'localhost', credential_response: credential as never } as never,
    });
  }

  async function factorStatus(id: string) {
    const { rows } = await server.deps.db.query<{ status: string }>(
      'select status from auth.mfa_factors where id = $1',
      [id],
    );
    return rows[0]?.status;
  }

  it('refuses a WebAuthn registration and sign-in assertion answered from another address', async () => {
    const { client: home, email, password } = await confirmedUser(server);
    const authenticator = new SoftAuthenticator(server.url);
    const factorId = (await home.auth.mfa.webauthn.enroll({ friendlyName: 'Key' })).data!.id;
    const created = await challenge(home, factorId);
    const options = created.webauthn.credential_options.publicKey as CreationOptions;
    const credential = authenticator.create(options);

    const elsewhere = await sameSessionFrom(home, '127.0.0.2');
    const refused = await verify(elsewhere, factorId, created.id, 'create', credential);
    expect(refused.error).toMatchObject(mismatch);
    expect(await factorStatus(factorId)).toBe('unverified');

    // A challenge created from the other address is answered there.
    const there = await challenge(elsewhere, factorId);
    const fromThere = authenticator.create(
      there.webauthn.credential_options.publicKey as CreationOptions,
    );
    expect((await verify(elsewhere, factorId, there.id, 'create', fromThere)).error).toBeNull();
    expect(await factorStatus(factorId)).toBe('verified');

    // The next sign-in: the assertion's challenge, created here, answered from elsewhere.
    const next = browserLikeClient(server);
    expect((await next.auth.signInWithPassword({ email, password })).error).toBeNull();
    const requested = await challenge(next, factorId);
    expect(requested.webauthn.type).toBe('request');
    const assertion = authenticator.get(
      requested.webauthn.credential_options.publicKey as RequestOptions,
    );
    const away = await sameSessionFrom(next, '127.0.0.3');
    expect((await verify(away, factorId, requested.id, 'request', assertion)).error).toMatchObject(
      mismatch,
    );
    expect((await away.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');
    // Refused without being used: the same assertion from the creating address still counts.
    expect((await verify(next, factorId, requested.id, 'request', assertion)).error).toBeNull();
    expect((await next.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
  });

  it('refuses an authenticator-app code sent from another address than its challenge', async () => {
    const { email, password, factorId, secret } = await userWithTotp(server);
    const next = browserLikeClient(server);
    expect((await next.auth.signInWithPassword({ email, password })).error).toBeNull();
    const created = await next.auth.mfa.challenge({ factorId });
    expect(created.error).toBeNull();
    const away = await sameSessionFrom(next, '127.0.0.2');
    const refused = await away.auth.mfa.verify({
      factorId,
      challengeId: created.data!.id,
      code: totpCode(secret, 0),
    });
    expect(refused.error).toMatchObject(mismatch);
    const accepted = await next.auth.mfa.verify({
      factorId,
      challengeId: created.data!.id,
      code: totpCode(secret, 0),
    });
    expect(accepted.error).toBeNull();
    expect((await next.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
  });
});
