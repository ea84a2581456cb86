import { randomUUID } from 'node:crypto';
import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const alice = randomUUID();
const bob = randomUUID();

/** `rw_` tables: a profiles table under RLS like the product's, and posts that point at it. */
const fixture = `
create table public.rw_profiles (
  id uuid primary key,
  display_name text not null check (length(display_name) between 1 and 40),
  bio text default 'new here'
);
alter table public.rw_profiles enable row level security;
create policy own_select on public.rw_profiles for select to authenticated using (auth.uid() = id);
create policy own_insert on public.rw_profiles for insert to authenticated with check (auth.uid() = id);
create policy own_update on public.rw_profiles for update to authenticated using (auth.uid() = id);
create policy own_delete on public.rw_profiles for delete to authenticated using (auth.uid() = id);

create table public.rw_posts (
  id serial primary key,
  author_id uuid not null references public.rw_profiles(id),
  slug text not null unique,
  title text not null,
  published boolean not null default false,
  created_at timestamptz not null default now()
);
alter table public.rw_posts enable row level security;
create policy read_published on public.rw_posts for select to anon, authenticated
  using (published or author_id = auth.uid());
create policy write_own on public.rw_posts for insert to authenticated
  with check (author_id = auth.uid());
create policy update_own on public.rw_posts for update to authenticated
  using (author_id = auth.uid());

create table public.rw_tags (name text primary key, uses int not null default 0);
insert into public.rw_profiles (id, display_name) values ('${alice}', 'Alice'), ('${bob}', 'Bob');
notify pgrst, 'reload schema';
`;

/** A name no other test uses, so each test owns the rows it writes and reads back. */
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** A write that sets up a test's rows must succeed, or the test would assert on nothing. */
async function must(write: PromiseLike<{ error: unknown }>) {
  expect((await write).error).toBeNull();
}

describe.each(databaseKinds)('REST writes and row-level security on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;
  let anon: SupabaseClient;
  let asAlice: SupabaseClient;
  let asBob: SupabaseClient;

  /** A profile of the test's own (its posts are the only ones it counts) and a client for it. */
  async function newAuthor(name: string): Promise<{ id: string; client: SupabaseClient }> {
    const id = randomUUID();
    await server.deps.db.query(
      'insert into public.rw_profiles (id, display_name) values ($1, $2)',
      [id, name],
    );
    const token = await signUserToken(server, id, { expiresIn: '10m' });
    return { id, client: testClient(server, server.anonKey, token) };
  }

  /** Tags only this test created, by name. */
  async function tags(names: string[]) {
    const { data } = await service
      .from('rw_tags')
      .select('name, uses')
      .in('name', names)
      .order('name');
    return data;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(fixture);
    service = testClient(server, server.serviceRoleKey);
    anon = testClient(server, server.anonKey);
    asAlice = testClient(
      server,
      server.anonKey,
      await signUserToken(server, alice, { expiresIn: '10m' }),
    );
    asBob = testClient(
      server,
      server.anonKey,
      await signUserToken(server, bob, { expiresIn: '10m' }),
    );
    for (let i = 0; i < 50; i++) {
      if ((await service.from('rw_tags').select('name')).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(() => server?.stop());

  it('serves the public API example: all profiles for the service role, RLS for the rest', async () => {
    const headers = (key: string) => ({ apikey: key, Authorization: `Bearer ${key}` });
    const all = await fetch(`${server.url}/rest/v1/rw_profiles?select=*`, {
      headers: headers(server.serviceRoleKey),
    });
    expect(all.status).toBe(200);
    const { rows } = await server.deps.db.query<{ id: string }>(
      'select id from public.rw_profiles',
    );
    const ids = (await all.json()).map((p: { id: string }) => p.id);
    expect(ids.sort()).toEqual(rows.map((row) => row.id).sort());
    expect(ids).toEqual(expect.arrayContaining([alice, bob]));
    const none = await fetch(`${server.url}/rest/v1/rw_profiles?select=*`, {
      headers: headers(server.anonKey),
    });
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual([]);

    const own = await asAlice.from('rw_profiles').select('id, display_name');
    expect(own.data).toEqual([{ id: alice, display_name: 'Alice' }]);
  });

  it('inserts one row and returns 201 with no body by default', async () => {
    const slug = unique('one');
    const result = await asAlice
      .from('rw_posts')
      .insert({ author_id: alice, slug, title: 'First' });
    expect(result.status).toBe(201);
    expect(result.error).toBeNull();
    expect(result.data).toBeNull();
    const stored = await service.from('rw_posts').select('author_id, title').eq('slug', slug);
    expect(stored.data).toEqual([{ author_id: alice, title: 'First' }]);
  });

  it('inserts arrays and returns the representation with .select()', async () => {
    // As in PostgREST, a key missing from one object of an array is null unless missing=default.
    const [n1, n2, a2, a3, b1] = ['n-1', 'n-2', 'a-2', 'a-3', 'b-1'].map(unique);
    const nulls = await asAlice.from('rw_posts').insert([
      { author_id: alice, slug: n1, title: 'n', published: true },
      { author_id: alice, slug: n2, title: 'n' },
    ]);
    expect(nulls.status).toBe(400);
    expect(nulls.error?.code).toBe('23502');

    const { data, status, error } = await asAlice
      .from('rw_posts')
      .insert(
        [
          { author_id: alice, slug: a2, title: 'Second', published: true },
          { author_id: alice, slug: a3, title: 'Third' },
        ],
        { defaultToNull: false },
      )
      .select('slug, title, published, author:rw_profiles(display_name)');
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual([
      { slug: a2, title: 'Second', published: true, author: { display_name: 'Alice' } },
      { slug: a3, title: 'Third', published: false, author: { display_name: 'Alice' } },
    ]);

    const single = await asBob
      .from('rw_posts')
      .insert({ author_id: bob, slug: b1, title: 'Bob post', published: true })
      .select('slug')
      .single();
    expect(single.data).toEqual({ slug: b1 });
  });

  it('fills missing columns with defaults', async () => {
    const [x, y] = [unique('x'), unique('y')];
    const result = await fetch(`${server.url}/rest/v1/rw_tags?columns="name","uses"&select=*`, {
      method: 'POST',
      headers: {
        apikey: server.serviceRoleKey,
        'content-type': 'application/json',
        prefer: 'return=representation,missing=default',
      },
      body: JSON.stringify([{ name: x, uses: 3 }, { name: y }]),
    });
    expect(result.status).toBe(201);
    expect(await result.json()).toEqual([
      { name: x, uses: 3 },
      { name: y, uses: 0 },
    ]);
  });

  it("answers return=headers-only with the new row's Location", async () => {
    const name = `w z ${randomUUID().slice(0, 8)}`;
    const response = await fetch(`${server.url}/rest/v1/rw_tags`, {
      method: 'POST',
      headers: {
        apikey: server.serviceRoleKey,
        'content-type': 'application/json',
        prefer: 'return=headers-only',
      },
      body: JSON.stringify({ name }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(
      `/rw_tags?name=eq.${name.replaceAll(' ', '%20')}`,
    );
    expect(await response.text()).toBe('');
  });

  it('upserts with merge-duplicates and ignore-duplicates', async () => {
    const [x, z, slug] = [unique('x'), unique('z'), unique('a-1')];
    await must(service.from('rw_tags').insert({ name: x, uses: 3 }));
    const merged = await service
      .from('rw_tags')
      .upsert([
        { name: x, uses: 10 },
        { name: z, uses: 1 },
      ])
      .select()
      .order('name');
    expect(merged.error).toBeNull();
    expect(merged.data).toEqual([
      { name: x, uses: 10 },
      { name: z, uses: 1 },
    ]);
    const ignored = await service
      .from('rw_tags')
      .upsert({ name: x, uses: 99 }, { onConflict: 'name', ignoreDuplicates: true })
      .select();
    expect(ignored.data).toEqual([]);
    expect(await tags([x])).toEqual([{ name: x, uses: 10 }]);

    await must(asAlice.from('rw_posts').insert({ author_id: alice, slug, title: 'First' }));
    const bySlug = await asAlice
      .from('rw_posts')
      .upsert({ author_id: alice, slug, title: 'First (edited)' }, { onConflict: 'slug' })
      .select('slug, title');
    expect(bySlug.data).toEqual([{ slug, title: 'First (edited)' }]);
    const stored = await service.from('rw_posts').select('title').eq('slug', slug);
    expect(stored.data).toEqual([{ title: 'First (edited)' }]);
  });

  it('updates and deletes with filters and the right status codes', async () => {
    const [slug, z] = [unique('a-3'), unique('z')];
    await must(asAlice.from('rw_posts').insert({ author_id: alice, slug, title: 'Third' }));
    await must(service.from('rw_tags').insert({ name: z, uses: 1 }));

    const minimal = await asAlice.from('rw_posts').update({ published: true }).eq('slug', slug);
    expect(minimal.status).toBe(204);
    expect(minimal.data).toBeNull();

    const represented = await asAlice
      .from('rw_posts')
      .update({ title: 'Third!' })
      .eq('slug', slug)
      .select('title, published');
    expect(represented.status).toBe(200);
    expect(represented.data).toEqual([{ title: 'Third!', published: true }]);

    const removed = await service.from('rw_tags').delete().eq('name', z).select();
    expect(removed.status).toBe(200);
    expect(removed.data).toEqual([{ name: z, uses: 1 }]);
    const gone = await service.from('rw_tags').delete().eq('name', z);
    expect(gone.status).toBe(204);
    expect(await tags([z])).toEqual([]);
  });

  it('rolls back a .single() write that touches more than one row', async () => {
    const [x, y] = [unique('x'), unique('y')];
    await must(
      service.from('rw_tags').insert([
        { name: x, uses: 10 },
        { name: y, uses: 0 },
      ]),
    );
    const result = await service
      .from('rw_tags')
      .update({ uses: 0 })
      .in('name', [x, y])
      .select()
      .single();
    expect(result.status).toBe(406);
    expect(result.error?.code).toBe('PGRST116');
    expect(await tags([x])).toEqual([{ name: x, uses: 10 }]);
  });

  it('refuses and rolls back an update or delete over max-affected, as PostgREST 13 does', async () => {
    const names = [unique('m'), unique('m'), unique('m')];
    await must(service.from('rw_tags').insert(names.map((name) => ({ name, uses: 1 }))));
    // supabase-js sends `Prefer: handling=strict,max-affected=N`.
    const strict = (sent: { maxAffected(rows: number): unknown }, rows: number) =>
      sent.maxAffected(rows) as PromiseLike<{ status: number; error: PostgrestError | null }>;

    const tooMany = await strict(service.from('rw_tags').update({ uses: 9 }).in('name', names), 2);
    expect(tooMany.status).toBe(400);
    expect(tooMany.error).toMatchObject({
      code: 'PGRST124',
      message: 'Query result exceeds max-affected preference constraint',
      details: 'The query affects 3 rows',
    });
    const deleteTooMany = await strict(service.from('rw_tags').delete().in('name', names), 1);
    expect(deleteTooMany.error?.code).toBe('PGRST124');
    expect(await tags(names)).toEqual([...names].sort().map((name) => ({ name, uses: 1 })));

    const within = await strict(service.from('rw_tags').update({ uses: 5 }).in('name', names), 3);
    expect(within.error).toBeNull();
    expect((await tags(names))?.map((tag) => tag.uses)).toEqual([5, 5, 5]);
  });

  it('answers unknown preferences with PGRST122 under handling=strict and ignores them otherwise', async () => {
    const rest = `${server.url}/rest/v1/rw_tags?select=name&limit=1`;
    const headers = {
      apikey: server.serviceRoleKey,
      Authorization: `Bearer ${server.serviceRoleKey}`,
    };
    const strict = await fetch(rest, {
      headers: { ...headers, Prefer: 'handling=strict, foo, tx=maybe' },
    });
    expect(strict.status).toBe(400);
    expect(await strict.json()).toEqual({
      code: 'PGRST122',
      message: 'Invalid preferences given with handling=strict',
      details: 'Invalid preferences: foo, tx=maybe',
      hint: null,
    });
    const lenient = await fetch(rest, { headers: { ...headers, Prefer: 'handling=lenient, foo' } });
    expect(lenient.status).toBe(200);
    expect(lenient.headers.get('preference-applied')).toBe('handling=lenient');
    // max-affected without handling=strict is ignored, as in PostgREST.
    const ignored = await fetch(`${server.url}/rest/v1/rw_tags?name=eq.${unique('none')}`, {
      method: 'DELETE',
      headers: { ...headers, Prefer: 'max-affected=0' },
    });
    expect(ignored.status).toBe(204);
    expect(ignored.headers.get('preference-applied')).toBeNull();
  });

  it('lets each user see and change only their own rows', async () => {
    const carol = await newAuthor('Carol');
    const dave = await newAuthor('Dave');
    const [draft, published] = [unique('c-draft'), unique('c-published')];
    const written = await carol.client.from('rw_posts').insert([
      { author_id: carol.id, slug: draft, title: 'Draft', published: false },
      { author_id: carol.id, slug: published, title: 'Out', published: true },
    ]);
    expect(written.error).toBeNull();

    const daveSees = await dave.client.from('rw_profiles').select('display_name');
    expect(daveSees.data).toEqual([{ display_name: 'Dave' }]);

    // Updating someone else's row matches nothing under RLS: no error, nothing changed.
    const sneaky = await dave.client
      .from('rw_profiles')
      .update({ display_name: 'Hacked' })
      .eq('id', carol.id)
      .select();
    expect(sneaky.data).toEqual([]);
    const carolName = await service
      .from('rw_profiles')
      .select('display_name')
      .eq('id', carol.id)
      .single();
    expect(carolName.data).toEqual({ display_name: 'Carol' });

    const daveDrafts = await dave.client.from('rw_posts').select('slug').eq('published', false);
    expect(daveDrafts.data).toEqual([]);
    const carolDrafts = await carol.client.from('rw_posts').select('slug').eq('published', false);
    expect(carolDrafts.data).toEqual([{ slug: draft }]);
  });

  it('answers RLS violations with 403 for users and 401 for anon', async () => {
    const erin = await newAuthor('Erin');
    const [p1, p2, draft] = [unique('e-1'), unique('e-2'), unique('e-draft')];
    const written = await erin.client.from('rw_posts').insert([
      { author_id: erin.id, slug: p1, title: 'one', published: true },
      { author_id: erin.id, slug: p2, title: 'two', published: true },
      { author_id: erin.id, slug: draft, title: 'draft', published: false },
    ]);
    expect(written.error).toBeNull();

    const forged = await asBob
      .from('rw_posts')
      .insert({ author_id: erin.id, slug: unique('forged'), title: 'x' });
    expect(forged.status).toBe(403);
    expect(forged.error?.code).toBe('42501');

    const anonymous = await anon
      .from('rw_posts')
      .insert({ author_id: erin.id, slug: unique('anon'), title: 'x' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.error?.code).toBe('42501');

    const anonRead = await anon.from('rw_posts').select('slug').eq('author_id', erin.id);
    expect(anonRead.data?.map((row) => row.slug).sort()).toEqual([p1, p2].sort());

    const serviceRead = await service
      .from('rw_posts')
      .select('slug', { count: 'exact', head: true })
      .eq('author_id', erin.id);
    expect(serviceRead.count).toBe(3);
  });

  it('maps constraint violations to PostgREST statuses', async () => {
    const x = unique('x');
    await must(service.from('rw_tags').insert({ name: x }));
    const duplicate = await service.from('rw_tags').insert({ name: x });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error?.code).toBe('23505');

    const orphan = await service
      .from('rw_posts')
      .insert({ author_id: randomUUID(), slug: unique('o'), title: 'o' });
    expect(orphan.status).toBe(409);
    expect(orphan.error?.code).toBe('23503');

    const missing = await service.from('rw_posts').insert({ author_id: alice, slug: unique('m') });
    expect(missing.status).toBe(400);
    expect(missing.error?.code).toBe('23502');

    const check = await service.from('rw_profiles').insert({ id: randomUUID(), display_name: '' });
    expect(check.status).toBe(400);
    expect(check.error?.code).toBe('23514');

    const badUuid = await service
      .from('rw_profiles')
      .insert({ id: 'not-a-uuid', display_name: 'x' });
    expect(badUuid.status).toBe(400);
    expect(badUuid.error?.code).toBe('22P02');
  });

  it('refuses unknown columns and hostile names in writes', async () => {
    const [x, slug] = [unique('x'), unique('kept')];
    await must(service.from('rw_tags').insert({ name: x, uses: 5 }));
    await must(service.from('rw_posts').insert({ author_id: alice, slug, title: 'kept' }));

    const unknown = await service.from('rw_tags').insert({ name: unique('q'), nope: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.error?.code).toBe('PGRST204');

    const injected = await service
      .from('rw_tags')
      .insert({ "name\") values ('x'); drop table rw_posts; --": 1 });
    expect(injected.error?.code).toBe('PGRST204');

    const conflict = await service
      .from('rw_tags')
      .upsert({ name: x, uses: 1 }, { onConflict: 'name); drop table rw_posts; --' });
    expect(conflict.status).toBe(400);

    const patch = await service.from('rw_tags').update({ 'uses = 0; --': 1 }).eq('name', x);
    expect(patch.error?.code).toBe('PGRST204');

    const stillThere = await service.from('rw_posts').select('title').eq('slug', slug);
    expect(stillThere.data).toEqual([{ title: 'kept' }]);
    expect(await tags([x])).toEqual([{ name: x, uses: 5 }]);
  });

  it('rejects malformed JSON, wrong body shapes and huge bodies', async () => {
    const [x, y] = [unique('x'), unique('y')];
    await must(service.from('rw_tags').insert([{ name: x }, { name: y }]));
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/rest/v1/rw_tags`, {
        method: 'POST',
        headers: { apikey: server.serviceRoleKey, 'content-type': 'application/json', ...headers },
        body,
      });
    const malformed = await post('{"name": ');
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).code).toBe('PGRST102');

    const scalar = await post('42');
    expect(scalar.status).toBe(400);
    expect((await scalar.json()).code).toBe('PGRST102');

    const huge = await post(JSON.stringify({ name: 'h', pad: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'PGRST413' });

    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const streamed = await fetch(`${server.url}/rest/v1/rw_tags`, {
      method: 'POST',
      headers: { apikey: server.serviceRoleKey, 'content-type': 'application/json' },
      // No Content-Length: the body arrives chunked and is cut off at the limit.
      body: new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 40) controller.enqueue(chunk);
          else controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);

    const patchArray = await fetch(`${server.url}/rest/v1/rw_tags?name=eq.${x}`, {
      method: 'PATCH',
      headers: { apikey: server.serviceRoleKey, 'content-type': 'application/json' },
      body: '[{"uses": 1}]',
    });
    expect(patchArray.status).toBe(400);

    const limitedDelete = await fetch(`${server.url}/rest/v1/rw_tags?limit=1`, {
      method: 'DELETE',
      headers: { apikey: server.serviceRoleKey },
    });
    expect(limitedDelete.status).toBe(400);
    expect(await tags([x, y])).toEqual([
      { name: x, uses: 0 },
      { name: y, uses: 0 },
    ]);
  });

  it('refuses writes to unknown relations', async () => {
    const result = await service.from('rw_nowhere').insert({ a: 1 });
    expect(result.status).toBe(404);
    expect(result.error?.code).toBe('PGRST205');
  });
});
