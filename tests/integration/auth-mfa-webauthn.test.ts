/**
 * WebAuthn MFA factors (AUTH_MFA_WEBAUTHN_ENROLL, decision 0055) through supabase-js's
 * mfa.webauthn helpers' wire calls, answered by a software authenticator: registration to
 * aal2, an assertion at the next sign-in, and GoTrue's refusals for a forged or mismatched
 * challenge, a wrong origin or RP id, a replayed assertion, an unknown credential and another
 * user's factor, each leaving the factor as it was.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SoftAuthenticator,
  type CreationOptions,
  type RequestOptions,
} from '../support/soft-authenticator';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser } from './auth-support';

describe.each(databaseKinds)('WebAuthn MFA factors on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_MFA_WEBAUTHN_ENROLL: 'true',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_MFA_VERIFY: '1000',
    });
  });
  afterAll(() => server?.stop());

  async function challenge(client: SupabaseClient, factorId: string) {
    const result = await client.auth.mfa.challenge({
      factorId,
      // What the browser helpers send; the server uses its own relying party instead.
      webauthn: { rpId: 'evil.example', rpOrigins: ['https://evil.example'] },
    });
    expect(result.error).toBeNull();
    const data = result.data as unknown as {
      id: string;
      type: string;
      webauthn: { type: 'create' | 'request'; credential_options: { publicKey: unknown } };
    };
    expect(data.type).toBe('webauthn');
    return data;
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
      webauthn: {
        type,
        rpId: 'localhost',
        credential_response: credential as never,
      } as never,
    });
  }

  async function factorRow(id: string) {
    const { rows } = await server.deps.db.query<{
      status: string;
      web_authn_credential: { counter: number } | null;
    }>('select status, web_authn_credential from auth.mfa_factors where id = $1', [id]);
    return rows[0];
  }

  async function enrolled() {
    const user = await confirmedUser(server);
    const authenticator = new SoftAuthenticator(server.url);
    const factor = await user.client.auth.mfa.webauthn.enroll({ friendlyName: 'Security key' });
    expect(factor.error).toBeNull();
    const factorId = factor.data!.id;
    const created = await challenge(user.client, factorId);
    expect(created.webauthn.type).toBe('create');
    const options = created.webauthn.credential_options.publicKey as CreationOptions;
    expect(options.rp).toMatchObject({ id: 'localhost', name: 'Lyceum' });
    const credential = authenticator.create(options, { fmt: 'packed' });
    const verified = await verify(user.client, factorId, created.id, 'create', credential);
    expect(verified.error).toBeNull();
    return { ...user, authenticator, factorId };
  }

  it('registers a security key to aal2, then signs in with it as the second step', async () => {
    const { client, email, password, authenticator, factorId } = await enrolled();
    const aal = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(
      aal.data?.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method)),
    ).toEqual(['mfa/webauthn', 'password']);
    const factors = await client.auth.mfa.listFactors();
    expect(factors.data?.webauthn).toEqual([
      expect.objectContaining({
        id: factorId,
        factor_type: 'webauthn',
        status: 'verified',
        friendly_name: 'Security key',
      }),
    ]);

    const next = browserLikeClient(server);
    expect((await next.auth.signInWithPassword({ email, password })).error).toBeNull();
    expect((await next.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');
    const requested = await challenge(next, factorId);
    expect(requested.webauthn.type).toBe('request');
    const options = requested.webauthn.credential_options.publicKey as RequestOptions;
    const assertion = authenticator.get(options);
    const verified = await verify(next, factorId, requested.id, 'request', assertion);
    expect(verified.error).toBeNull();
    expect((await next.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
    expect((await factorRow(factorId))!.web_authn_credential!.counter).toBe(1);

    // The same assertion again, on its own challenge or a new one, is refused.
    const again = await verify(next, factorId, requested.id, 'request', assertion);
    expect(again.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const fresh = await challenge(next, factorId);
    const replayed = await verify(next, factorId, fresh.id, 'request', assertion);
    expect(replayed.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    // A signature whose counter went backwards (a cloned key) is refused too.
    authenticator.credentials[0]!.counter = 0;
    const cloned = authenticator.get(fresh.webauthn.credential_options.publicKey as RequestOptions);
    const clonedResult = await verify(next, factorId, fresh.id, 'request', cloned);
    expect(clonedResult.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    expect(clonedResult.error?.message).toMatch(/counter/i);
    expect((await factorRow(factorId))!.web_authn_credential!.counter).toBe(1);

    // At aal2 the key can be removed.
    expect((await next.auth.mfa.unenroll({ factorId })).error).toBeNull();
    expect(await factorRow(factorId)).toBeUndefined();
  });

  it('refuses a wrong origin, a wrong RP id and a mismatched challenge at registration', async () => {
    const { client } = await confirmedUser(server);
    const authenticator = new SoftAuthenticator(server.url);
    const factorId = (await client.auth.mfa.webauthn.enroll({ friendlyName: 'Key' })).data!.id;
    const created = await challenge(client, factorId);
    const options = created.webauthn.credential_options.publicKey as CreationOptions;

    const evilOrigin = authenticator.create(options, { origin: 'https://evil.example' });
    const byOrigin = await verify(client, factorId, created.id, 'create', evilOrigin);
    expect(byOrigin.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    expect(byOrigin.error?.message).toMatch(/origin/i);

    const evilRp = authenticator.create(options, { rpId: 'evil.example' });
    const byRp = await verify(client, factorId, created.id, 'create', evilRp);
    expect(byRp.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    expect(byRp.error?.message).toMatch(/RP ID/i);

    const forged = authenticator.create({ ...options, challenge: 'Zm9yZ2VkIGNoYWxsZW5nZQ' });
    const byChallenge = await verify(client, factorId, created.id, 'create', forged);
    expect(byChallenge.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    expect(byChallenge.error?.message).toMatch(/challenge/i);

    const garbage = await verify(client, factorId, created.id, 'create', {
      toJSON: () => ({ id: 'x' }),
    });
    expect(garbage.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid credential response',
    });
    const wrongType = await verify(client, factorId, created.id, 'request', evilRp);
    expect(wrongType.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const noWebauthn = await client.auth.mfa.verify({
      factorId,
      challengeId: created.id,
      code: '123456',
    });
    expect(noWebauthn.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'WebAuthn config required',
    });
    const unknownChallenge = await verify(
      client,
      factorId,
      '00000000-0000-4000-8000-000000000000',
      'create',
      authenticator.create(options),
    );
    expect(unknownChallenge.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });

    expect(await factorRow(factorId)).toMatchObject({
      status: 'unverified',
      web_authn_credential: null,
    });
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe(
      'aal1',
    );
    // The honest answer to the same challenge still works.
    const good = await verify(
      client,
      factorId,
      created.id,
      'create',
      authenticator.create(options),
    );
    expect(good.error).toBeNull();
  });

  it('refuses an unknown credential, a wrong RP id at sign-in and another user’s factor', async () => {
    const { email, password, authenticator, factorId } = await enrolled();
    const next = browserLikeClient(server);
    await next.auth.signInWithPassword({ email, password });
    const requested = await challenge(next, factorId);
    const options = requested.webauthn.credential_options.publicKey as RequestOptions;

    const stranger = new SoftAuthenticator(server.url);
    stranger.create({
      challenge: 'AAAA',
      rp: { id: 'localhost', name: 'x' },
      user: { id: 'AAAA', name: 'x' },
    });
    const unknown = await verify(
      next,
      factorId,
      requested.id,
      'request',
      stranger.get({
        ...options,
        allowCredentials: [],
      }),
    );
    expect(unknown.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

    const wrongRp = authenticator.get({ ...options, rpId: 'evil.example' });
    const byRp = await verify(next, factorId, requested.id, 'request', wrongRp);
    expect(byRp.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

    const other = await confirmedUser(server);
    const foreignChallenge = await other.client.auth.mfa.challenge({ factorId });
    expect(foreignChallenge.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const foreignVerify = await verify(
      other.client,
      factorId,
      requested.id,
      'request',
      authenticator.get(options),
    );
    expect(foreignVerify.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    expect((await other.client.auth.mfa.unenroll({ factorId })).error).toMatchObject({
      status: 404,
    });
    expect((await factorRow(factorId))!.status).toBe('verified');
    expect((await next.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');
  });
});

describe('WebAuthn MFA factors while off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server?.stop());

  it('answers GoTrue’s 422 to an enrolment', async () => {
    const { client } = await confirmedUser(server);
    const result = await client.auth.mfa.webauthn.enroll({ friendlyName: 'Key' });
    expect(result.error).toMatchObject({
      status: 422,
      code: 'mfa_webauthn_enroll_not_enabled',
      message: 'MFA enroll is disabled for WebAuthn',
    });
  });
});
