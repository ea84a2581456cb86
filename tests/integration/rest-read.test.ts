import http from 'node:http';
import zlib from 'node:zlib';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';
import { untilFresh, waitForRelation } from '../support/rest-fixtures';

/** Fixture tables carry an `rr_` prefix so they never meet the product's own migrations. */
const fixture = `
create table public.rr_teachers (id int primary key, name text not null);
create table public.rr_courses (
  id int primary key,
  title text not null,
  level int,
  tags text[] not null default '{}',
  meta jsonb,
  teacher_id int references public.rr_teachers(id),
  assistant_id int references public.rr_teachers(id)
);
create table public.rr_lessons (
  id int primary key,
  course_id int not null references public.rr_courses(id),
  position int not null,
  title text not null
);
create view public.rr_course_titles as select id, title from public.rr_courses;
insert into public.rr_teachers values (1, 'Ada'), (2, 'Grace');
insert into public.rr_courses values
  (1, 'Algebra', 1, '{math,core}', '{"credits": 5, "room": "A1"}', 1, 2),
  (2, 'Biology', 2, '{science}', '{"credits": 3}', 2, null),
  (3, 'Chemistry', null, '{science,lab}', null, 2, 1),
  (4, 'Drawing', 3, '{}', null, null, null),
  (5, 'O''Brien''s "quoted" course', 2, '{}', null, 1, null);
insert into public.rr_lessons values
  (1, 1, 2, 'Groups'), (2, 1, 1, 'Sets'), (3, 2, 1, 'Cells'), (4, 3, 1, 'Atoms');
notify pgrst, 'reload schema';
`;

describe.each(databaseKinds)('REST reads on %s', (kind) => {
  let server: TestServer;
  let db: SupabaseClient;
  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(fixture);
    await waitForRelation(server, 'rr_courses');
    db = testClient(server, server.serviceRoleKey);
  });
  afterAll(() => server?.stop());

  it('selects columns, aliases and casts', async () => {
    const { data, error } = await db
      .from('rr_courses')
      .select('id, name:title, level::text, credits:meta->credits, room:meta->>room')
      .eq('id', 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, name: 'Algebra', level: '1', credits: 5, room: 'A1' }]);
  });

  it('returns every column with * and keeps SQL types as JSON', async () => {
    const { data } = await db.from('rr_courses').select('*').eq('id', 1).single();
    expect(data).toEqual({
      id: 1,
      title: 'Algebra',
      level: 1,
      tags: ['math', 'core'],
      meta: { credits: 5, room: 'A1' },
      teacher_id: 1,
      assistant_id: 2,
    });
  });

  it('filters with every comparison operator', async () => {
    const ids = async (query: PromiseLike<{ data: { id: number }[] | null; error: unknown }>) => {
      const { data, error } = await query;
      expect(error).toBeNull();
      return (data ?? []).map((row) => row.id).sort();
    };
    const t = () => db.from('rr_courses').select('id');
    expect(await ids(t().eq('level', 2))).toEqual([2, 5]);
    expect(await ids(t().neq('level', 2))).toEqual([1, 4]);
    expect(await ids(t().gt('level', 1))).toEqual([2, 4, 5]);
    expect(await ids(t().gte('level', 3))).toEqual([4]);
    expect(await ids(t().lt('level', 2))).toEqual([1]);
    expect(await ids(t().lte('level', 2))).toEqual([1, 2, 5]);
    expect(await ids(t().like('title', '%ology'))).toEqual([2]);
    expect(await ids(t().like('title', '*ology'))).toEqual([2]);
    expect(await ids(t().ilike('title', 'a%'))).toEqual([1]);
    expect(await ids(t().is('level', null))).toEqual([3]);
    expect(await ids(t().not('level', 'is', null))).toEqual([1, 2, 4, 5]);
    expect(await ids(t().in('id', [1, 3, 99]))).toEqual([1, 3]);
    expect(await ids(t().in('title', ['Algebra', 'O\'Brien\'s "quoted" course']))).toEqual([1, 5]);
    expect(await ids(t().contains('tags', ['science']))).toEqual([2, 3]);
    expect(await ids(t().containedBy('tags', ['science', 'lab', 'x']))).toEqual([2, 3, 4, 5]);
    expect(await ids(t().contains('meta', { credits: 3 }))).toEqual([2]);
    expect(await ids(t().overlaps('tags', ['lab', 'core']))).toEqual([1, 3]);
    expect(await ids(t().not('id', 'in', '(1,2)'))).toEqual([3, 4, 5]);
    expect(await ids(t().eq('meta->>room', 'A1'))).toEqual([1]);
    expect(await ids(t().textSearch('title', 'biology'))).toEqual([2]);
    expect(
      await ids(t().textSearch('title', 'chemistry | drawing', { config: 'english' })),
    ).toEqual([3, 4]);
    expect(await ids(t().textSearch('title', '"quoted course"', { type: 'websearch' }))).toEqual([
      5,
    ]);
    expect(await ids(t().filter('title', 'match', '^[AB]'))).toEqual([1, 2]);
  });

  it('combines filters with or, and, and not', async () => {
    const { data, error } = await db
      .from('rr_courses')
      .select('id')
      .or('level.eq.3,and(level.eq.2,title.like.B*),tags.cs.{lab}')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 2 }, { id: 3 }, { id: 4 }]);

    const negated = await fetch(
      `${server.url}/rest/v1/rr_courses?select=id&not.or=(level.is.null,level.gte.2)`,
      { headers: { apikey: server.serviceRoleKey } },
    );
    expect(await negated.json()).toEqual([{ id: 1 }]);

    const quoted = await db
      .from('rr_courses')
      .select('id')
      .or('title.eq."O\'Brien\'s \\"quoted\\" course",id.eq.4');
    expect(quoted.error).toBeNull();
    expect(quoted.data?.map((r) => r.id).sort()).toEqual([4, 5]);
  });

  it('orders by several columns with nulls placement, and pages', async () => {
    const { data } = await db
      .from('rr_courses')
      .select('id')
      .order('level', { ascending: false, nullsFirst: true })
      .order('id', { ascending: true });
    expect(data?.map((r) => r.id)).toEqual([3, 4, 2, 5, 1]);

    const page = await db.from('rr_courses').select('id').order('id').range(1, 2);
    expect(page.data).toEqual([{ id: 2 }, { id: 3 }]);

    const limited = await db.from('rr_courses').select('id').order('id').limit(2);
    expect(limited.data).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('counts with Prefer: count=exact and reports Content-Range', async () => {
    const { data, count, status } = await db
      .from('rr_courses')
      .select('id', { count: 'exact' })
      .order('id')
      .range(0, 1);
    expect(count).toBe(5);
    expect(status).toBe(206);
    expect(data).toHaveLength(2);

    const head = await db
      .from('rr_courses')
      .select('*', { count: 'exact', head: true })
      .eq('level', 2);
    expect(head.count).toBe(2);
    expect(head.data).toBeNull();

    const none = await db.from('rr_courses').select('id', { count: 'exact' }).eq('id', 42);
    expect(none.count).toBe(0);
    expect(none.data).toEqual([]);

    const raw = await fetch(`${server.url}/rest/v1/rr_courses?select=id&id=gt.3`, {
      headers: { apikey: server.serviceRoleKey, prefer: 'count=exact' },
    });
    expect(raw.headers.get('content-range')).toBe('0-1/2');
    const empty = await fetch(`${server.url}/rest/v1/rr_courses?select=id&id=gt.99`, {
      headers: { apikey: server.serviceRoleKey, prefer: 'count=exact' },
    });
    expect(empty.headers.get('content-range')).toBe('*/0');
  });

  it('honours the Range header', async () => {
    const response = await fetch(`${server.url}/rest/v1/rr_courses?select=id&order=id`, {
      headers: { apikey: server.serviceRoleKey, range: '2-3', 'range-unit': 'items' },
    });
    expect(await response.json()).toEqual([{ id: 3 }, { id: 4 }]);
    expect(response.headers.get('content-range')).toBe('2-3/*');
    const beyond = await fetch(`${server.url}/rest/v1/rr_courses?offset=10`, {
      headers: { apikey: server.serviceRoleKey, prefer: 'count=exact' },
    });
    expect(beyond.status).toBe(416);
    expect((await beyond.json()).code).toBe('PGRST103');
  });

  it('returns one object for .single() and 406 PGRST116 otherwise', async () => {
    const one = await db.from('rr_courses').select('title').eq('id', 2).single();
    expect(one.data).toEqual({ title: 'Biology' });

    const many = await db.from('rr_courses').select('id').single();
    expect(many.status).toBe(406);
    expect(many.error?.code).toBe('PGRST116');

    const none = await db.from('rr_courses').select('id').eq('id', 99).single();
    expect(none.status).toBe(406);
    expect(none.error?.code).toBe('PGRST116');

    const maybe = await db.from('rr_courses').select('id').eq('id', 99).maybeSingle();
    expect(maybe.error).toBeNull();
    expect(maybe.data).toBeNull();
  });

  it('embeds to-one and to-many relations, with hints, filters, order and !inner', async () => {
    const { data, error } = await db
      .from('rr_courses')
      .select('title, rr_lessons(title, position)')
      .eq('id', 1)
      .order('position', { referencedTable: 'rr_lessons' })
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      title: 'Algebra',
      rr_lessons: [
        { title: 'Sets', position: 1 },
        { title: 'Groups', position: 2 },
      ],
    });

    const lessons = await db
      .from('rr_lessons')
      .select('title, course:rr_courses(title)')
      .order('id')
      .limit(1);
    expect(lessons.data).toEqual([{ title: 'Groups', course: { title: 'Algebra' } }]);

    const ambiguous = await db.from('rr_courses').select('id, rr_teachers(name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error?.code).toBe('PGRST201');

    const hinted = await db
      .from('rr_courses')
      .select(
        'id, teacher:rr_teachers!teacher_id(name), assistant:rr_teachers!rr_courses_assistant_id_fkey(name)',
      )
      .eq('id', 3)
      .single();
    expect(hinted.data).toEqual({ id: 3, teacher: { name: 'Grace' }, assistant: { name: 'Ada' } });

    const inner = await db
      .from('rr_courses')
      .select('id, rr_lessons!inner(title)')
      .eq('rr_lessons.title', 'Cells');
    expect(inner.data).toEqual([{ id: 2, rr_lessons: [{ title: 'Cells' }] }]);

    const limitedChildren = await db
      .from('rr_courses')
      .select('id, rr_lessons(id)')
      .eq('id', 1)
      .limit(1, { referencedTable: 'rr_lessons' })
      .single();
    expect(limitedChildren.data?.rr_lessons).toHaveLength(1);

    const unrelated = await db.from('rr_teachers').select('id, rr_lessons(id)');
    expect(unrelated.status).toBe(400);
    expect(unrelated.error?.code).toBe('PGRST200');
  });

  it('refuses aggregates while REST_AGGREGATES_ENABLED is off, as PostgREST does by default', async () => {
    const { status, error } = await db.from('rr_courses').select('level, count()');
    expect(status).toBe(400);
    expect(error).toMatchObject({
      code: 'PGRST123',
      message: 'Use of aggregate functions is not allowed',
    });
  });

  it('reads views', async () => {
    const { data } = await db.from('rr_course_titles').select('title').eq('id', 4);
    expect(data).toEqual([{ title: 'Drawing' }]);
  });

  it('answers HEAD with headers and no body', async () => {
    const response = await fetch(`${server.url}/rest/v1/rr_courses?select=id`, {
      method: 'HEAD',
      headers: { apikey: server.serviceRoleKey, prefer: 'count=exact' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-range')).toBe('0-4/5');
    expect(await response.text()).toBe('');
  });

  it('sends a body under 1 KB as it is, its length in bytes declared, and gzips a larger one', async () => {
    await server.deps.db.exec(`
      create table public.rr_sized (id int primary key, note text not null);
      insert into public.rr_sized
        select g, 'Ünïcödé ✓ — note ' || g || repeat('x', 40) from generate_series(1, 60) g;
      create function public.rr_sized_note(n int) returns text language sql stable
        as 'select note from public.rr_sized where id = n';
      notify pgrst, 'reload schema';
    `);
    await waitForRelation(server, 'rr_sized');
    // One kept-alive connection: a declared length that did not match the bytes sent would
    // garble or stall the answer after it.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const raw = (path: string, init: { method?: string; body?: string; prefer?: string } = {}) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>(
        (resolve, reject) => {
          const request = http.request(
            `${server.url}/rest/v1/${path}`,
            {
              agent,
              method: init.method ?? 'GET',
              headers: {
                apikey: server.serviceRoleKey,
                'accept-encoding': 'gzip, deflate',
                'content-type': 'application/json',
                ...(init.prefer ? { prefer: init.prefer } : {}),
              },
            },
            (response) => {
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => chunks.push(chunk));
              response.on('end', () =>
                resolve({
                  status: response.statusCode ?? 0,
                  headers: response.headers,
                  bytes: Buffer.concat(chunks),
                }),
              );
              response.on('error', reject);
            },
          );
          request.on('error', reject);
          request.end(init.body);
        },
      );
    try {
      const expectSentAsIs = (answer: Awaited<ReturnType<typeof raw>>, json: unknown) => {
        expect(answer.headers['content-encoding']).toBeUndefined();
        expect(answer.headers['content-length']).toBe(String(answer.bytes.length));
        expect(JSON.parse(answer.bytes.toString('utf8'))).toEqual(json);
      };
      const note = (id: number) => `Ünïcödé ✓ — note ${id}${'x'.repeat(40)}`;
      // Reads, one object, a write's representation, a call: each small, each whole.
      expectSentAsIs(await raw('rr_sized?select=id,note&id=lte.2&order=id'), [
        { id: 1, note: note(1) },
        { id: 2, note: note(2) },
      ]);
      const one = await raw('rr_sized?select=note&id=eq.3');
      expect(one.status).toBe(200);
      expectSentAsIs(one, [{ note: note(3) }]);
      const written = await raw('rr_sized?select=id,note', {
        method: 'POST',
        body: JSON.stringify({ id: 100, note: 'é' }),
        prefer: 'return=representation',
      });
      expect(written.status).toBe(201);
      expectSentAsIs(written, [{ id: 100, note: 'é' }]);
      expectSentAsIs(await raw('rpc/rr_sized_note?n=4'), note(4));

      const large = await raw('rr_sized?select=id,note&id=lte.60&order=id');
      expect(large.status).toBe(200);
      expect(large.headers['content-encoding']).toBe('gzip');
      expect(large.headers['content-length']).toBeUndefined();
      expect(large.headers.vary).toMatch(/accept-encoding/i);
      const rows = JSON.parse(zlib.gunzipSync(large.bytes).toString('utf8')) as unknown[];
      expect(rows).toHaveLength(60);
      expect(rows[59]).toEqual({ id: 60, note: note(60) });

      const head = await raw('rr_sized?select=id', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.bytes.length).toBe(0);
      // And the connection still serves the next request.
      expectSentAsIs(await raw('rr_sized?select=id&id=eq.1'), [{ id: 1 }]);
    } finally {
      agent.destroy();
    }
  });

  it('declares the length of an error body and names its code, as PostgREST does', async () => {
    const ask = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/rest/v1/${path}`, {
        headers: { apikey: server.serviceRoleKey, ...headers },
      });
    const cases: [Response, number, string][] = [
      [await ask('rr_courses?id=nope.1'), 400, 'PGRST100'],
      [await ask('rpc/rr_no_such_function'), 404, 'PGRST202'],
      // A name outside ASCII: the length is in bytes, not characters.
      [await ask('rr_cöurses_ünknown'), 404, 'PGRST205'],
      [
        await ask('rr_courses?select=id', { accept: 'application/vnd.pgrst.object+json' }),
        406,
        'PGRST116',
      ],
      [await fetch(`${server.url}/rest/v1/rr_courses`), 401, 'PGRST302'],
    ];
    for (const [answer, status, code] of cases) {
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('proxy-status')).toBe(`PostgREST; error=${code}`);
      const bytes = Buffer.from(await answer.arrayBuffer());
      expect(answer.headers.get('content-length')).toBe(String(bytes.length));
      expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ code });
    }
    // supabase-js reads them as before.
    const single = await db.from('rr_courses').select('id').single();
    expect(single).toMatchObject({ status: 406, data: null, error: { code: 'PGRST116' } });
  });

  it('refuses unknown relations and columns with PostgREST codes', async () => {
    const table = await db.from('no_such_table').select('*');
    expect(table.status).toBe(404);
    expect(table.error).toMatchObject({
      code: 'PGRST205',
      message: "Could not find the table 'public.no_such_table' in the schema cache",
    });
    const column = await db.from('rr_courses').select('nope');
    expect(column.status).toBe(400);
    expect(column.error?.code).toBe('42703');
    const filterColumn = await db.from('rr_courses').select('id').eq('nope', 1);
    expect(filterColumn.error?.code).toBe('42703');
    const internal = await db.from('schema_migrations').select('*');
    expect(internal.status).toBe(404);
  });

  it('writes the media type Accept asks for, and answers 406 for one it cannot write', async () => {
    const csv = await db
      .from('rr_courses')
      .select('id,title,level')
      .in('id', [1, 3, 5])
      .order('id')
      .csv();
    expect(csv.error).toBeNull();
    // PostgREST's CSV: the keys, then each row's record text (null empty, quotes doubled).
    expect(csv.data).toBe(
      'id,title,level\n1,Algebra,1\n3,Chemistry,\n5,"O\'Brien\'s ""quoted"" course",2',
    );

    const rest = `${server.url}/rest/v1/rr_courses?select=id,level,meta&id=in.(3,4)&order=id`;
    const ask = (accept: string) =>
      fetch(rest, { headers: { apikey: server.serviceRoleKey, Accept: accept } });
    for (const accept of [
      'application/vnd.pgrst.array+json;nulls=stripped',
      'application/vnd.pgrst.array;nulls=stripped',
    ]) {
      const stripped = await ask(accept);
      expect(stripped.status).toBe(200);
      expect(stripped.headers.get('content-type')).toBe(
        'application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8',
      );
      expect(await stripped.json()).toEqual([{ id: 3 }, { id: 4, level: 3 }]);
    }
    // Without nulls=stripped, PostgREST takes either spelling as plain JSON and says so.
    for (const accept of ['application/vnd.pgrst.array', 'application/vnd.pgrst.array+json']) {
      const array = await ask(accept);
      expect(array.status).toBe(200);
      expect(array.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await array.json()).toEqual([
        { id: 3, level: null, meta: null },
        { id: 4, level: 3, meta: null },
      ]);
    }
    const one = await fetch(`${rest.replace('in.(3,4)', 'eq.3')}`, {
      headers: {
        apikey: server.serviceRoleKey,
        Accept: 'application/vnd.pgrst.object+json;nulls=stripped',
      },
    });
    expect(one.headers.get('content-type')).toBe(
      'application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8',
    );
    expect(await one.json()).toEqual({ id: 3 });
    // The most preferred type we can write wins; order breaks ties.
    const preferred = await ask('text/plain, text/csv;q=0.5, application/json;q=0.4');
    expect(preferred.headers.get('content-type')).toContain('text/csv');
    expect(await preferred.text()).toBe('id,level,meta\n3,,\n4,3,');

    for (const accept of ['text/plain', 'application/xml, text/html;q=0.9', 'text/csv;q=0']) {
      const refused = await ask(accept);
      expect(refused.status, accept).toBe(406);
      const body = (await refused.json()) as { code: string; message: string };
      expect(body.code).toBe('PGRST107');
      expect(body.message).toMatch(/^None of these media types are available: /);
    }
    const plan = await db.from('rr_courses').select('id').explain();
    expect(plan.status).toBe(406);
  });

  it('answers a logic tree nested too deep with a 400, and still serves the next request', async () => {
    const nest = (levels: number) => `${'and('.repeat(levels)}id.eq.1${')'.repeat(levels)}`;
    const fine = await db.from('rr_courses').select('id').or(nest(10));
    expect(fine.error).toBeNull();
    expect(fine.data).toEqual([{ id: 1 }]);

    const deep = await db.from('rr_courses').select('id').or(nest(1_000));
    expect(deep.status).toBe(400);
    expect(deep.error?.code).toBe('PGRST100');
    expect(deep.error?.details).toMatch(/at most \d+ levels/);
    const after = await db.from('rr_courses').select('id').eq('id', 1);
    expect(after.data).toEqual([{ id: 1 }]);
  });

  it('rejects hostile identifiers and operators without running them', async () => {
    const attacks = [
      db.from('rr_courses').select('id, title"; drop table rr_lessons; --'),
      db.from('rr_courses').select('id').eq('id); drop table rr_lessons; --', 1),
      db.from('rr_courses').select('id').order('id; drop table rr_lessons'),
      db.from('rr_courses').select('id').order('title desc, (select 1)'),
      db.from('rr_courses').select('id::text); drop table rr_lessons; --'),
      db.from('rr_courses').select('id').filter('id', 'eq); drop table rr_lessons; --', '1'),
      db.from('rr_courses').select('id').or('id.eq.1) or (1=1'),
      db.from('rr_courses;drop table rr_lessons').select('*'),
      db.from('rr_courses').select('"id"";drop table rr_lessons;--"'),
    ];
    for (const result of await Promise.all(attacks)) {
      expect(result.error, JSON.stringify(result)).not.toBeNull();
      expect([400, 404]).toContain(result.status);
      expect(result.error).toHaveProperty('code');
      expect(result.error).toHaveProperty('hint');
    }
    const values = await db.from('rr_courses').select('id').eq('title', "x' or '1'='1");
    expect(values.data).toEqual([]);
    const lessons = await db.from('rr_lessons').select('id', { count: 'exact', head: true });
    expect(lessons.count).toBe(4);
  });

  it('reports wrong types and bad syntax as 400', async () => {
    const wrongType = await db.from('rr_courses').select('id').eq('id', 'abc');
    expect(wrongType.status).toBe(400);
    expect(wrongType.error?.code).toBe('22P02');

    const badOperator = await fetch(`${server.url}/rest/v1/rr_courses?id=zz.1`, {
      headers: { apikey: server.serviceRoleKey },
    });
    expect(badOperator.status).toBe(400);
    expect((await badOperator.json()).code).toBe('PGRST100');

    for (const query of [
      'select=id,(',
      'order=id.sideways',
      'limit=-1',
      'or=(id.eq.1',
      'id=is.maybe',
      'id=in.1,2',
    ]) {
      const response = await fetch(`${server.url}/rest/v1/rr_courses?${query}`, {
        headers: { apikey: server.serviceRoleKey },
      });
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'details', 'hint', 'message']);
    }
  });

  it('refuses requests without an API key and other schemas', async () => {
    const bare = await fetch(`${server.url}/rest/v1/rr_courses`);
    expect(bare.status).toBe(401);
    const profile = await fetch(`${server.url}/rest/v1/rr_courses`, {
      headers: { apikey: server.serviceRoleKey, 'accept-profile': 'auth' },
    });
    expect(profile.status).toBe(406);
    expect(await profile.json()).toEqual({
      code: 'PGRST106',
      message: 'Invalid schema: auth',
      details: null,
      hint: 'Only the following schemas are exposed: public',
    });
    // With one schema exposed and none asked for, PostgREST does not name it.
    const plain = await fetch(`${server.url}/rest/v1/rr_courses?limit=1`, {
      headers: { apikey: server.serviceRoleKey },
    });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-profile')).toBeNull();
    const named = await fetch(`${server.url}/rest/v1/rr_courses?limit=1`, {
      headers: { apikey: server.serviceRoleKey, 'accept-profile': 'public' },
    });
    expect(named.headers.get('content-profile')).toBe('public');
  });

  it('follows DDL: new columns appear after a reload, prepared statements and all', async () => {
    // A table of its own: the other tests read rr_teachers and must not see a new column.
    await server.deps.db.exec(
      `create table public.rr_ddl (id int primary key, name text not null);
       insert into public.rr_ddl values (1, 'Ada'), (2, 'Grace');
       notify pgrst, 'reload schema';`,
    );
    await waitForRelation(server, 'rr_ddl');
    const before = await db.from('rr_ddl').select('*').eq('id', 1);
    expect(before.data).toEqual([{ id: 1, name: 'Ada' }]);
    await server.deps.db.exec(
      `alter table public.rr_ddl add column email text default 'a@example.org'; notify pgrst, 'reload schema';`,
    );
    // Still the old columns until the reload: stale, not wrong. An error is never stale.
    const after = await untilFresh(
      () => db.from('rr_ddl').select('*').eq('id', 1),
      (answer) => answer.error === null && !('email' in (answer.data?.[0] ?? {})),
    );
    expect(after.error).toBeNull();
    expect(after.data).toEqual([{ id: 1, name: 'Ada', email: 'a@example.org' }]);
    const byNewColumn = await db.from('rr_ddl').select('name').eq('email', 'a@example.org');
    expect(byNewColumn.error).toBeNull();
    expect(byNewColumn.data).toHaveLength(2);
  });

  it('answers CORS preflights with the headers supabase-js sends', async () => {
    const response = await fetch(`${server.url}/rest/v1/rr_courses`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers':
          'authorization, apikey, x-client-info, content-type, prefer, accept-profile, content-profile, x-retry-count',
      },
    });
    expect(response.status).toBe(204);
    const allowed = response.headers.get('access-control-allow-headers') ?? '';
    for (const header of [
      'authorization',
      'apikey',
      'x-client-info',
      'prefer',
      'content-profile',
    ]) {
      expect(allowed).toContain(header);
    }
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
    const get = await fetch(`${server.url}/rest/v1/rr_courses?limit=1`, {
      headers: { apikey: server.serviceRoleKey, origin: 'https://app.example' },
    });
    expect(get.headers.get('access-control-expose-headers')).toContain('Content-Range');
  });
});
