import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/types';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

/** `queryAsRole` is one pipelined call on both databases: these are its promises. */
describe.each(databaseKinds)('database adapter queryAsRole on %s', (kind) => {
  let server: TestServer;
  let db: Database;
  const alice = randomUUID();
  const bob = randomUUID();
  const as = (sub: string) => ({ role: 'authenticated' as const, sub });

  beforeAll(async () => {
    server = await startTestServer(kind);
    db = server.deps.db;
    await db.exec(`
      create table public.qar_notes (owner uuid not null, body text not null);
      alter table public.qar_notes enable row level security;
      create policy qar_own on public.qar_notes for all to authenticated
        using (owner = auth.uid()) with check (owner = auth.uid());
      grant select, insert on public.qar_notes to authenticated;
    `);
    await db.query('insert into public.qar_notes values ($1, $2), ($3, $4)', [
      alice,
      'alice note',
      bob,
      'bob note',
    ]);
  });
  afterAll(() => server?.stop());

  it("runs the statement as the claims' role with the claims set", async () => {
    const { rows } = await db.queryAsRole<{ who: string; uid: string; sub: string }>(
      as(alice),
      `select current_user as who, auth.uid()::text as uid,
              current_setting('request.jwt.claim.sub', true) as sub`,
    );
    expect(rows).toEqual([{ who: 'authenticated', uid: alice, sub: alice }]);
  });

  it('lets row-level security decide, with bound parameters of several types', async () => {
    const { rows } = await db.queryAsRole<{ body: string }>(
      as(bob),
      'select body from public.qar_notes where body like $1 and $2::int > 0 order by body',
      ['%note', 3],
    );
    expect(rows).toEqual([{ body: 'bob note' }]);
    const inserted = await db.queryAsRole(
      as(bob),
      'insert into public.qar_notes values ($1, $2) returning body',
      [bob, 'second'],
    );
    expect(inserted.rowCount).toBe(1);
  });

  it('binds dates, booleans, arrays, objects and nulls the same way on both databases', async () => {
    const { rows } = await db.queryAsRole<Record<string, unknown>>(
      as(alice),
      `select $1::timestamptz = '2026-01-02T03:04:05Z'::timestamptz as date_ok,
              $2::boolean as flag,
              'b' = any($3::text[]) as in_list,
              $4::jsonb ->> 'name' as name,
              $5::text is null as missing`,
      [new Date('2026-01-02T03:04:05Z'), true, ['a', 'b,c', 'b'], { name: 'Ada' }, null],
    );
    expect(rows).toEqual([
      { date_ok: true, flag: true, in_list: true, name: 'Ada', missing: true },
    ]);
  });

  it('leaves the session as it found it: login role, no claims', async () => {
    await db.queryAsRole(as(alice), 'select 1');
    const { rows } = await db.query<{ who: string; claims: string | null }>(
      `select current_user as who, nullif(current_setting('request.jwt.claims', true), '') as claims`,
    );
    expect(rows[0]?.who).not.toBe('authenticated');
    expect(rows[0]?.claims).toBeNull();
  });

  it('throws the database error, rolls everything back and stays usable', async () => {
    await expect(
      db.queryAsRole(as(alice), 'insert into public.qar_notes values ($1, $2)', [bob, 'forged']),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(db.queryAsRole(as(alice), 'select 1 / 0')).rejects.toMatchObject({
      code: '22012',
    });
    const { rows } = await db.query<{ n: number }>(
      "select count(*)::int as n from public.qar_notes where body = 'forged'",
    );
    expect(rows).toEqual([{ n: 0 }]);
    expect((await db.queryAsRole(as(alice), 'select 2 as two')).rows).toEqual([{ two: 2 }]);
  });

  it("never runs inside another caller's open transaction", async () => {
    let seen: unknown;
    await db
      .transaction(async (tx) => {
        await tx.query('insert into public.qar_notes values ($1, $2)', [alice, 'uncommitted']);
        // Issued while the transaction is open; it must not see (or join) it.
        const during = db.queryAsRole<{ n: number }>(
          as(alice),
          "select count(*)::int as n from public.qar_notes where body = 'uncommitted'",
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = during;
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await (seen as Promise<{ rows: unknown[] }>)).rows).toEqual([{ n: 0 }]);
  });

  it('refuses a role that is not one of the three', async () => {
    await expect(db.queryAsRole({ role: 'postgres' } as never, 'select 1')).rejects.toThrow(
      /unknown database role/,
    );
  });
});
