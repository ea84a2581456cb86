import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { confirmedUser } from './auth-support';

describe.each(databaseKinds)('app roles and profiles on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
  });
  afterAll(() => server?.stop());

  it('gives every new account a profile and the learner role (labelled Student), checked by has_role', async () => {
    const { client } = await confirmedUser(server);
    const { data: user } = await client.auth.getUser();
    const roles = await client.from('user_roles').select('role');
    expect(roles.data).toEqual([{ role: 'learner' }]);
    const isLearner = await client.rpc('has_role', { uid: user.user!.id, role_name: 'learner' });
    expect(isLearner.data).toBe(true);
    const isAdmin = await client.rpc('has_role', { uid: user.user!.id, role_name: 'admin' });
    expect(isAdmin.data).toBe(false);
  });

  it('lets nobody grant themselves a role or read other profiles, except admins', async () => {
    const alice = await confirmedUser(server);
    const bob = await confirmedUser(server);
    const aliceId = (await alice.client.auth.getUser()).data.user!.id;
    const bobId = (await bob.client.auth.getUser()).data.user!.id;

    const grab = await alice.client.from('user_roles').insert({ user_id: aliceId, role: 'admin' });
    expect(grab.error).not.toBeNull();
    const others = await alice.client.from('profiles').select('id').eq('id', bobId);
    expect(others.data).toEqual([]);
    const rename = await alice.client
      .from('profiles')
      .update({ full_name: 'Hacked' })
      .eq('id', bobId)
      .select();
    expect(rename.data ?? []).toEqual([]);

    // The service role makes Alice an admin; her next token carries the role.
    const made = await server
      .service()
      .from('user_roles')
      .insert({ user_id: aliceId, role: 'admin' });
    expect(made.error).toBeNull();
    const refreshed = await alice.client.auth.refreshSession();
    expect(refreshed.data.user?.app_metadata.roles).toEqual(['admin', 'learner']);
    const visible = await alice.client.from('profiles').select('id').eq('id', bobId);
    expect(visible.data).toEqual([{ id: bobId }]);

    const invalid = await server
      .service()
      .from('user_roles')
      .insert({ user_id: bobId, role: 'superuser' });
    expect(invalid.error?.code).toBe('23514');
    const all = await server.service().from('profiles').select('*');
    expect(all.data!.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses oversized auth request bodies', async () => {
    const response = await fetch(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(100_000) }),
    });
    expect(response.status).toBe(413);
  });
});
