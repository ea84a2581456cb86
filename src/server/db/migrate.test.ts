import { afterEach, describe, expect, it } from 'vitest';
import { openPglite } from './pglite';
import { migrate, MigrationChecksumError, type Migration } from './migrate';
import type { Database } from './types';

function m(id: string, sql: string): Migration {
  return { id, sql, checksum: `sum-${sql.length}-${sql}` };
}

// Each test starts an embedded database: seconds on a loaded machine, past the 5 s default.
describe('migration runner', { timeout: 30_000 }, () => {
  let db: Database | undefined;
  afterEach(() => db?.close());

  it('applies pending migrations once, in order', async () => {
    db = await openPglite('memory://');
    const set = [
      m('app/0001_a.sql', 'create table a (id int);'),
      m('app/0002_b.sql', 'insert into a values (1);'),
    ];
    expect(await migrate(db, set)).toEqual(['app/0001_a.sql', 'app/0002_b.sql']);
    expect(await migrate(db, set)).toEqual([]);
    expect((await db.query('select count(*)::int as n from a')).rows[0]).toEqual({ n: 1 });
  });

  it('refuses to start when an applied migration changed', async () => {
    db = await openPglite('memory://');
    await migrate(db, [m('app/0001_a.sql', 'create table a (id int);')]);
    await expect(
      migrate(db, [m('app/0001_a.sql', 'create table a (id bigint);')]),
    ).rejects.toBeInstanceOf(MigrationChecksumError);
  });

  it('rolls back every migration of a failed run', async () => {
    db = await openPglite('memory://');
    await expect(
      migrate(db, [
        m('app/0001_a.sql', 'create table a (id int);'),
        m('app/0002_bad.sql', 'select nope;'),
      ]),
    ).rejects.toThrow(/0002_bad\.sql failed/);
    const { rows } = await db.query(`select to_regclass('public.a') as t`);
    expect(rows[0]).toEqual({ t: null });
  });
});
