import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import {
  browserLikeClient,
  confirmedUser,
  latestMail,
  totpCode,
  uniqueEmail,
  userWithTotp,
} from './auth-support';

const newPassword = 'a brand new passphrase';

/** GET /auth/v1/user with a token, as the wire answers it (supabase-js hides the code). */
async function userCall(server: TestServer, token: string) {
  const response = await fetch(`${server.url}/auth/v1/user`, {
    headers: { apikey: server.anonKey, authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { code?: string };
  return { status: response.status, code: body.code };
}

async function accessToken(client: SupabaseClient): Promise<string> {
  return (await client.auth.getSession()).data.session!.access_token;
}

describe.each(databaseKinds)('password changes and second factors on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_MFA_VERIFY: '1000',
    });
    await server.deps.db.exec(`
      create table public.ss_secrets (
        owner uuid not null default auth.uid(),
        body text not null
      );
      alter table public.ss_secrets enable row level security;
      grant select on public.ss_secrets to authenticated;
      create policy "own rows" on public.ss_secrets for select to authenticated
        using (owner = auth.uid());
      create policy "second factor when enrolled" on public.ss_secrets as restrictive
        for select to authenticated using (auth.aal2_if_enrolled());
      notify pgrst, 'reload schema';
    `);
  });
  afterAll(() => server?.stop());

  it('ends the other sessions when a user changes the password, keeps this one, and says so by mail', async () => {
    const { client, email, password } = await confirmedUser(server);
    const laptop = browserLikeClient(server);
    expect((await laptop.auth.signInWithPassword({ email, password })).error).toBeNull();
    const phone = browserLikeClient(server);
    expect((await phone.auth.signInWithPassword({ email, password })).error).toBeNull();

    const otherTokens = await Promise.all([laptop, phone].map(accessToken));

    const changed = await client.auth.updateUser({ password: newPassword });
    expect(changed.error).toBeNull();

    expect((await client.auth.getUser()).error).toBeNull();
    expect((await client.auth.refreshSession()).error).toBeNull();
    for (const token of otherTokens) {
      expect(await userCall(server, token)).toEqual({ status: 403, code: 'session_not_found' });
    }
    // supabase-js hears the same and signs the other browser out.
    expect((await laptop.auth.getUser()).error?.name).toBe('AuthSessionMissingError');
    const notice = await latestMail(server, email);
    expect(notice.subject).toBe('Your Lyceum password was changed');
    expect(notice.text_body).toMatch(/Every other session of the account was signed out/);

    const old = await browserLikeClient(server).auth.signInWithPassword({ email, password });
    expect(old.error?.code).toBe('invalid_credentials');
    const fresh = await browserLikeClient(server).auth.signInWithPassword({
      email,
      password: newPassword,
    });
    expect(fresh.error).toBeNull();
  });

  it("refuses the other sessions' refresh tokens after a password change", async () => {
    const { client, email, password } = await confirmedUser(server);
    const other = browserLikeClient(server);
    const signIn = await other.auth.signInWithPassword({ email, password });
    const otherRefresh = signIn.data.session!.refresh_token;
    expect((await client.auth.updateUser({ password: newPassword })).error).toBeNull();
    const refreshed = await browserLikeClient(server).auth.refreshSession({
      refresh_token: otherRefresh,
    });
    expect(refreshed.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });

  it("ends every session when an administrator changes a user's password", async () => {
    const { client, email } = await confirmedUser(server);
    const id = (await client.auth.getUser()).data.user!.id;
    const token = await accessToken(client);
    const { refresh_token } = (await client.auth.getSession()).data.session!;
    const updated = await server.service().auth.admin.updateUserById(id, {
      password: newPassword,
    });
    expect(updated.error).toBeNull();
    expect(await userCall(server, token)).toEqual({ status: 403, code: 'session_not_found' });
    const refreshed = await browserLikeClient(server).auth.refreshSession({ refresh_token });
    expect(refreshed.error).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await latestMail(server, email)).text_body).toMatch(
      /An administrator changed the password of your Lyceum account\. Every session of the account was signed out\./,
    );
    const again = await browserLikeClient(server).auth.signInWithPassword({
      email,
      password: newPassword,
    });
    expect(again.error).toBeNull();
  });

  it('needs the second factor (aal2) to change the password or email, or to end other sessions', async () => {
    const { client: owner, email, password, secret, factorId } = await userWithTotp(server);
    const thief = browserLikeClient(server);
    expect((await thief.auth.signInWithPassword({ email, password })).error).toBeNull();
    expect((await thief.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');

    const byPassword = await thief.auth.updateUser({ password: newPassword });
    expect(byPassword.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
    const byEmail = await thief.auth.updateUser({ email: uniqueEmail('taken') });
    expect(byEmail.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
    // supabase-js's signOut() swallows a 403, so the refusal is read from the call it makes.
    const others = await thief.auth.admin.signOut(await accessToken(thief), 'others');
    expect(others.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    // Harmless changes need no second factor.
    expect((await thief.auth.updateUser({ data: { theme: 'dark' } })).error).toBeNull();
    expect((await owner.auth.getUser()).error).toBeNull();

    // A global sign-out at aal1 ends only the caller's own session.
    const thiefToken = await accessToken(thief);
    await thief.auth.signOut();
    expect((await owner.auth.getUser()).error).toBeNull();
    expect(await userCall(server, thiefToken)).toEqual({ status: 403, code: 'session_not_found' });

    const second = browserLikeClient(server);
    await second.auth.signInWithPassword({ email, password });
    const raised = await second.auth.mfa.challengeAndVerify({ factorId, code: totpCode(secret) });
    expect(raised.error).toBeNull();
    const ownerToken = await accessToken(owner);
    expect((await second.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect(await userCall(server, ownerToken)).toEqual({ status: 403, code: 'session_not_found' });
    expect((await second.auth.updateUser({ password: newPassword })).error).toBeNull();
  });

  it('gives row-level security auth.aal2_if_enrolled() for tables that need the second factor', async () => {
    const plain = await confirmedUser(server);
    const enrolled = await userWithTotp(server);
    const ids = await Promise.all(
      [plain.client, enrolled.client].map(async (c) => (await c.auth.getUser()).data.user!.id),
    );
    await server.deps.db.query(
      'insert into public.ss_secrets (owner, body) values ($1, $2), ($3, $4)',
      [ids[0], 'plain secret', ids[1], 'enrolled secret'],
    );

    const plainRows = await plain.client.from('ss_secrets').select('body');
    expect(plainRows).toMatchObject({ error: null, data: [{ body: 'plain secret' }] });
    const atAal2 = await enrolled.client.from('ss_secrets').select('body');
    expect(atAal2).toMatchObject({ error: null, data: [{ body: 'enrolled secret' }] });

    const atAal1 = browserLikeClient(server);
    await atAal1.auth.signInWithPassword({
      email: enrolled.email,
      password: enrolled.password,
    });
    const hidden = await atAal1.from('ss_secrets').select('body');
    expect(hidden).toMatchObject({ error: null, data: [] });
    await atAal1.auth.mfa.challengeAndVerify({
      factorId: enrolled.factorId,
      code: totpCode(enrolled.secret),
    });
    const shown = await atAal1.from('ss_secrets').select('body');
    expect(shown).toMatchObject({ error: null, data: [{ body: 'enrolled secret' }] });
  });
});
