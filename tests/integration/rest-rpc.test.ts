import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

/** `rp_` functions covering every return shape PostgREST distinguishes. */
const fixture = `
create table public.rp_items (id int primary key, name text not null, price numeric not null);
insert into public.rp_items values (1, 'pen', 2), (2, 'book', 12), (3, 'lamp', 30), (4, 'mug', 8);
create table public.rp_log (id serial primary key, note text);

create function public.rp_add(a int, b int) returns int language sql immutable as 'select a + b';
create function public.rp_hello() returns text language sql as $$ select 'hello' $$;
create function public.rp_items_above(min_price numeric default 0) returns setof public.rp_items
  language sql stable as 'select * from public.rp_items where price > min_price';
create function public.rp_squares(n int) returns table (i int, square int)
  language sql as 'select g, g * g from generate_series(1, n) g';
create function public.rp_numbers(n int) returns setof int
  language sql as 'select generate_series(1, n)';
create function public.rp_cheapest() returns public.rp_items
  language sql as 'select * from public.rp_items order by price limit 1';
create function public.rp_noop() returns void language sql as 'select';
create function public.rp_null_value() returns jsonb language sql as 'select null::jsonb';
create function public.rp_null_int() returns int language sql as 'select null::int';
create function public.rp_no_item() returns public.rp_items
  language sql as 'select * from public.rp_items where false';
create function public.rp_no_items() returns setof public.rp_items
  language sql as 'select * from public.rp_items where false';
create function public.rp_no_numbers() returns setof int language sql as 'select 1 where false';
create function public.rp_whoami() returns json language sql stable as
  $$ select json_build_object('uid', auth.uid(), 'role', auth.role(), 'db_role', current_user) $$;
create function public.rp_fail(code text) returns void language plpgsql as $$
begin
  if code = 'teapot' then
    raise sqlstate 'PT418' using message = 'I am a teapot';
  end if;
  raise exception 'refused: %', code using hint = 'try again';
end $$;
create function public.rp_write(note text) returns int language sql volatile as
  'insert into public.rp_log (note) values (note) returning id';
create function public.rp_over(a int) returns text language sql as $$ select 'one' $$;
create function public.rp_over(a int, b int) returns text language sql as $$ select 'two' $$;
create function public.rp_count_tags(tags text[]) returns int language sql as 'select cardinality(tags)';
create function public.rp_echo(payload jsonb) returns jsonb language sql as 'select payload';
create function public.rp_raw(json) returns json language sql as 'select $1';
notify pgrst, 'reload schema';
`;

describe.each(databaseKinds)('REST RPC on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(fixture);
    service = testClient(server, server.serviceRoleKey);
    for (let i = 0; i < 50; i++) {
      if ((await service.rpc('rp_hello')).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(() => server?.stop());

  it('calls scalar functions with named arguments by POST and GET', async () => {
    expect(await service.rpc('rp_add', { a: 2, b: 3 })).toMatchObject({ data: 5, status: 200 });
    expect((await service.rpc('rp_add', { a: 4, b: 1 }, { get: true })).data).toBe(5);
    expect((await service.rpc('rp_hello')).data).toBe('hello');
    expect((await service.rpc('rp_count_tags', { tags: ['a', 'b', 'c'] })).data).toBe(3);
    expect((await service.rpc('rp_count_tags', { tags: '{a,b}' }, { get: true })).data).toBe(2);
  });

  it('returns set results as arrays that filters, order and paging apply to', async () => {
    const { data, error } = await service
      .rpc('rp_items_above', { min_price: 5 })
      .select('name, price')
      .lt('price', 20)
      .order('price', { ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'book', price: 12 },
      { name: 'mug', price: 8 },
    ]);

    const all = await service.rpc('rp_items_above', {}, { count: 'exact' }).order('id').limit(2);
    expect(all.count).toBe(4);
    expect(all.data?.map((row: { id: number }) => row.id)).toEqual([1, 2]);

    const table = await service.rpc('rp_squares', { n: 3 });
    expect(table.data).toEqual([
      { i: 1, square: 1 },
      { i: 2, square: 4 },
      { i: 3, square: 9 },
    ]);
    expect((await service.rpc('rp_numbers', { n: 3 })).data).toEqual([1, 2, 3]);
    const one = await service.rpc('rp_items_above', { min_price: 20 }).single();
    expect(one.data).toEqual({ id: 3, name: 'lamp', price: 30 });
  });

  it('counts a scalar or single-row result as one row', async () => {
    const scalar = await service.rpc('rp_add', { a: 1, b: 2 }, { count: 'exact' });
    expect(scalar).toMatchObject({ data: 3, count: 1, status: 200 });
    const plain = await fetch(`${server.url}/rest/v1/rpc/rp_cheapest`, {
      method: 'POST',
      headers: { apikey: server.serviceRoleKey, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(plain.headers.get('content-range')).toBe('0-0/*');
  });

  it('writes rows as CSV, and values as rows of pgrst_scalar as PostgREST does', async () => {
    const squares = await service.rpc('rp_squares', { n: 3 }).order('i').csv();
    expect(squares.error).toBeNull();
    expect(squares.data).toBe('i,square\n1,1\n2,4\n3,9');
    const scalar = await service.rpc('rp_add', { a: 1, b: 2 }).csv();
    expect(scalar).toMatchObject({ status: 200, error: null, data: 'pgrst_scalar\n3' });
    const quoted = await service.rpc('rp_hello', {}, { get: true }).csv();
    expect(quoted.data).toBe('pgrst_scalar\nhello');
    const numbers = await service.rpc('rp_numbers', { n: 3 }).csv();
    expect(numbers).toMatchObject({ status: 200, data: 'pgrst_scalar\n1\n2\n3' });
    // A function returning nothing runs and answers 204.
    const noop = await service.rpc('rp_noop').csv();
    expect(noop.status).toBe(204);
  });

  it('returns a composite result as one object and void as no content', async () => {
    expect((await service.rpc('rp_cheapest')).data).toEqual({ id: 1, name: 'pen', price: 2 });
    const noop = await service.rpc('rp_noop');
    expect(noop.status).toBe(204);
    expect(noop.data).toBeNull();
    expect(noop.error).toBeNull();
  });

  it('answers a function whose value is NULL with data null, not an error', async () => {
    const nothing = await service.rpc('rp_null_value');
    expect(nothing).toMatchObject({ status: 200, error: null, data: null });
    for (const call of [
      service.rpc('rp_null_int'),
      service.rpc('rp_null_int', {}, { get: true }),
      service.rpc('rp_null_int').single(),
      service.rpc('rp_null_int', {}, { get: true }).single(),
      service.rpc('rp_null_int').maybeSingle(),
    ]) {
      expect(await call).toMatchObject({ status: 200, error: null, data: null });
    }
  });

  it('writes a NULL value as the JSON null, with its type and length, as PostgREST does', async () => {
    for (const accept of ['application/json', 'application/vnd.pgrst.object+json']) {
      for (const method of ['POST', 'GET']) {
        const answer = await fetch(`${server.url}/rest/v1/rpc/rp_null_int`, {
          method,
          headers: { apikey: server.serviceRoleKey, accept, 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toBe(`${accept}; charset=utf-8`);
        expect(answer.headers.get('content-length')).toBe('4');
        expect(await answer.text()).toBe('null');
      }
    }
  });

  it('answers a composite NULL as an object of nulls and no rows as an empty array', async () => {
    const noItem = { id: null, name: null, price: null };
    expect(await service.rpc('rp_no_item')).toMatchObject({ status: 200, data: noItem });
    expect(await service.rpc('rp_no_item').single()).toMatchObject({ status: 200, data: noItem });
    expect(await service.rpc('rp_no_items', {}, { get: true })).toMatchObject({
      status: 200,
      error: null,
      data: [],
    });
    expect((await service.rpc('rp_no_numbers')).data).toEqual([]);
    expect(await service.rpc('rp_no_items').maybeSingle()).toMatchObject({
      status: 200,
      error: null,
      data: null,
    });
    // `.single()` of no rows is PostgREST's 406, not a 200 with nothing.
    for (const fn of ['rp_no_items', 'rp_no_numbers']) {
      const single = await service.rpc(fn).single();
      expect(single.status).toBe(406);
      expect(single.error).toMatchObject({
        code: 'PGRST116',
        message: 'Cannot coerce the result to a single JSON object',
        details: 'The result contains 0 rows',
      });
    }
  });

  it('passes a whole JSON body to a single json parameter', async () => {
    const single = await fetch(`${server.url}/rest/v1/rpc/rp_echo`, {
      method: 'POST',
      headers: {
        apikey: server.serviceRoleKey,
        'content-type': 'application/json',
        prefer: 'params=single-object',
      },
      body: JSON.stringify({ anything: [1, 2], nested: { ok: true } }),
    });
    expect(await single.json()).toEqual({ anything: [1, 2], nested: { ok: true } });
    expect((await service.rpc('rp_echo', { payload: { x: 1 } })).data).toEqual({ x: 1 });
    expect((await service.rpc('rp_raw', { free: 'form' })).data).toEqual({ free: 'form' });
  });

  it('chooses between overloads by argument names', async () => {
    expect((await service.rpc('rp_over', { a: 1 })).data).toBe('one');
    expect((await service.rpc('rp_over', { a: 1, b: 2 })).data).toBe('two');
  });

  it('runs functions as the caller, with the claims set', async () => {
    const sub = randomUUID();
    const token = await signUserToken(server, sub, { expiresIn: '5m' });
    const user = await testClient(server, server.anonKey, token).rpc('rp_whoami');
    expect(user.data).toEqual({ uid: sub, role: 'authenticated', db_role: 'authenticated' });
    const anon = await testClient(server, server.anonKey).rpc('rp_whoami');
    expect(anon.data).toEqual({ uid: null, role: 'anon', db_role: 'anon' });
    expect((await service.rpc('rp_whoami')).data).toMatchObject({
      role: 'service_role',
      db_role: 'service_role',
    });
  });

  it('maps raised errors, including custom statuses', async () => {
    const raised = await service.rpc('rp_fail', { code: 'x' });
    expect(raised.status).toBe(400);
    expect(raised.error).toMatchObject({ code: 'P0001', message: 'refused: x', hint: 'try again' });
    const teapot = await service.rpc('rp_fail', { code: 'teapot' });
    expect(teapot.status).toBe(418);
    expect(teapot.error?.message).toBe('I am a teapot');
  });

  it('writes through POST but refuses writes through GET', async () => {
    const written = await service.rpc('rp_write', { note: 'hi' });
    expect(written.status).toBe(200);
    expect(typeof written.data).toBe('number');
    const viaGet = await service.rpc('rp_write', { note: 'sneaky' }, { get: true });
    expect(viaGet.status).toBe(405);
    expect(viaGet.error?.code).toBe('25006');
    const { count } = await service.from('rp_log').select('id', { count: 'exact', head: true });
    expect(count).toBe(1);
  });

  it('refuses unknown functions, unknown and hostile argument names, and wrong types', async () => {
    const unknown = await service.rpc('rp_nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.error).toMatchObject({
      code: 'PGRST202',
      message:
        'Could not find the function public.rp_nothing without parameters in the schema cache',
    });
    const wrongArgs = await service.rpc('rp_add', { a: 1, c: 2 });
    expect(wrongArgs.status).toBe(404);
    expect(wrongArgs.error?.code).toBe('PGRST202');
    expect(wrongArgs.error?.hint).toContain('a, b');

    const hostile = await service.rpc('rp_add', { 'a := 1); drop table rp_items; --': 1, b: 2 });
    expect(hostile.error?.code).toBe('PGRST202');
    const hostileName = await service.rpc('rp_add"(); drop table rp_items; --', {});
    expect(hostileName.status).toBe(404);

    const wrongType = await service.rpc('rp_add', { a: 'one', b: 2 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.error?.code).toBe('22P02');

    const badJson = await fetch(`${server.url}/rest/v1/rpc/rp_add`, {
      method: 'POST',
      headers: { apikey: server.serviceRoleKey, 'content-type': 'application/json' },
      body: '{"a": 1, ',
    });
    expect(badJson.status).toBe(400);
    expect((await badJson.json()).code).toBe('PGRST102');

    const filterOnScalar = await service.rpc('rp_numbers', { n: 3 }).eq('nope', 1);
    expect(filterOnScalar.status).toBe(400);

    const { count } = await service.from('rp_items').select('id', { count: 'exact', head: true });
    expect(count).toBe(4);
  });
});
