import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForRelation } from '../support/rest-fixtures';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const owner = randomUUID();

/**
 * `rp_items` in two exposed schemas with different rows, a relation and a function only the
 * second has, row-level security there, and a third schema that exists but is not exposed.
 */
const fixture = `
create table public.rp_items (id int primary key, name text not null);
insert into public.rp_items values (1, 'public one');

create schema rp_v2;
grant usage on schema rp_v2 to anon, authenticated, service_role;
create table rp_v2.rp_items (
  id int primary key,
  name text not null,
  published boolean not null default false,
  owner_id uuid
);
alter table rp_v2.rp_items enable row level security;
create policy read_published on rp_v2.rp_items for select to anon, authenticated
  using (published or owner_id = auth.uid());
create policy write_own on rp_v2.rp_items for insert to authenticated
  with check (owner_id = auth.uid());
create table rp_v2.rp_notes (
  id int primary key,
  item_id int not null references rp_v2.rp_items(id),
  body text not null
);
create function rp_v2.rp_double(n int) returns int language sql as 'select n * 2';
create function rp_v2.rp_published() returns setof rp_v2.rp_items language sql stable
  as 'select * from rp_v2.rp_items where published order by id';
grant select, insert, update, delete on all tables in schema rp_v2 to anon, authenticated, service_role;
grant execute on all functions in schema rp_v2 to anon, authenticated, service_role;
insert into rp_v2.rp_items values
  (1, 'v2 one', true, null), (2, 'v2 two', true, null), (3, 'v2 draft', false, '${owner}');
insert into rp_v2.rp_notes values (1, 1, 'first'), (2, 1, 'second');

-- Unqualified names, found through the request's search_path: its schema, then public.
create function public.rp_shout(t text) returns text language sql immutable as 'select upper(t)';
create function public.rp_first_name() returns text language plpgsql stable
  as $$ begin return (select name from rp_items where id = 1); end $$;
create function rp_v2.rp_first_name() returns text language plpgsql stable
  as $$ begin return (select name from rp_items where id = 1); end $$;
create function rp_v2.rp_shouted_names() returns setof text language plpgsql stable
  as $$ begin return query select rp_shout(name) from rp_items where published order by id; end $$;
create function rp_v2.rp_path() returns text language sql stable
  as $$ select current_setting('search_path') $$;
grant execute on all functions in schema rp_v2 to anon, authenticated, service_role;

create schema rp_hidden;
create table rp_hidden.rp_items (id int primary key);
notify pgrst, 'reload schema';
`;

const notExposed = (schema: string) => ({
  code: 'PGRST106',
  message: `Invalid schema: ${schema}`,
  details: null,
  hint: 'Only the following schemas are exposed: public, rp_v2',
});

describe.each(databaseKinds)('REST Accept-Profile and Content-Profile on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;
  const url = (path: string) => `${server.url}/rest/v1/${path}`;
  const headers = (extra: Record<string, string> = {}) => ({
    apikey: server.serviceRoleKey,
    Authorization: `Bearer ${server.serviceRoleKey}`,
    ...extra,
  });

  beforeAll(async () => {
    server = await startTestServer(kind, { REST_DB_SCHEMAS: 'public, rp_v2' });
    await server.deps.db.exec(fixture);
    await waitForRelation(server, 'rp_items');
    service = testClient(server, server.serviceRoleKey);
  });
  afterAll(() => server?.stop());

  it('reads the first listed schema by default and another by .schema(), naming it', async () => {
    const plain = await service.from('rp_items').select('id, name');
    expect(plain.error).toBeNull();
    expect(plain.data).toEqual([{ id: 1, name: 'public one' }]);

    const v2 = await service.schema('rp_v2').from('rp_items').select('id, name').order('id');
    expect(v2.error).toBeNull();
    expect(v2.data).toEqual([
      { id: 1, name: 'v2 one' },
      { id: 2, name: 'v2 two' },
      { id: 3, name: 'v2 draft' },
    ]);

    // With more than one schema exposed, PostgREST names the one it answered from.
    const raw = await fetch(url('rp_items?select=id'), {
      headers: headers({ 'Accept-Profile': 'rp_v2' }),
    });
    expect(raw.headers.get('content-profile')).toBe('rp_v2');
    const byDefault = await fetch(url('rp_items?select=id'), { headers: headers() });
    expect(byDefault.headers.get('content-profile')).toBe('public');
  });

  it('embeds within the request’s schema, and names that schema when a relation is missing', async () => {
    const { data, error } = await service
      .schema('rp_v2')
      .from('rp_items')
      .select('id, rp_notes(body)')
      .eq('id', 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, rp_notes: [{ body: 'first' }, { body: 'second' }] }]);

    const missing = await service.schema('rp_v2').from('rp_nowhere').select();
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({
      code: 'PGRST205',
      message: "Could not find the table 'rp_v2.rp_nowhere' in the schema cache",
    });
    // public has no rp_notes, so the embed is not found there.
    const noRelation = await service.from('rp_items').select('id, rp_notes(body)');
    expect(noRelation.status).toBe(400);
    expect(noRelation.error?.code).toBe('PGRST200');
    expect(noRelation.error?.details).toContain("in the schema 'public'");
  });

  it('writes with Content-Profile: insert, upsert, update and delete touch only that schema', async () => {
    const v2 = service.schema('rp_v2');
    const inserted = await v2.from('rp_items').insert({ id: 10, name: 'ten' }).select('id, name');
    expect(inserted.status).toBe(201);
    expect(inserted.data).toEqual([{ id: 10, name: 'ten' }]);

    const upserted = await v2
      .from('rp_items')
      .upsert({ id: 10, name: 'ten again' })
      .select('name')
      .single();
    expect(upserted.error).toBeNull();
    expect(upserted.data).toEqual({ name: 'ten again' });

    const updated = await v2.from('rp_items').update({ published: true }).eq('id', 10).select();
    expect(updated.error).toBeNull();
    expect(updated.data).toHaveLength(1);

    const { rows: publicRows } = await server.deps.db.query('select id from public.rp_items');
    expect(publicRows).toEqual([{ id: 1 }]);

    const deleted = await v2.from('rp_items').delete().eq('id', 10).select('id');
    expect(deleted.data).toEqual([{ id: 10 }]);
    const { rows } = await server.deps.db.query('select id from rp_v2.rp_items order by id');
    expect(rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('calls functions of the profile’s schema by POST and GET, with filters on their rows', async () => {
    const v2 = service.schema('rp_v2');
    expect((await v2.rpc('rp_double', { n: 21 })).data).toBe(42);
    expect((await v2.rpc('rp_double', { n: 4 }, { get: true })).data).toBe(8);
    const rows = await v2.rpc('rp_published').select('name').gt('id', 1);
    expect(rows.data).toEqual([{ name: 'v2 two' }]);

    const elsewhere = await service.rpc('rp_double', { n: 1 });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.error).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.rp_double(n) in the schema cache',
    });
  });

  it('looks up unqualified names in the profile’s schema, then public, as PostgREST', async () => {
    const v2 = service.schema('rp_v2');
    // rp_items exists in both schemas: a function of rp_v2 reads rp_v2's, by POST and by GET.
    expect(await v2.rpc('rp_first_name')).toMatchObject({ data: 'v2 one', error: null });
    expect(await v2.rpc('rp_first_name', {}, { get: true })).toMatchObject({ data: 'v2 one' });
    // public, PostgREST's default db-extra-search-path, follows: its functions are found too.
    const shouted = await v2.rpc('rp_shouted_names');
    expect(shouted.error).toBeNull();
    expect(shouted.data).toEqual(['V2 ONE', 'V2 TWO']);
    expect((await v2.rpc('rp_path')).data).toBe('"rp_v2", "public"');
    // Row-level security still applies inside: anon sees the published rows only.
    const anon = testClient(server, server.anonKey).schema('rp_v2');
    expect((await anon.rpc('rp_shouted_names')).data).toEqual(['V2 ONE', 'V2 TWO']);

    // The default schema is unchanged, and the next call on it reads public's table.
    expect(await service.rpc('rp_first_name')).toMatchObject({ data: 'public one', error: null });
    const unknown = await service.schema('rp_hidden').rpc('rp_first_name');
    expect(unknown.status).toBe(406);
    expect(unknown.error).toEqual(notExposed('rp_hidden'));
  });

  it('keeps row-level security as it is in the other schema', async () => {
    const anon = testClient(server, server.anonKey).schema('rp_v2');
    const visible = await anon.from('rp_items').select('id').order('id');
    expect(visible.data).toEqual([{ id: 1 }, { id: 2 }]);
    const refused = await anon.from('rp_items').insert({ id: 20, name: 'anon' });
    expect(refused.status).toBe(401);
    expect(refused.error?.code).toBe('42501');

    const token = await signUserToken(server, owner, { expiresIn: '5m' });
    const asOwner = testClient(server, server.anonKey, token).schema('rp_v2');
    const own = await asOwner.from('rp_items').select('id').order('id');
    expect(own.data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('refuses a schema that is not exposed with 406 PGRST106, for reads, writes and calls', async () => {
    const read = await service.schema('rp_hidden').from('rp_items').select();
    expect(read.status).toBe(406);
    expect(read.error).toEqual(notExposed('rp_hidden'));

    const write = await service.schema('nope').from('rp_items').insert({ id: 99, name: 'x' });
    expect(write.status).toBe(406);
    expect(write.error).toEqual(notExposed('nope'));

    const call = await service.schema('pg_catalog').rpc('version');
    expect(call.status).toBe(406);
    expect(call.error).toEqual(notExposed('pg_catalog'));
    // A profile names a schema exactly: no trimming, no case folding.
    const cased = await fetch(url('rp_items'), { headers: headers({ 'Accept-Profile': 'RP_V2' }) });
    expect(cased.status).toBe(406);
    expect(await cased.json()).toEqual(notExposed('RP_V2'));
    expect(cased.headers.get('content-profile')).toBeNull();
  });

  it('reads only the header of the method when both are sent and they differ, as PostgREST', async () => {
    // A write's schema is Content-Profile's; Accept-Profile is not read.
    const write = await fetch(url('rp_items'), {
      method: 'POST',
      headers: headers({
        'Content-Type': 'application/json',
        'Content-Profile': 'rp_v2',
        'Accept-Profile': 'nope',
        Prefer: 'return=representation',
      }),
      body: JSON.stringify({ id: 30, name: 'thirty' }),
    });
    expect(write.status).toBe(201);
    expect(write.headers.get('content-profile')).toBe('rp_v2');
    expect(await write.json()).toEqual([
      { id: 30, name: 'thirty', published: false, owner_id: null },
    ]);
    // A read's schema is Accept-Profile's.
    const read = await fetch(url('rp_items?id=eq.30&select=name'), {
      headers: headers({ 'Accept-Profile': 'rp_v2', 'Content-Profile': 'public' }),
    });
    expect(await read.json()).toEqual([{ name: 'thirty' }]);
    // And the other way round, the header that counts is refused.
    const refused = await fetch(url('rp_items?id=eq.30'), {
      method: 'DELETE',
      headers: headers({ 'Content-Profile': 'nope', 'Accept-Profile': 'rp_v2' }),
    });
    expect(refused.status).toBe(406);
    expect(await refused.json()).toEqual(notExposed('nope'));
    const { rows } = await server.deps.db.query('select id from rp_v2.rp_items where id = 30');
    expect(rows).toHaveLength(1);
  });
});
