/**
 * Role names and what the role checks reveal (issue 10's finding and issue 11's roles): an
 * outsider must not learn who holds `admin`, nor see who owns a public course.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

describe.each(databaseKinds)('learning roles on %s', (kind) => {
  let server: TestServer;
  let admin: { id: string };
  let visitor: { id: string; token: string };

  async function account(label: string) {
    const email = `${label}.${randomUUID()}@example.com`;
    const password = `pass-${randomUUID()}`;
    const created = await server
      .service()
      .auth.admin.createUser({ email, password, email_confirm: true });
    expect(created.error).toBeNull();
    const signIn = await server.anon().auth.signInWithPassword({ email, password });
    expect(signIn.error).toBeNull();
    return { id: created.data.user!.id, token: signIn.data.session!.access_token };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await account('admin');
    visitor = await account('visitor');
    const made = await server
      .service()
      .from('user_roles')
      .insert({ user_id: admin.id, role: 'admin' });
    expect(made.error).toBeNull();
    const course = await server.service().from('courses').insert({
      title: 'Open course',
      description: 'Anyone may read about it.',
      owner_id: admin.id,
      published: true,
      visibility: 'public',
    });
    expect(course.error).toBeNull();
  });
  afterAll(() => server?.stop());

  it('answers has_role only about the caller, so nobody can look for admin accounts', async () => {
    const anonAsks = await server.anon().rpc('has_role', { uid: admin.id, role_name: 'admin' });
    expect(anonAsks.data).toBeNull();
    expect(anonAsks.error?.message).toBe('has_role answers only for the signed-in user');

    const visitorClient = testClient(server, server.anonKey, visitor.token);
    const visitorAsks = await visitorClient.rpc('has_role', { uid: admin.id, role_name: 'admin' });
    expect(visitorAsks.error?.message).toBe('has_role answers only for the signed-in user');

    const own = await visitorClient.rpc('has_role', { uid: visitor.id, role_name: 'learner' });
    expect(own).toMatchObject({ data: true, error: null });
    const service = await server.service().rpc('has_role', { uid: admin.id, role_name: 'admin' });
    expect(service).toMatchObject({ data: true, error: null });
  });

  it('shows anonymous visitors public courses without naming anyone', async () => {
    const direct = await server.anon().from('courses').select('*');
    expect(direct.data ?? []).toEqual([]);
    expect(JSON.stringify(direct.data ?? [])).not.toContain(admin.id);

    const catalogue = await server.anon().from('public_courses').select('*');
    expect(catalogue.error).toBeNull();
    expect(catalogue.data).toEqual([
      expect.objectContaining({ title: 'Open course', description: 'Anyone may read about it.' }),
    ]);
    expect(JSON.stringify(catalogue.data)).not.toContain(admin.id);
    expect(Object.keys(catalogue.data![0]!).sort()).toEqual([
      'description',
      'id',
      'organization_name',
      'outline',
      'slug',
      'subject',
      'title',
      'updated_at',
    ]);
  });

  it('stores the first role as learner for every new account', async () => {
    const { data } = await server
      .service()
      .from('user_roles')
      .select('role')
      .eq('user_id', visitor.id);
    expect(data).toEqual([{ role: 'learner' }]);
    const invalid = await server
      .service()
      .from('user_roles')
      .insert({ user_id: visitor.id, role: 'student' });
    expect(invalid.error?.code).toBe('23514');
  });
});
