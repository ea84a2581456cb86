/**
 * What the audit log costs a write (issue 16, decisions 0401 and 0424), on PGlite and on a
 * throwaway PostgreSQL, for a notes-shaped table with and without `audit.attach`:
 *
 * 1. single-row writes: ROWS INSERTs, each its own transaction, then as many UPDATEs and DELETEs
 *    (per-row cost, plain and audited);
 * 2. bulk writes: one 10,000-row INSERT, UPDATE and DELETE (best of three; the ratio is the
 *    issue's "write overhead on a 10,000-row insert");
 * 3. concurrent writers (PostgreSQL only: PGlite has one connection): W connections each
 *    running transactions of one audited INSERT followed by HOLD_MS of other work before the
 *    commit, for SECONDS; rows committed per second. Under a chain lock held until commit the
 *    writers queue behind each other's other work; without it they do not.
 * 4. where an audited row's time goes on PostgreSQL (`track_functions`: self time per audit
 *    function over the single-row inserts).
 *
 * The PostgreSQL cluster runs with fsync off (tests/support/postgres-cluster.ts), so commits
 * cost no disk flush: a real server's flush would add to the time the chain lock is held.
 *
 *   node --import tsx bench/audit-write-bench.ts [rows] [seconds]
 *   BENCH_ONLY=pglite|postgres limits it to one database.
 */
import { migrate } from '../src/server/db/migrate';
import { openPglite } from '../src/server/db/pglite';
import { openPostgres } from '../src/server/db/postgres';
import type { Database } from '../src/server/db/types';
import { startPostgresCluster } from '../tests/support/postgres-cluster';

const ROWS = Number(process.argv[2] ?? 1000);
const SECONDS = Number(process.argv[3] ?? 3);
const BULK = 10_000;
const HOLD_MS = 2;
const WRITERS = [1, 4, 8];

const user = '00000000-0000-4000-8000-00000000be01';

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Two notes-shaped tables, one audited; the writer is a member of an organization. */
async function setUp(db: Database) {
  await db.query(`insert into auth.users (id, email) values ($1, 'writer@bench.example')`, [user]);
  const { rows } = await db.query<{ id: string }>(
    `insert into public.organizations (name, slug) values ('Bench', 'bench-writes') returning id`,
  );
  await db.query(
    `insert into public.memberships (user_id, organization_id, role) values ($1, $2, 'learner')`,
    [user, rows[0]!.id],
  );
  for (const name of ['bench_plain', 'bench_audited']) {
    await db.exec(`create table public.${name} (
      id uuid primary key default gen_random_uuid(), user_id uuid not null,
      title text not null, body text not null, created_at timestamptz not null default now())`);
  }
  await db.query("select audit.attach('public.bench_audited', 'benchmark', 'contract')");
}

async function singleRows(db: Database, table: string) {
  const ids: string[] = [];
  const insert = await timed(async () => {
    for (let i = 0; i < ROWS; i++) {
      const { rows } = await db.query<{ id: string }>(
        `insert into public.${table} (user_id, title, body) values ($1, $2, repeat('lorem ipsum ', 20)) returning id`,
        [user, `note ${i}`],
      );
      ids.push(rows[0]!.id);
    }
  });
  const update = await timed(async () => {
    for (const id of ids) {
      await db.query(`update public.${table} set title = title || ' (edited)' where id = $1`, [id]);
    }
  });
  const remove = await timed(async () => {
    for (const id of ids) await db.query(`delete from public.${table} where id = $1`, [id]);
  });
  return { insert: insert / ROWS, update: update / ROWS, delete: remove / ROWS };
}

async function bulk(db: Database, table: string) {
  const best = { insert: Infinity, update: Infinity, delete: Infinity };
  for (let run = 0; run < 3; run++) {
    const insert = await timed(() =>
      db.query(
        `insert into public.${table} (user_id, title, body)
         select $1, 'note ' || i, repeat('lorem ipsum ', 20) from generate_series(1, ${BULK}) i`,
        [user],
      ),
    );
    const update = await timed(() =>
      db.query(`update public.${table} set title = title || ' (edited)'`),
    );
    const remove = await timed(() => db.query(`delete from public.${table}`));
    best.insert = Math.min(best.insert, insert);
    best.update = Math.min(best.update, update);
    best.delete = Math.min(best.delete, remove);
  }
  return best;
}

async function concurrent(db: Database, table: string, writers: number) {
  const stopAt = performance.now() + SECONDS * 1000;
  let committed = 0;
  // How many writers wait for the chain lock at a time, sampled on the pool's spare connection.
  const waiting: number[] = [];
  const sampler = (async () => {
    while (performance.now() < stopAt) {
      const { rows } = await db.query<{ n: number }>(
        "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted",
      );
      waiting.push(rows[0]!.n);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < stopAt) {
        await db.transaction(async (tx) => {
          await tx.query(
            `insert into public.${table} (user_id, title, body) values ($1, 'concurrent', 'body')`,
            [user],
          );
          // The rest of the request's work, after its audited write and before its commit.
          await tx.query('select pg_sleep($1)', [HOLD_MS / 1000]);
        });
        committed += 1;
      }
    }),
  );
  await sampler;
  await db.query(`delete from public.${table}`);
  const meanWaiting = waiting.reduce((sum, n) => sum + n, 0) / Math.max(1, waiting.length);
  return { perSecond: committed / SECONDS, meanWaiting };
}

async function timeByFunction(db: Database) {
  await db.query('select pg_stat_reset()');
  // One transaction, so one connection: the setting and the statistics are per backend.
  await db.transaction(async (tx) => {
    await tx.query("set local track_functions = 'all'");
    for (let i = 0; i < ROWS; i++) {
      await tx.query(
        `insert into public.bench_audited (user_id, title, body) values ($1, 'profiled', 'body')`,
        [user],
      );
    }
    await tx.query('select pg_stat_force_next_flush()');
  });
  await db.query(`delete from public.bench_audited`);
  const { rows } = await db.query<{ name: string; calls: string; self_ms: number }>(
    `select schemaname || '.' || funcname as name, calls::text, self_time as self_ms
       from pg_stat_user_functions where schemaname in ('audit', 'public', 'auth')
      order by self_time desc limit 8`,
  );
  return rows;
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

async function run(kind: 'pglite' | 'postgres', db: Database) {
  await migrate(db);
  await setUp(db);
  const { rows: entries } = await db.query<{ n: string }>(
    'select count(*)::text as n from public.audit_log',
  );
  console.log(`${kind}: audit log holds ${entries[0]!.n} entries after set-up`);
  for (const kindOfWrite of ['single', 'bulk'] as const) {
    const plain =
      kindOfWrite === 'single'
        ? await singleRows(db, 'bench_plain')
        : await bulk(db, 'bench_plain');
    const audited =
      kindOfWrite === 'single'
        ? await singleRows(db, 'bench_audited')
        : await bulk(db, 'bench_audited');
    for (const op of ['insert', 'update', 'delete'] as const) {
      const perRow = (value: number) => (kindOfWrite === 'single' ? value : value / BULK);
      console.log(
        `${kind}: ${kindOfWrite === 'single' ? `single-row ${op}` : `${BULK}-row ${op}`} `.padEnd(
          28,
        ) +
          `plain ${ms(perRow(plain[op]))}/row, audited ${ms(perRow(audited[op]))}/row, ` +
          `+${ms(perRow(audited[op] - plain[op]))}/row, ratio ${(audited[op] / plain[op]).toFixed(2)}`,
      );
    }
  }
  if (kind === 'postgres') {
    for (const writers of WRITERS) {
      const plain = await concurrent(db, 'bench_plain', writers);
      const audited = await concurrent(db, 'bench_audited', writers);
      console.log(
        `${kind}: ${writers} writer(s), ${HOLD_MS} ms of work after the write: ` +
          `plain ${plain.perSecond.toFixed(0)} tx/s, audited ${audited.perSecond.toFixed(0)} tx/s, ` +
          `${audited.meanWaiting.toFixed(2)} writers waiting for the chain lock on average`,
      );
    }
    for (const row of await timeByFunction(db)) {
      console.log(
        `${kind}:   ${row.name.padEnd(36)} ${row.calls.padStart(6)} calls, self ${ms(row.self_ms / ROWS)}/row`,
      );
    }
  }
  const { rows: check } = await db.query<{ ok: boolean; checked: string }>(
    'select ok, checked::text from public.verify_audit_chain()',
  );
  console.log(
    `${kind}: chain ${check[0]!.ok ? 'verifies' : 'BROKEN'} (${check[0]!.checked} entries)`,
  );
}

const only = process.env.BENCH_ONLY;
if (only !== 'postgres') {
  const db = await openPglite('memory://');
  try {
    await run('pglite', db);
  } finally {
    await db.close();
  }
}
if (only !== 'pglite') {
  const cluster = await startPostgresCluster();
  try {
    const db = await openPostgres(
      await cluster.createDatabase(`bench_audit_write_${Date.now()}`),
      Math.max(...WRITERS) + 2,
    );
    try {
      await run('postgres', db);
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
}
