import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForRelation } from '../support/rest-fixtures';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

/**
 * 2,000 rows the planner has statistics for, then 10 it has not seen: a planned count is the
 * planner's guess, an exact one sees all 2,010.
 */
const fixture = `
create table public.rc_readings (id int primary key, level int not null);
insert into public.rc_readings select g, g % 10 from generate_series(1, 2000) g;
analyze public.rc_readings;
insert into public.rc_readings select g, 99 from generate_series(2001, 2010) g;
create table public.rc_notes (id int primary key, reading_id int not null references public.rc_readings(id));
insert into public.rc_notes select g, 1 + g % 5 from generate_series(1, 20) g;
create function public.rc_add_reading(new_id int) returns int language sql
  as 'insert into public.rc_readings values (new_id, 7) returning id';
create function public.rc_levels(at_least int) returns setof public.rc_readings language sql stable
  as 'select * from public.rc_readings where level >= at_least';
notify pgrst, 'reload schema';
`;

/** What EXPLAIN says a query returns: the planner's estimate PostgREST's planned count uses. */
async function plannerRows(server: TestServer, sql: string): Promise<number> {
  const { rows } = await server.deps.db.query<{ 'QUERY PLAN': unknown }>(
    `explain (format json) ${sql}`,
  );
  const plan = rows[0]!['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{
    Plan: { 'Plan Rows': number };
  }>;
  return parsed[0]!.Plan['Plan Rows'];
}

describe.each(databaseKinds)('REST counts, row cap and plans on %s', (kind) => {
  let server: TestServer;
  let db: SupabaseClient;
  beforeAll(async () => {
    server = await startTestServer(kind, { REST_MAX_ROWS: '1000', REST_PLAN_ENABLED: 'true' });
    await server.deps.db.exec(fixture);
    await waitForRelation(server, 'rc_readings');
    db = testClient(server, server.serviceRoleKey);
  });
  afterAll(() => server?.stop());

  it('answers count=planned with the planner’s estimate, not a count of the rows', async () => {
    const whole = await db.from('rc_readings').select('id', { count: 'planned', head: true });
    expect(whole.error).toBeNull();
    expect(whole.count).toBe(await plannerRows(server, 'select 1 from public.rc_readings'));
    expect(whole.count).not.toBe(2010);

    const filtered = await db
      .from('rc_readings')
      .select('id', { count: 'planned', head: true })
      .eq('level', 3);
    expect(filtered.count).toBe(
      await plannerRows(server, 'select 1 from public.rc_readings where level = 3'),
    );

    // Embeds bind parameters of their own (here a limit); the estimate is still of the parents.
    const embedded = await db
      .from('rc_readings')
      .select('id, rc_notes(id)', { count: 'planned' })
      .eq('level', 1)
      .limit(2, { referencedTable: 'rc_notes' })
      .order('id')
      .range(0, 1);
    expect(embedded.error).toBeNull();
    expect(embedded.data).toEqual([
      { id: 1, rc_notes: [{ id: 5 }, { id: 10 }] },
      { id: 11, rc_notes: [] },
    ]);
    expect(embedded.count).toBe(
      await plannerRows(server, 'select 1 from public.rc_readings where level = 1'),
    );
  });

  it('answers count=estimated exactly up to REST_MAX_ROWS and with the estimate past it', async () => {
    const few = await db
      .from('rc_readings')
      .select('id', { count: 'estimated', head: true })
      .eq('level', 3);
    expect(few.count).toBe(200);

    const many = await db.from('rc_readings').select('id', { count: 'estimated', head: true });
    expect(many.count).toBe(
      Math.max(1001, await plannerRows(server, 'select 1 from public.rc_readings')),
    );
  });

  it('caps a read at REST_MAX_ROWS and says so in Content-Range and 206', async () => {
    const capped = await db.from('rc_readings').select('id', { count: 'exact' }).order('id');
    expect(capped.status).toBe(206);
    expect(capped.count).toBe(2010);
    expect(capped.data).toHaveLength(1000);
    expect(capped.data?.at(-1)).toEqual({ id: 1000 });

    const asked = await db.from('rc_readings').select('id').order('id').range(1995, 2009);
    expect(asked.data?.map((row) => row.id)).toEqual(
      Array.from({ length: 15 }, (_, i) => 1996 + i),
    );
    const response = await fetch(`${server.url}/rest/v1/rc_readings?select=id&limit=5000`, {
      headers: { apikey: server.serviceRoleKey, prefer: 'count=exact' },
    });
    expect(response.headers.get('content-range')).toBe('0-999/2010');
  });

  it('answers the plan of a read in text and JSON when plans are enabled', async () => {
    const text = await db.from('rc_readings').select('id').eq('level', 3).explain();
    expect(text.error).toBeNull();
    expect(text.data).toMatch(/rc_readings/);
    expect(text.data).toMatch(/cost=/);

    const json = await db
      .from('rc_readings')
      .select('id')
      .eq('level', 3)
      .explain({ format: 'json', analyze: true });
    expect(json.error).toBeNull();
    const plan = (json.data as unknown as Array<{ Plan: Record<string, unknown> }>)[0]!.Plan;
    expect(plan).toHaveProperty('Actual Rows');

    const response = await fetch(`${server.url}/rest/v1/rc_readings?select=id`, {
      headers: {
        apikey: server.serviceRoleKey,
        accept: 'application/vnd.pgrst.plan+json; for="text/csv"',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="text/csv"; charset=utf-8',
    );
  });

  it('refuses plan options EXPLAIN does not have with 406', async () => {
    const bad = await fetch(`${server.url}/rest/v1/rc_readings?select=id`, {
      headers: {
        apikey: server.serviceRoleKey,
        accept: 'application/vnd.pgrst.plan; options=analyze|drop',
      },
    });
    expect(bad.status).toBe(406);
    expect((await bad.json()).code).toBe('PGRST107');
  });

  /** The rows a plan test could have changed, to compare before and after. */
  async function snapshot() {
    const { rows } = await server.deps.db.query(
      'select id, level from public.rc_readings where id in (1, 2, 1500, 5000, 5001) order by id',
    );
    return rows;
  }

  it('answers plans of inserts, upserts, updates and deletes, and changes nothing even with analyze', async () => {
    const before = await snapshot();
    const insert = await db.from('rc_readings').insert({ id: 5000, level: 1 }).explain();
    expect(insert.status).toBe(200);
    expect(insert.data).toMatch(/Insert on rc_readings/);

    const analyzed = await db
      .from('rc_readings')
      .insert([
        { id: 5000, level: 1 },
        { id: 5001, level: 2 },
      ])
      .select('id')
      .explain({ analyze: true, format: 'json' });
    expect(analyzed.status).toBe(200);
    const plan = (analyzed.data as unknown as Array<{ Plan: Record<string, unknown> }>)[0]!;
    expect(plan.Plan).toHaveProperty('Actual Rows');
    expect(JSON.stringify(plan)).toMatch(/"Operation":"Insert"/);

    const upsert = await db
      .from('rc_readings')
      .upsert({ id: 1, level: 9 })
      .explain({ analyze: true });
    expect(upsert.data).toMatch(/Conflict Resolution: UPDATE/);
    const update = await db
      .from('rc_readings')
      .update({ level: 8 })
      .eq('id', 2)
      .explain({ analyze: true });
    expect(update.data).toMatch(/Update on rc_readings/);
    const remove = await db.from('rc_readings').delete().eq('id', 1500).explain({ analyze: true });
    expect(remove.data).toMatch(/Delete on rc_readings/);
    expect(await snapshot()).toEqual(before);

    // The plan's Content-Type names the representation planned, as PostgREST's does.
    const raw = await fetch(`${server.url}/rest/v1/rc_readings?id=eq.1`, {
      method: 'DELETE',
      headers: {
        apikey: server.serviceRoleKey,
        prefer: 'return=representation',
        accept: 'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object"',
      },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe(
      'application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; charset=utf-8',
    );
    expect(await snapshot()).toEqual(before);
  });

  it('answers plans of calls by POST and GET, and a volatile call’s analyze changes nothing', async () => {
    const call = await db.rpc('rc_add_reading', { new_id: 5000 }).explain({ analyze: true });
    expect(call.status).toBe(200);
    expect(call.data).toMatch(/actual time=/);
    const read = await db
      .rpc('rc_levels', { at_least: 9 }, { get: true })
      .select('id')
      .explain({ format: 'json' });
    expect(read.status).toBe(200);
    expect((read.data as unknown as Array<{ Plan: unknown }>)[0]).toHaveProperty('Plan');
    expect(await db.from('rc_readings').select('id').eq('id', 5000)).toMatchObject({ data: [] });
  });

  it('answers the plan of a failing write with the write’s error, in PostgREST’s shape', async () => {
    const before = await snapshot();
    // Run by analyze, the insert meets the primary key.
    const duplicate = await db
      .from('rc_readings')
      .insert({ id: 1, level: 1 })
      .explain({ analyze: true });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: '23505' });
    // A delete its foreign keys forbid (notes point at reading 3).
    const referenced = await db.from('rc_readings').delete().eq('id', 3).explain({ analyze: true });
    expect(referenced.status).toBe(409);
    expect(referenced.error).toMatchObject({ code: '23503' });
    // A column the table lacks is refused before anything is planned.
    const unknown = await db.from('rc_readings').insert({ id: 5000, nope: 1 }).explain();
    expect(unknown.status).toBe(400);
    expect(unknown.error).toMatchObject({
      code: 'PGRST204',
      message: "Could not find the 'nope' column of 'rc_readings' in the schema cache",
    });
    const missing = await db.rpc('rc_nowhere', {}).explain();
    expect(missing.status).toBe(404);
    expect(missing.error?.code).toBe('PGRST202');
    // GET calls stay read-only when analyzed.
    const readOnly = await fetch(`${server.url}/rest/v1/rpc/rc_add_reading?new_id=5000`, {
      headers: {
        apikey: server.serviceRoleKey,
        accept: 'application/vnd.pgrst.plan; options=analyze',
      },
    });
    expect(readOnly.status).toBe(405);
    expect((await readOnly.json()).code).toBe('25006');
    expect(await snapshot()).toEqual(before);
  });
});

describe.each(databaseKinds)('REST plans left off (the default) on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(fixture);
    await waitForRelation(server, 'rc_readings');
  });
  afterAll(() => server?.stop());

  it('answers a plan request 406 and reads without a row cap', async () => {
    const db = testClient(server, server.serviceRoleKey);
    const plan = await db.from('rc_readings').select('id').explain();
    expect(plan.status).toBe(406);
    expect(plan.error?.code).toBe('PGRST107');

    const all = await db.from('rc_readings').select('id', { count: 'exact' });
    expect(all.status).toBe(200);
    expect(all.data).toHaveLength(2010);

    // Nor the plans of writes and calls: 406, and nothing written.
    const write = await db
      .from('rc_readings')
      .insert({ id: 5000, level: 1 })
      .explain({ analyze: true });
    expect(write.status).toBe(406);
    expect(write.error?.code).toBe('PGRST107');
    const call = await db.rpc('rc_add_reading', { new_id: 5000 }).explain({ analyze: true });
    expect(call.status).toBe(406);
    const { rows } = await server.deps.db.query('select 1 from public.rc_readings where id = 5000');
    expect(rows).toEqual([]);
  });
});
