import { randomUUID } from 'node:crypto';
import { type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

type ListV2Options = Parameters<ReturnType<SupabaseClient['storage']['from']>['listV2']>[0];

/** Every file key, in bytewise order, as the bucket holds them. */
const KEYS = [
  'B.txt',
  'a.txt',
  'b.txt',
  'b/1.txt',
  'b/2.txt',
  'c/d/3.txt',
  'c/e.txt',
  'pct/x.txt',
  'underXx/z.txt',
  'under_x/y.txt',
];

describe.each(databaseKinds)('storage list-v2 on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;
  const bucket = `list-${randomUUID().slice(0, 8)}`;

  /** Every page of a listing, following `nextCursor` until `hasNext` is false. */
  async function allPages(client: SupabaseClient, options: ListV2Options) {
    const pages = [];
    let cursor: string | undefined;
    for (;;) {
      const { data, error } = await client.storage.from(bucket).listV2({ ...options, cursor });
      if (error) throw error;
      pages.push(data);
      if (!data.hasNext) {
        expect(data.nextCursor).toBeUndefined();
        return pages;
      }
      expect(data.nextCursor).toEqual(expect.any(String));
      cursor = data.nextCursor;
    }
  }

  const names = (pages: Awaited<ReturnType<typeof allPages>>, part: 'folders' | 'objects') =>
    pages.flatMap((page) => page[part].map((entry) => entry.name));

  beforeAll(async () => {
    server = await startTestServer(kind);
    service = testClient(server, server.serviceRoleKey);
    const created = await service.storage.createBucket(bucket);
    if (created.error) throw created.error;
    for (const key of KEYS) {
      const { error } = await service.storage.from(bucket).upload(key, `bytes of ${key}`);
      if (error) throw error;
    }
    // Known creation and update times, so time-sorted pages have one right answer.
    await server.deps.db.query(
      `update storage.objects o
          set created_at = timestamptz '2026-01-01' + k.n * interval '1 hour',
              updated_at = timestamptz '2026-02-01' - k.n * interval '1 hour'
         from unnest($2::text[]) with ordinality as k(name, n)
        where o.bucket_id = $1 and o.name = k.name`,
      [bucket, ['c/e.txt', 'a.txt', 'b/2.txt', 'B.txt', 'c/d/3.txt', 'b.txt', 'b/1.txt']],
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('pages through every key in bytewise order, with full keys and their metadata', async () => {
    const pages = await allPages(service, { limit: 3 });
    expect(pages).toHaveLength(Math.ceil(KEYS.length / 3));
    expect(names(pages, 'objects')).toEqual(KEYS);
    expect(names(pages, 'folders')).toEqual([]);
    const first = pages[0]!.objects[0]!;
    expect(first).toMatchObject({
      name: 'B.txt',
      id: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      metadata: expect.objectContaining({ size: 'bytes of B.txt'.length }),
    });
    const reversed = await allPages(service, {
      limit: 4,
      sortBy: { column: 'name', order: 'desc' },
    });
    expect(names(reversed, 'objects')).toEqual([...KEYS].reverse());
  });

  it('answers one page when everything fits, and the default page holds up to 1000', async () => {
    const { data } = await service.storage.from(bucket).listV2();
    expect(data).toMatchObject({ hasNext: false, folders: [] });
    expect(data!.nextCursor).toBeUndefined();
    expect(data!.objects.map((o) => o.name)).toEqual(KEYS);
  });

  it('groups keys into folders with the delimiter, paging folders and files as one sequence', async () => {
    const pages = await allPages(service, { with_delimiter: true, limit: 2 });
    // B.txt, a.txt, b.txt, then b/, c/, pct/, underXx/, under_x/: eight entries, four pages.
    expect(pages).toHaveLength(4);
    expect(names(pages, 'objects')).toEqual(['B.txt', 'a.txt', 'b.txt']);
    expect(names(pages, 'folders')).toEqual(['b/', 'c/', 'pct/', 'underXx/', 'under_x/']);
    expect(pages.flatMap((page) => page.folders)[0]).toEqual({ key: 'b', name: 'b/' });

    const inC = await service.storage.from(bucket).listV2({ prefix: 'c/', with_delimiter: true });
    expect(inC.data).toMatchObject({
      hasNext: false,
      folders: [{ key: 'd', name: 'c/d/' }],
      objects: [expect.objectContaining({ key: 'e.txt', name: 'c/e.txt' })],
    });
  });

  it('treats the prefix as a plain, case-sensitive string prefix', async () => {
    const list = (options: ListV2Options) => service.storage.from(bucket).listV2(options);
    const partial = await list({ prefix: 'b', with_delimiter: true });
    expect(partial.data!.folders.map((f) => f.name)).toEqual(['b/']);
    expect(partial.data!.objects.map((o) => o.name)).toEqual(['b.txt']);

    const flat = await list({ prefix: 'b' });
    expect(flat.data!.objects.map((o) => o.name)).toEqual(['b.txt', 'b/1.txt', 'b/2.txt']);

    // `%` and `_` are characters of the key, not wildcards.
    expect((await list({ prefix: '%' })).data!.objects).toEqual([]);
    const underscore = await list({ prefix: 'under_' });
    expect(underscore.data!.objects.map((o) => o.name)).toEqual(['under_x/y.txt']);
    expect((await list({ prefix: 'nothing/' })).data).toEqual({
      hasNext: false,
      folders: [],
      objects: [],
    });
  });

  it('sorts by creation or update time across pages, folders dated by their oldest file', async () => {
    const created = await allPages(service, {
      prefix: 'b',
      with_delimiter: true,
      limit: 1,
      sortBy: { column: 'created_at', order: 'asc' },
    });
    // b/ is as old as b/2.txt (hour 3), older than b.txt (hour 6).
    expect(created.map((page) => [...page.folders, ...page.objects][0]!.name)).toEqual([
      'b/',
      'b.txt',
    ]);

    const updated = await allPages(service, {
      limit: 2,
      sortBy: { column: 'updated_at', order: 'desc' },
    });
    // Update times fall as the list goes on; the keys not dated above were updated today.
    const updatedOrder = names(updated, 'objects');
    expect(updatedOrder.slice(-7)).toEqual([
      'c/e.txt',
      'a.txt',
      'b/2.txt',
      'B.txt',
      'c/d/3.txt',
      'b.txt',
      'b/1.txt',
    ]);
    expect(new Set(updatedOrder)).toEqual(new Set(KEYS));
  });

  it('lists only what row-level security lets the caller see', async () => {
    const shared = `shared-${randomUUID().slice(0, 8)}`;
    await server.deps.db.exec(`
      create policy "list-v2 own files" on storage.objects for select to authenticated
        using (bucket_id = '${shared}' and owner = auth.uid());
      create policy "list-v2 own uploads" on storage.objects for insert to authenticated
        with check (bucket_id = '${shared}' and owner = auth.uid());
    `);
    expect((await service.storage.createBucket(shared)).error).toBeNull();
    const [alice, bob] = await Promise.all(
      [randomUUID(), randomUUID()].map(async (id) =>
        testClient(server, server.anonKey, await signUserToken(server, id)),
      ),
    );
    for (const key of ['mine/1.txt', 'mine/2.txt', 'top.txt'])
      expect((await alice!.storage.from(shared).upload(key, 'a')).error).toBeNull();
    for (const key of ['theirs/1.txt', 'zz.txt'])
      expect((await bob!.storage.from(shared).upload(key, 'b')).error).toBeNull();

    const seen = await alice!.storage.from(shared).listV2({ with_delimiter: true, limit: 1 });
    expect(seen.error).toBeNull();
    const pages = [seen.data!];
    while (pages.at(-1)!.hasNext) {
      const next = await alice!.storage
        .from(shared)
        .listV2({ with_delimiter: true, limit: 1, cursor: pages.at(-1)!.nextCursor });
      pages.push(next.data!);
    }
    expect(pages.flatMap((p) => p.folders.map((f) => f.name))).toEqual(['mine/']);
    expect(pages.flatMap((p) => p.objects.map((o) => o.name))).toEqual(['top.txt']);

    const anon = testClient(server, server.anonKey);
    expect((await anon.storage.from(shared).listV2()).data).toMatchObject({ objects: [] });
  });

  it('refuses a cursor it did not issue, and bad options, with a 400 saying what was wrong', async () => {
    const list = (options: ListV2Options) => service.storage.from(bucket).listV2(options);
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    for (const cursor of [
      'not a cursor!',
      b64('hello'),
      b64('x:1'),
      b64('l:a.txt\nc:size'),
      b64('l:a.txt\nc:created_at\na:yesterday'),
      b64('l:a.txt\no:sideways'),
    ]) {
      const { data, error } = await list({ cursor });
      expect(data).toBeNull();
      expect(error).toMatchObject({ status: 400, statusCode: '400', code: 'InvalidParameter' });
      expect(error).toMatchObject({
        message: expect.stringMatching(/^Invalid Parameter continuation token: /),
      });
    }

    const zero = await list({ limit: 0 });
    expect(zero.error).toMatchObject({ status: 400, message: expect.stringContaining('limit') });
    const badSort = await list({ sortBy: { column: 'size' as 'name' } });
    expect(badSort.error).toMatchObject({
      status: 400,
      message: expect.stringContaining('column'),
    });
  });

  it('continues a page from a cursor whatever sort the next request names', async () => {
    const first = await service.storage
      .from(bucket)
      .listV2({ limit: 2, sortBy: { column: 'name', order: 'desc' } });
    const second = await service.storage.from(bucket).listV2({
      limit: 2,
      cursor: first.data!.nextCursor,
      sortBy: { column: 'name', order: 'asc' },
    });
    expect((first.data as { nextCursorKey?: string }).nextCursorKey).toBe('underXx/z.txt');
    expect(second.data!.objects.map((o) => o.name)).toEqual(['pct/x.txt', 'c/e.txt']);
  });
});
