/**
 * Per-organization API keys (decision 0610) through supabase-js on PGlite and PostgreSQL: an
 * org admin creates a key that is shown once; the key reads and changes its own university's
 * rows and nothing of the other's, whatever ids it names; a revoked key is refused at once;
 * the limit of requests per second holds per key; refusals change nothing.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, ApiKeyList, CreatedApiKey } from '../../src/common/api-keys';
import type { MemberPage } from '../../src/common/org-people';
import { openDatabase } from '../../src/server/db/open';
import type { Database } from '../../src/server/db/types';
import { startServer } from '../../src/server/start';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';
import { unique } from './learning-fixture';
import { buildPublicApiWorld, callFunction, type PublicApiWorld } from './public-api-world';

const keysPath = (org: string) => `api-keys/organizations/${org}/keys`;

async function createKey(admin: SupabaseClient, org: string, name: string) {
  const created = await callFunction<CreatedApiKey>(admin, 'POST', keysPath(org), { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe.each(databaseKinds)('organization API keys on %s', (kind) => {
  let server: TestServer;
  let world: PublicApiWorld;
  let keyA: CreatedApiKey;
  let keyB: CreatedApiKey;
  let apiA: SupabaseClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    world = await buildPublicApiWorld(server);
    keyA = await createKey(world.a.admin.client, world.a.id, 'Registrar sync');
    keyB = await createKey(world.b.owner.client, world.b.id, 'Beta roster');
    apiA = testClient(server, keyA.secret);
  });
  afterAll(() => server?.stop());

  const ids = (rows: { id: string }[] | null) => (rows ?? []).map((r) => r.id).sort();

  it('shows the key once; the list names it and its last characters, never the secret', async () => {
    expect(keyA.key).toMatchObject({ name: 'Registrar sync', revokedAt: null, lastUsedAt: null });
    expect(keyA.secret.endsWith(keyA.key.hint!)).toBe(true);
    const listed = await callFunction<ApiKeyList>(
      world.a.owner.client,
      'GET',
      keysPath(world.a.id),
    );
    expect(listed.status).toBe(200);
    expect(listed.body.keys.map((k) => k.name)).toEqual(['Registrar sync']);
    expect(JSON.stringify(listed.body)).not.toContain(keyA.secret);
    // The database holds the hash only.
    const { rows } = await server.deps.db.query<{ row: string }>(
      'select row_to_json(k)::text as row from platform.organization_api_keys k where id = $1',
      [keyA.key.id],
    );
    expect(rows[0]!.row).not.toContain(keyA.secret.split('.')[2]);
  });

  it("lists its own organization's users and none of the other's", async () => {
    const { data, error } = await apiA.from('profiles').select('id, full_name');
    expect(error).toBeNull();
    const a = world.a;
    expect(ids(data)).toEqual([a.owner.id, a.admin.id, a.learner.id, a.newcomer.id].sort());
    const asked = await apiA.from('profiles').select('id').eq('id', world.b.learner.id);
    expect(asked.data).toEqual([]);
    // The other key sees only its university.
    const { data: other } = await testClient(server, keyB.secret).from('profiles').select('id');
    expect(ids(other)).not.toContain(a.learner.id);
    expect(ids(other)).toContain(world.b.learner.id);
  });

  it("reads its own progress and results, and none of the other's", async () => {
    const enrolments = await apiA.from('enrollments').select('id, user_id, progress_percent');
    expect(ids(enrolments.data)).toEqual([world.a.enrolment]);
    const progress = await apiA.from('lesson_progress').select('user_id, lesson_id, status');
    expect(progress.data).toEqual([
      { user_id: world.a.learner.id, lesson_id: world.a.lesson, status: 'in_progress' },
    ]);
    const attempts = await apiA.from('assessment_attempts').select('id, score');
    expect(ids(attempts.data)).toEqual([world.a.attempt]);
    const report = await apiA.rpc('get_organization_report', { organization_id: world.a.id });
    expect(report.error).toBeNull();
    expect((report.data as { user_id: string }[]).map((r) => r.user_id)).toEqual([
      world.a.learner.id,
    ]);

    const foreign = await apiA.rpc('get_organization_report', { organization_id: world.b.id });
    expect(foreign.error?.code).toBe('42501');
    const byId = await apiA.from('assessment_attempts').select('id').eq('id', world.b.attempt);
    expect(byId.data).toEqual([]);
  });

  it('enrols and unenrols in its own organization', async () => {
    const enrolled = await apiA
      .from('enrollments')
      .insert({ user_id: world.a.newcomer.id, course_id: world.a.course })
      .select('id')
      .single();
    expect(enrolled.error).toBeNull();
    const removed = await apiA
      .from('enrollments')
      .delete()
      .eq('id', enrolled.data!.id)
      .select('id');
    expect(removed.data).toEqual([{ id: enrolled.data!.id }]);
  });

  it("is refused every write with the other organization's ids, and nothing changes", async () => {
    const service = server.service();
    const b = world.b;
    const enrol = await apiA
      .from('enrollments')
      .insert({ user_id: b.newcomer.id, course_id: b.course });
    expect(enrol.error?.code).toBe('42501');
    // Own course, the other's member: still refused.
    const cross = await apiA
      .from('enrollments')
      .insert({ user_id: b.newcomer.id, course_id: world.a.course });
    expect(cross.error?.code).toBe('42501');
    const unenrol = await apiA.from('enrollments').delete().eq('id', b.enrolment).select('id');
    expect(unenrol.data).toEqual([]);
    const deactivate = await apiA
      .from('memberships')
      .update({ active: false })
      .eq('user_id', b.learner.id)
      .select('id');
    expect(deactivate.data).toEqual([]);
    const viaOwnOrg = await callFunction(
      apiA,
      'POST',
      `org-people/organizations/${world.a.id}/members/${b.learner.id}/deactivate`,
    );
    expect(viaOwnOrg.status).toBe(404);
    const viaOtherOrg = await callFunction(
      apiA,
      'POST',
      `org-people/organizations/${b.id}/members/${b.learner.id}/deactivate`,
    );
    expect(viaOtherOrg.status).toBe(403);
    const addToOther = await callFunction(
      apiA,
      'POST',
      `org-people/organizations/${b.id}/members`,
      {
        mode: 'password',
        email: 'intruder@example.edu',
        fullName: 'In Truder',
        password: 'a-long-password-1',
        roles: [{ role: 'learner', boardId: null }],
      },
    );
    expect(addToOther.status).toBe(403);

    const { data: enrolments } = await service
      .from('enrollments')
      .select('id, user_id')
      .eq('course_id', b.course);
    expect(enrolments).toEqual([{ id: b.enrolment, user_id: b.learner.id }]);
    const { data: memberships } = await service
      .from('memberships')
      .select('active')
      .eq('user_id', b.learner.id);
    expect(memberships).toEqual([{ active: true }]);
    const { data: intruder } = await service
      .from('profiles')
      .select('id')
      .eq('full_name', 'In Truder');
    expect(intruder).toEqual([]);
  });

  it('manages its own people through org-people, and is not listed among them', async () => {
    const members = await callFunction<MemberPage>(
      apiA,
      'GET',
      `org-people/organizations/${world.a.id}/members`,
    );
    expect(members.status).toBe(200);
    expect(members.body.members.map((m) => m.userId).sort()).toEqual(
      [world.a.owner.id, world.a.admin.id, world.a.learner.id, world.a.newcomer.id].sort(),
    );
  });

  it("is not listed among the people on the owner's all-users list", async () => {
    const { rows } = await server.deps.db.query<{ principal_id: string }>(
      'select principal_id from platform.organization_api_keys where id = $1',
      [keyA.key.id],
    );
    const principal = rows[0]!.principal_id;
    const people = [world.a.owner.id, world.a.admin.id, world.a.learner.id, world.a.newcomer.id];
    const all = await world.a.owner.client.rpc('organization_people', {
      organization_id: world.a.id,
      page_size: 100,
    });
    expect(all.error).toBeNull();
    const listed = all.data as { user_id: string; total: number }[];
    expect(listed.map((r) => r.user_id).sort()).toEqual([...people].sort());
    expect(listed[0]!.total).toBe(people.length);
    // Nor among the org admins, the role the key's membership carries.
    const admins = await world.a.owner.client.rpc('organization_people', {
      organization_id: world.a.id,
      role_name: 'org_admin',
    });
    const adminIds = (admins.data as { user_id: string }[]).map((r) => r.user_id);
    expect(adminIds).toContain(world.a.admin.id);
    expect(adminIds).not.toContain(principal);
  });

  it('cannot manage keys itself, nor can anyone but an admin of the organization', async () => {
    const attempts: [string, SupabaseClient][] = [
      ['the key', apiA],
      ['a learner', world.a.learner.client],
      ["the other university's admin", world.b.admin.client],
      ['an outsider', world.outsider.client],
      ['the service role', server.service()],
    ];
    for (const [who, client] of attempts) {
      const created = await callFunction(client, 'POST', keysPath(world.a.id), { name: who });
      expect(created.status, who).toBe(403);
      const listed = await callFunction(client, 'GET', keysPath(world.a.id));
      expect(listed.status, who).toBe(403);
      const revoked = await callFunction(
        client,
        'POST',
        `${keysPath(world.a.id)}/${keyA.key.id}/revoke`,
      );
      expect(revoked.status, who).toBe(403);
    }
    const anonymous = await fetch(`${server.url}/functions/v1/${keysPath(world.a.id)}`);
    expect(anonymous.status).toBe(401);
    const { rows } = await server.deps.db.query<{ n: number }>(
      'select count(*)::int as n from platform.organization_api_keys where organization_id = $1',
      [world.a.id],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses a bad name or body clearly and creates nothing', async () => {
    const admin = world.a.admin.client;
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(81) }, { name: 42 }]) {
      const answer = await callFunction(admin, 'POST', keysPath(world.a.id), body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('invalid_request');
    }
    const notJson = await fetch(`${server.url}/functions/v1/${keysPath(world.a.id)}`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        Authorization: `Bearer ${await signUserToken(server, world.a.admin.id)}`,
        'Content-Type': 'application/json',
      },
      body: '{"name": ',
    });
    expect(notJson.status).toBe(400);
    const duplicate = await callFunction(admin, 'POST', keysPath(world.a.id), {
      name: 'Registrar sync',
    });
    expect(duplicate.status).toBe(409);
    const unknownOrg = await callFunction(admin, 'GET', keysPath('not-a-uuid'));
    expect(unknownOrg.status).toBe(404);
    const { rows } = await server.deps.db.query<{ n: number }>(
      'select count(*)::int as n from platform.organization_api_keys where organization_id = $1',
      [world.a.id],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses a forged or altered key', async () => {
    // A token signed by this server naming the key, but not the key itself.
    const forged = await signUserToken(server, world.b.admin.id, {
      claims: { api_key_id: keyA.key.id, session_id: keyA.key.id },
    });
    const withForged = await testClient(server, server.anonKey, forged)
      .from('profiles')
      .select('id');
    expect(withForged.status).toBe(401);
    const [header, payload, signature] = keyA.secret.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const altered = Buffer.from(
      JSON.stringify({ ...claims, organization_id: world.b.id }),
    ).toString('base64url');
    const tampered = await testClient(server, `${header}.${altered}.${signature}`)
      .from('profiles')
      .select('id');
    expect(tampered.status).toBe(401);
  });

  it('keeps the service role key for server-to-server administration', async () => {
    const { data } = await server.service().from('profiles').select('id');
    expect(ids(data)).toEqual(expect.arrayContaining([world.a.learner.id, world.b.learner.id]));
  });

  it('stops a revoked key at once, and says so', async () => {
    const spare = await createKey(world.a.admin.client, world.a.id, 'Spare');
    const api = testClient(server, spare.secret);
    expect((await api.from('profiles').select('id')).status).toBe(200);
    const revoked = await callFunction<{ key: ApiKey }>(
      world.a.admin.client,
      'POST',
      `${keysPath(world.a.id)}/${spare.key.id}/revoke`,
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.key.revokedAt).not.toBeNull();
    expect(revoked.body.key.lastUsedAt).not.toBeNull();

    const after = await api.from('profiles').select('id');
    expect(after.status).toBe(401);
    expect(after.error?.message).toMatch(/revoked|session/i);
    const fn = await callFunction(api, 'GET', `org-people/organizations/${world.a.id}/members`);
    expect(fn.status).toBe(401);
    const again = await callFunction(
      world.a.admin.client,
      'POST',
      `${keysPath(world.a.id)}/${spare.key.id}/revoke`,
    );
    expect(again.status).toBe(409);
    const otherOrg = await callFunction(
      world.b.admin.client,
      'POST',
      `${keysPath(world.b.id)}/${keyA.key.id}/revoke`,
    );
    expect(otherOrg.status).toBe(404);
    // The first key still works.
    expect((await apiA.from('profiles').select('id')).status).toBe(200);
  });

  it('stops a revoked key at once on a gateway process that missed the revocation notice', async () => {
    // On PostgreSQL, a second gateway on the database that never receives NOTIFY, as after a
    // dropped listening connection; PGlite is one process by design and plays both parts.
    const other =
      kind === 'postgres'
        ? await startServer(
            { ...server.deps.config, port: 0 },
            { db: deafTo(await openDatabase(server.deps.config)) },
          )
        : server;
    try {
      const spare = await createKey(world.a.admin.client, world.a.id, 'Second process');
      const api = testClient(other, spare.secret);
      // Used, and so cached as verified, on the process that will not hear of the revocation.
      expect((await api.from('profiles').select('id')).status).toBe(200);
      const revoked = await callFunction(
        world.a.admin.client,
        'POST',
        `${keysPath(world.a.id)}/${spare.key.id}/revoke`,
      );
      expect(revoked.status).toBe(200);

      const after = await api.from('profiles').select('id');
      expect(after.status).toBe(401);
      expect(after.error?.message).toMatch(/revoked|session/i);
      const fn = await callFunction(api, 'GET', `org-people/organizations/${world.a.id}/members`);
      expect(fn.status).toBe(401);
    } finally {
      if (other !== server) await other.close();
    }
  });
});

/** The database with every NOTIFY lost, as for a process whose listening connection dropped. */
function deafTo(db: Database): Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'listen') return () => Promise.resolve(() => Promise.resolve());
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/**
 * An organization of `learners` learners, an admin and a published course, written with SQL
 * so that building it spends none of the small per-key allowance the test measures.
 */
async function sqlUniversity(server: TestServer, name: string, learners: number) {
  const { rows } = await server.deps.db.query<{ org: string; admin: string; course: string }>(
    `with admin as (
       insert into auth.users (email, email_confirmed_at) values ($1, now()) returning id
     ), org as (
       insert into public.organizations (name, slug) values ($2, $3) returning id
     ), admin_membership as (
       insert into public.memberships (user_id, organization_id, role)
       select admin.id, org.id, 'org_admin' from admin, org
     ), course as (
       insert into public.courses (organization_id, title, published, visibility)
       select org.id, 'Statistics', true, 'organization' from org returning id
     )
     select org.id as org, admin.id as admin, course.id as course from org, admin, course`,
    [`admin-${name}-${Date.now()}@example.edu`, name, unique(name.toLowerCase())],
  );
  const world = rows[0]!;
  const { rows: people } = await server.deps.db.query<{ id: string }>(
    `with people as (
       insert into auth.users (email, email_confirmed_at)
       select format('learner-%s-%s@example.edu', $2::text, i), now() from generate_series(1, $3) i
       returning id
     ), joined as (
       insert into public.memberships (user_id, organization_id, role)
       select id, $1, 'learner' from people
     )
     select id from people order by id`,
    [world.org, `${name}-${Date.now()}`, learners],
  );
  const admin = testClient(server, server.anonKey, await signUserToken(server, world.admin));
  return { ...world, adminClient: admin, learners: people.map((p) => p.id) };
}

describe.each(databaseKinds)('organization API keys rate limit on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, { API_RATE_LIMIT_PER_SECOND: '5' });
  });
  afterAll(() => server?.stop());

  it('answers 429 with Retry-After past the limit, per key, and a refused write changes nothing', async () => {
    const a = await sqlUniversity(server, 'Alpha', 30);
    const b = await sqlUniversity(server, 'Beta', 1);
    const keyA = await createKey(a.adminClient, a.org, 'Limited A');
    const keyB = await createKey(b.adminClient, b.org, 'Limited B');

    // Thirty enrolments at once: at most the burst of 5 (and what refills meanwhile) pass.
    const answers = await Promise.all(
      a.learners.map((learner) =>
        fetch(`${server.url}/rest/v1/enrollments`, {
          method: 'POST',
          headers: {
            apikey: keyA.secret,
            Authorization: `Bearer ${keyA.secret}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ user_id: learner, course_id: a.course }),
        }),
      ),
    );
    const refused = answers.filter((r) => r.status === 429);
    const admitted = answers.filter((r) => r.status === 201);
    expect(refused.length).toBeGreaterThan(0);
    expect(admitted.length + refused.length).toBe(answers.length);
    for (const answer of refused) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = (await answer.json()) as { code: string; message: string };
      expect(body.code).toBe('over_request_rate_limit');
      expect(body.message).toMatch(/at most 5 requests per second/);
    }
    const { rows } = await server.deps.db.query<{ n: number }>(
      'select count(*)::int as n from public.enrollments where course_id = $1',
      [a.course],
    );
    expect(rows[0]!.n).toBe(admitted.length);

    // The other university's key has its own allowance.
    const other = await testClient(server, keyB.secret).from('profiles').select('id');
    expect(other.status).toBe(200);
  });
});
