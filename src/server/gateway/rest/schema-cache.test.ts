import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../db/pglite';
import type { Database } from '../../db/types';
import { createLogger } from '../../logger';
import { createSchemaCache } from './schema-cache';

describe('schema cache', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPglite('memory://');
    await db.exec(`
      create table public.sc_parent (id int primary key, name text not null default 'x');
      create table public.sc_child (id int primary key, parent_id int references public.sc_parent(id));
      create view public.sc_view as select id from public.sc_parent;
      create function public.sc_fn(a int, b text default 'z') returns setof public.sc_parent
        language sql as 'select * from public.sc_parent';
      create function public.sc_pairs(n int) returns table (i int, j int) language sql as 'select 1, 2';
    `);
    // Opening PGlite takes seconds on a busy machine.
  }, 60_000);
  afterAll(() => db.close());

  it('reads relations, keys and functions from the catalog', async () => {
    const cache = createSchemaCache(db, createLogger('silent'));
    const schema = await cache.current();
    const parent = schema.relations.get('sc_parent');
    expect(parent?.primaryKey).toEqual(['id']);
    expect(parent?.columns.get('name')).toEqual({
      name: 'name',
      type: 'text',
      notNull: true,
      hasDefault: true,
    });
    expect(schema.relations.get('sc_view')?.kind).toBe('view');
    expect(schema.foreignKeys).toContainEqual({
      name: 'sc_child_parent_id_fkey',
      fromRelation: 'sc_child',
      fromColumns: ['parent_id'],
      toRelation: 'sc_parent',
      toColumns: ['id'],
    });
    const fn = schema.functions.get('sc_fn')?.[0];
    expect(fn).toMatchObject({
      inputs: [
        { name: 'a', type: 'integer', mode: 'i' },
        { name: 'b', type: 'text', mode: 'i' },
      ],
      defaults: 1,
      returnsSet: true,
      returnKind: 'composite',
      returnRelation: 'sc_parent',
    });
    expect(schema.functions.get('sc_pairs')?.[0]?.outputs.map((c) => c.name)).toEqual(['i', 'j']);
  });

  it("reloads on NOTIFY pgrst, 'reload schema'", async () => {
    const cache = createSchemaCache(db, createLogger('silent'));
    expect((await cache.current()).relations.has('sc_late')).toBe(false);
    await db.exec(`create table public.sc_late (id int); notify pgrst, 'reload schema';`);
    for (let i = 0; i < 50 && !(await cache.current()).relations.has('sc_late'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await cache.current()).relations.has('sc_late')).toBe(true);
  });

  it('rereads after a miss at most once a second', async () => {
    const cache = createSchemaCache(db, createLogger('silent'));
    await cache.current();
    expect(await cache.refreshAfterMiss()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 1050));
    await db.exec('create table public.sc_quiet (id int)');
    expect((await cache.refreshAfterMiss())?.relations.has('sc_quiet')).toBe(true);
  });

  it('keeps the newest catalog when an older read finishes last', async () => {
    // The first load's last catalog query answers only after a second load has finished.
    let calls = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: Database = {
      ...db,
      query: async (sql, params) => {
        calls += 1;
        const result = await db.query(sql, params);
        if (calls === 3) await held;
        return result as never;
      },
    };
    const cache = createSchemaCache(slow, createLogger('silent'));
    const first = cache.reload();
    while (calls < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await db.exec('create table public.sc_newer (id int)');
    expect((await cache.reload()).relations.has('sc_newer')).toBe(true);
    release();
    expect((await first).relations.has('sc_newer')).toBe(true);
    expect((await cache.current()).relations.has('sc_newer')).toBe(true);
  });
});
