/**
 * Audit log benchmark (issue 16, decision 0401), on PGlite and on a throwaway PostgreSQL:
 *
 * 1. write overhead of the audit trigger: one 10,000-row INSERT into a notes-shaped table with
 *    and without `audit.attach` (best of three each, and the ratio);
 * 2. audit log query p99 as a compliance officer (row-level security on) with the console's
 *    filters, over an audit log seeded with ROWS entries spread over a year and 20
 *    organizations.
 *
 *   node --import tsx bench/audit-bench.ts [postgres-rows] [pglite-rows]
 */
import { randomUUID } from 'node:crypto';
import { migrate } from '../src/server/db/migrate';
import { openPglite } from '../src/server/db/pglite';
import { openPostgres } from '../src/server/db/postgres';
import type { Database } from '../src/server/db/types';
import { startPostgresCluster } from '../tests/support/postgres-cluster';

const POSTGRES_ROWS = Number(process.argv[2] ?? 1_000_000);
const PGLITE_ROWS = Number(process.argv[3] ?? 200_000);
const RUNS = 40;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function writeOverhead(db: Database) {
  for (const name of ['bench_plain', 'bench_audited']) {
    await db.exec(`create table public.${name} (
      id uuid primary key default gen_random_uuid(), user_id uuid not null,
      title text not null, body text not null, created_at timestamptz not null default now())`);
  }
  await db.query("select audit.attach('public.bench_audited', 'benchmark', 'contract')");
  const user = randomUUID();
  const insert = (table: string) =>
    db.query(
      `insert into public.${table} (user_id, title, body)
       select $1, 'note ' || i, repeat('lorem ipsum ', 20) from generate_series(1, 10000) i`,
      [user],
    );
  const best: Record<string, number> = {};
  for (const table of ['bench_plain', 'bench_audited']) {
    const times = [];
    for (let i = 0; i < 3; i++) {
      times.push(await timed(() => insert(table)));
      await db.exec(`delete from public.${table}`);
    }
    best[table] = Math.min(...times);
  }
  return { plain: best.bench_plain!, audited: best.bench_audited! };
}

async function seedAuditLog(db: Database, rows: number) {
  const { rows: orgs } = await db.query<{ id: string }>(
    `insert into public.organizations (name, slug)
     select 'Bench ' || i, 'bench-' || i from generate_series(1, 20) i returning id`,
  );
  const officer = randomUUID();
  await db.query(
    `insert into auth.users (id, email) values ($1::uuid, 'officer-' || $1::text || '@bench.example')`,
    [officer],
  );
  await db.query(
    `insert into public.memberships (user_id, organization_id, role) values ($1, $2, 'compliance_officer')`,
    [officer, orgs[0]!.id],
  );
  // Ids after the entries the migrations and the write benchmark already made.
  const { rows: top } = await db.query<{ max: string }>(
    'select coalesce(max(id), 0)::text as max from public.audit_log',
  );
  const base = Number(top[0]!.max);
  const batch = 100_000;
  for (let done = 0; done < rows; done += batch) {
    await db.query(
      `insert into public.audit_log
         (id, "timestamp", user_id, action, table_name, record_id, changed_fields, purpose,
          legal_basis, organization_id, subject_user_id, content_hash, prev_hash, row_hash)
       overriding system value select $5::bigint + g, now() - make_interval(secs => ($2::bigint - g) * (31536000.0 / $2::bigint)),
              ('00000000-0000-4000-8000-' || lpad((g % 5000)::text, 12, '0'))::uuid,
              (array['insert', 'update', 'delete', 'auth.sign_in', 'data_room.document_view'])[1 + g % 5],
              (array['public.notes', 'public.enrollments', 'public.lesson_progress', 'auth.users'])[1 + g % 4],
              md5(g::text), '{body}', 'providing the learning service', 'contract',
              ($3::uuid[])[1 + g % 20], null, '\\x00', '\\x00', '\\x00'
         from generate_series($1::bigint + 1, least($1::bigint + $4, $2::bigint)) g`,
      [done, rows, orgs.map((o) => o.id), batch, base],
    );
  }
  await db.query(
    "select setval(pg_get_serial_sequence('public.audit_log', 'id'), (select max(id) from public.audit_log))",
  );
  await db.exec('analyze public.audit_log');
  return { officer, org: orgs[0]!.id };
}

async function queryP99(db: Database, officer: string, org: string) {
  const claims = { role: 'authenticated' as const, sub: officer };
  const columns =
    'id, "timestamp", user_id, action, table_name, record_id, changed_fields, purpose, legal_basis';
  const someUser = '00000000-0000-4000-8000-000000000020';
  const queries: Record<string, [string, unknown[]]> = {
    'newest page': [
      `select ${columns} from public.audit_log where organization_id = $1 order by id desc limit 50`,
      [org],
    ],
    'action + table + last 30 days': [
      `select ${columns} from public.audit_log
        where organization_id = $1 and action = 'insert' and table_name = 'public.notes'
          and "timestamp" >= now() - interval '30 days' order by id desc limit 50`,
      [org],
    ],
    'one person': [
      `select ${columns} from public.audit_log where organization_id = $1 and user_id = $2
        order by id desc limit 50`,
      [org, someUser],
    ],
    'record id search': [
      `select ${columns} from public.audit_log where organization_id = $1 and record_id = md5('12340')
        order by id desc limit 50`,
      [org],
    ],
    'access by day, 30 days': [
      `select date_trunc('day', "timestamp") as day, table_name, count(*)::int
         from public.audit_log
        where organization_id = $1 and "timestamp" >= now() - interval '30 days'
        group by 1, 2 order by 1`,
      [org],
    ],
  };
  const result: Record<string, { p50: number; p99: number; rows: number }> = {};
  for (const [name, [sql, params]] of Object.entries(queries)) {
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < RUNS; i++) {
      times.push(
        await timed(async () => {
          count = (await db.queryAsRole(claims, sql, params)).rows.length;
        }),
      );
    }
    result[name] = { p50: percentile(times, 50), p99: percentile(times, 99), rows: count };
  }
  return result;
}

async function run(kind: 'pglite' | 'postgres', db: Database, rows: number) {
  await migrate(db);
  const write = await writeOverhead(db);
  console.log(
    `${kind}: 10,000-row insert ${write.plain.toFixed(0)} ms plain, ${write.audited.toFixed(0)} ms audited, ratio ${(write.audited / write.plain).toFixed(2)}`,
  );
  const seedStart = performance.now();
  const { officer, org } = await seedAuditLog(db, rows);
  console.log(
    `${kind}: seeded ${rows.toLocaleString('en')} audit entries in ${((performance.now() - seedStart) / 1000).toFixed(0)} s`,
  );
  for (const [name, m] of Object.entries(await queryP99(db, officer, org))) {
    console.log(
      `${kind}: ${name.padEnd(30)} p50 ${m.p50.toFixed(1).padStart(7)} ms  p99 ${m.p99.toFixed(1).padStart(7)} ms  (${m.rows} rows)`,
    );
  }
}

const only = process.env.BENCH_ONLY;
if (only !== 'postgres') {
  const db = await openPglite('memory://');
  try {
    await run('pglite', db, PGLITE_ROWS);
  } finally {
    await db.close();
  }
}
if (only !== 'pglite') {
  const cluster = await startPostgresCluster();
  try {
    const db = await openPostgres(await cluster.createDatabase(`bench_audit_${Date.now()}`), 4);
    try {
      await run('postgres', db, POSTGRES_ROWS);
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
}
