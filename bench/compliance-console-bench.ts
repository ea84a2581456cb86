/**
 * The compliance officer's audit-log searches over a big log (issue 16: p99 < 200 ms over
 * 10,000,000 entries with the console's filters), through the real gateway and the console's
 * own query code (src/web/features/compliance/api/audit-log.ts), on PostgreSQL and, smaller,
 * on PGlite.
 *
 * The log is seeded in SQL (generate_series, indexes dropped and rebuilt as the learning bench
 * does): ROWS entries over the last year, 20 organizations, 5,000 people, actions and tables
 * in skewed proportions (rare ones such as `hipaa.view` and `public.iep_documents` included,
 * since a rare filter value is the slow case for a newest-first page), unique record ids. The
 * seeded rows carry no real hashes: this bench reads, it does not verify the chain.
 *
 * Each case is one console request (a page of 51 newest-first, or the access patterns); RUNS
 * runs after one warm-up, p50/p95/p99 printed. BENCH_EXPLAIN=1 also prints the plan of the
 * SQL each case amounts to, run as the officer.
 *
 *   node --expose-gc --import tsx bench/compliance-console-bench.ts [postgres-rows] [pglite-rows]
 *   BENCH_ONLY=pglite|postgres limits it to one database. Rows may be a list (100000,1000000):
 *   one run per size. BENCH_EXPORT_ONLY=1 runs only the export cases (decision 0428's streamed
 *   export, whose memory should not grow with the log, and BENCH_EXPORT_RUNS exports of a week
 *   a year ago, 5 by default, whose first entry should come as soon as a console page's).
 */
import os from 'node:os';
import { createClient } from '@supabase/supabase-js';
import type { PeriodIdBounds } from '../src/common/audit-period';
import { recordIdSearch, type AuditFilters } from '../src/web/features/compliance/api/audit-log';
import type { Database } from '../src/server/db/types';
import type { RunningServer } from '../src/server/start';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import { onBothDatabases, startBenchServer, type BenchDatabase } from './lib/bench-server';
import { explainAsUser } from './lib/explain-as-user';
import { percentile } from './lib/realtime-socket';
import { RealtimeUnused, webAppSignIn } from './lib/web-client';
import { dropIndexes, rebuildIndexes } from './learning-seed';

const sizes = (arg: string | undefined, fallback: number) =>
  (arg ?? String(fallback)).split(',').map(Number);
const POSTGRES_ROWS = sizes(process.argv[2], 10_000_000);
const PGLITE_ROWS = sizes(process.argv[3], 1_000_000);
const EXPORT_ONLY = process.env.BENCH_EXPORT_ONLY === '1';
const load = () =>
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
/** Exports of the period far back (each a whole request; the first batch's time printed). */
const EXPORT_RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 5);
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';
const BATCH = 500_000;
const ORGANIZATIONS = 20;
const PEOPLE = 5000;
const PASSWORD = 'bench-password-not-secret';

const person = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const organization = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;

/**
 * Entries g = 1..rows: which action, table, people and organization each has, from hashes of g
 * (independent of each other, unlike residues of g).
 */
const h = (salt: number) => `(hashint8(g + ${salt}) & 2147483647)`;
const seedSql = `
  insert into public.audit_log
    (id, "timestamp", user_id, action, table_name, record_id, changed_fields, purpose,
     legal_basis, organization_id, subject_user_id, content_hash, prev_hash, row_hash)
  overriding system value
  select $3::bigint + g,
         now() - make_interval(secs => ($2::bigint - g) * (31536000.0 / $2::bigint)),
         ('00000000-0000-4000-8000-' || lpad((${h(1)} % ${PEOPLE})::text, 12, '0'))::uuid,
         case when ${h(2)} % 10000 = 7 then 'hipaa.view'
              when ${h(2)} % 1000 = 3 then 'audit_log.export'
              when ${h(2)} % 20 = 1 then 'data_room.document_view'
              when ${h(2)} % 10 = 2 then 'auth.sign_in'
              else (array['insert', 'update', 'update', 'delete', 'insert'])[1 + ${h(3)} % 5] end,
         case when ${h(2)} % 10000 = 7 then 'public.iep_documents'
              when ${h(2)} % 10 = 2 then 'auth.users'
              else (array['public.lesson_progress', 'public.lesson_progress', 'public.notes',
                          'public.flashcard_reviews', 'public.enrollments'])[1 + ${h(4)} % 5] end,
         md5(g::text), '{body}', 'providing the learning service', 'contract',
         ('00000000-0000-4000-9000-' || lpad((${h(5)} % ${ORGANIZATIONS})::text, 12, '0'))::uuid,
         ('00000000-0000-4000-8000-' || lpad((${h(6)} % ${PEOPLE})::text, 12, '0'))::uuid,
         '\\x00', '\\x00', '\\x00'
    from generate_series($1::bigint + 1, least($1::bigint + ${BATCH}, $2::bigint)) g`;

async function seed(db: Database, rows: number) {
  const started = performance.now();
  await db.query(
    `insert into public.organizations (id, name, slug)
     select ('00000000-0000-4000-9000-' || lpad(g::text, 12, '0'))::uuid, 'Bench ' || g,
            'bench-console-' || g
       from generate_series(0, ${ORGANIZATIONS - 1}) g`,
  );
  const { rows: top } = await db.query<{ max: string }>(
    'select coalesce(max(id), 0)::text as max from public.audit_log',
  );
  const indexes = await dropIndexes(db, ['public.audit_log']);
  // The daily counts (decision 0431) are built once afterwards, as the migration's backfill
  // does, rather than by the log's trigger batch by batch.
  await db.exec('alter table public.audit_log disable trigger audit_log_counted');
  for (let done = 0; done < rows; done += BATCH) {
    await db.query(seedSql, [done, rows, Number(top[0]!.max)]);
  }
  await db.exec(`set maintenance_work_mem = '512MB'`);
  await rebuildIndexes(db, indexes);
  // Counted again from the whole log, in day order as the trigger appends them, with the
  // counts' indexes rebuilt afterwards.
  await db.exec('delete from audit.access_daily');
  const countIndexes = await dropIndexes(db, ['audit.access_daily']);
  await db.exec(
    `insert into audit.access_daily (organization_id, day, user_id, table_name, action, entries)
     select organization_id, ("timestamp" at time zone 'UTC')::date, user_id,
            coalesce(table_name, ''), action, count(*)
       from public.audit_log
      group by 1, 2, 3, 4, 5
      order by 2, 1`,
  );
  await rebuildIndexes(db, countIndexes);
  await db.exec(
    `delete from audit.day_ids;
     insert into audit.day_ids (day, first_id, last_id)
     select ("timestamp" at time zone 'UTC')::date, min(id), max(id) from public.audit_log group by 1`,
  );
  await db.exec('alter table public.audit_log enable trigger audit_log_counted');
  await db.query(
    "select setval(pg_get_serial_sequence('public.audit_log', 'id'), (select max(id) from public.audit_log))",
  );
  // As autovacuum leaves an append-only table: visibility map set, so index-only scans apply.
  await db.exec('vacuum (analyze) public.audit_log');
  // The daily counts too (decision 0431).
  await db.exec('vacuum (analyze) audit.access_daily');
  return (performance.now() - started) / 1000;
}

async function account(server: RunningServer, email: string): Promise<string> {
  const service = createClient(server.url, server.deps.keys.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: RealtimeUnused as never },
  });
  const { data, error } = await service.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (error) throw new Error(`create ${email}: ${error.message}`);
  return data.user.id;
}

/** The SQL a page request amounts to (PostgREST's filters), for EXPLAIN as the caller. */
function pageSql(
  org: string | null,
  filters: AuditFilters,
  before?: number,
  bounds?: PeriodIdBounds | null,
) {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (org) add((n) => `organization_id = ${n}`, org);
  if (filters.action) add((n) => `action = ${n}`, filters.action);
  if (filters.table) add((n) => `table_name = ${n}`, filters.table);
  if (filters.person)
    add((n) => `(user_id = ${n}::uuid or subject_user_id = ${n}::uuid)`, filters.person);
  if (filters.from) add((n) => `"timestamp" >= ${n}::timestamptz`, `${filters.from}T00:00:00Z`);
  if (filters.to)
    add((n) => `"timestamp" < ${n}::timestamptz + interval '1 day'`, `${filters.to}T00:00:00Z`);
  if (bounds?.atLeast !== undefined) add((n) => `id >= ${n}`, bounds.atLeast);
  if (bounds?.atMost !== undefined) add((n) => `id <= ${n}`, bounds.atMost);
  if (before !== undefined) add((n) => `id < ${n}`, before);
  const prefix = recordIdSearch(filters.search);
  if (prefix !== null) params.push(prefix);
  const source =
    prefix === null ? 'public.audit_log' : `public.audit_log_by_record_id($${params.length})`;
  const sql = `select id, "timestamp", user_id, action, table_name, record_id, changed_fields, purpose,
      legal_basis, ip_address, session_id, subject_user_id from ${source}
      ${where.length ? `where ${where.join(' and ')}` : ''} order by id desc limit 51`;
  return { sql, params };
}

interface Case {
  name: string;
  /** Platform admin (every organization) rather than the officer of organization 0. */
  admin?: boolean;
  filters?: Partial<AuditFilters>;
  before?: number;
  patterns?: number;
}

/** The UTC date `days` days before today. */
const daysAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

function cases(rows: number, top: number, wholeId: string): Case[] {
  return [
    { name: 'newest page' },
    { name: 'page 1,000 pages back (keyset)', before: top - 1000 * 51 * ORGANIZATIONS },
    { name: 'oldest entries (keyset)', before: top - rows + 2000 },
    { name: 'action: update', filters: { action: 'update' } },
    { name: 'action: hipaa.view (rare)', filters: { action: 'hipaa.view' } },
    { name: 'table: public.notes', filters: { table: 'public.notes' } },
    { name: 'table: public.iep_documents (rare)', filters: { table: 'public.iep_documents' } },
    { name: 'person (actor or subject)', filters: { person: person(1234) } },
    { name: 'person + action: delete', filters: { person: person(1234), action: 'delete' } },
    { name: 'one day, half a year ago', filters: { from: daysAgo(182), to: daysAgo(182) } },
    {
      name: '30 days + action: delete',
      filters: { from: daysAgo(120), to: daysAgo(90), action: 'delete' },
    },
    // A week far back with a common action: newest first, a year of updates lies before it.
    {
      name: 'a week a year ago + action: update',
      filters: { from: daysAgo(358), to: daysAgo(352), action: 'update' },
    },
    { name: 'record id: first 6 characters', filters: { search: 'a3f5c1' } },
    { name: 'record id: first 4 characters', filters: { search: 'a3f5' } },
    { name: 'record id: whole', filters: { search: wholeId } },
    { name: 'access patterns, 30 days', patterns: 30 },
    { name: 'admin: newest page', admin: true },
    { name: 'admin: person', admin: true, filters: { person: person(1234) } },
    { name: 'admin: table (rare)', admin: true, filters: { table: 'public.iep_documents' } },
    { name: 'admin: record id: first 6 characters', admin: true, filters: { search: 'a3f5c1' } },
    { name: 'admin: access patterns, 30 days', admin: true, patterns: 30 },
  ];
}

async function run(kind: BenchDatabase, cluster?: PostgresCluster) {
  for (const rows of kind === 'postgres' ? POSTGRES_ROWS : PGLITE_ROWS)
    await runSize(kind, rows, cluster);
  return [];
}

async function runSize(kind: BenchDatabase, rows: number, cluster?: PostgresCluster) {
  const bench = await startBenchServer(kind, cluster, 'console', {
    API_RATE_LIMIT_PER_SECOND: '100000',
  });
  try {
    const { server } = bench;
    const db = server.deps.db;
    const seconds = await seed(db, rows);
    console.log(
      `${kind}: seeded ${rows.toLocaleString('en')} audit entries in ${seconds.toFixed(0)} s`,
    );
    const officer = await account(server, 'officer@console.bench');
    const admin = await account(server, 'admin@console.bench');
    await db.query(
      `insert into public.memberships (user_id, organization_id, role) values ($1, $2, 'compliance_officer')`,
      [officer, organization(0)],
    );
    await db.query(
      `insert into public.user_roles (user_id, role) values ($1, 'admin') on conflict do nothing`,
      [admin],
    );
    const { rows: topRows } = await db.query<{ max: string }>(
      'select max(id)::text as max from public.audit_log',
    );
    const top = Number(topRows[0]!.max);
    // A whole record id (the seed's are md5(g)) of an old entry of the officer's organization.
    const { rows: old } = await db.query<{ record_id: string }>(
      `select record_id from public.audit_log where organization_id = $1
        order by id limit 1 offset 100`,
      [organization(0)],
    );
    const api = await import('../src/web/features/compliance/api/audit-log');
    let signedIn = '';
    for (const c of EXPORT_ONLY ? [] : cases(rows, top, old[0]!.record_id)) {
      const who = c.admin ? 'admin@console.bench' : 'officer@console.bench';
      if (signedIn !== who) {
        await webAppSignIn(server, who, PASSWORD);
        signedIn = who;
      }
      const org = c.admin ? null : organization(0);
      const filters = { ...api.emptyAuditFilters, ...c.filters };
      const once = async () =>
        c.patterns
          ? (await api.getAccessPatterns(org, c.patterns)).length
          : (await api.queryAuditLog(org, filters, api.AUDIT_PAGE_SIZE + 1, c.before)).length;
      const found = await once();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        await once();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(times, p).toFixed(1).padStart(7));
      console.log(
        `${kind}: ${c.name.padEnd(36)} p50 ${p50} ms  p95 ${p95} ms  p99 ${p99} ms  (${found} rows, ${load()})`,
      );
      if (EXPLAIN && !c.patterns) {
        const bounds = await api.periodIdBounds(filters.from, filters.to);
        const { sql, params } = pageSql(org, filters, c.before, bounds);
        const plan = await db.queryAsRole<{ 'QUERY PLAN': string }>(
          { role: 'authenticated', sub: c.admin ? admin : officer },
          `explain (analyze, buffers) ${sql}`,
          params,
        );
        console.log(plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
      } else if (EXPLAIN && kind === 'postgres') {
        // The function's own statements, as the caller (auto_explain logs nested plans); the
        // sixth call's, as a pooled connection runs it once PL/pgSQL may use a generic plan.
        const plans = await explainAsUser(
          server.deps.config.databaseUrl!,
          c.admin ? admin : officer,
          async (client) => {
            for (let i = 0; i < 6; i++)
              await client.query('select * from public.audit_access_patterns($1, $2)', [
                c.patterns,
                org,
              ]);
          },
        );
        const calls = plans.split('\n\n');
        console.log(
          calls
            .slice(-calls.length / 6)
            .join('\n\n')
            .replace(/^/gm, '    '),
        );
      }
    }
    await exportCase(kind, server, 'officer@console.bench', 'csv');
    await exportCase(kind, server, 'officer@console.bench', 'json');
    // A period far back with a common action: newest first, a year of updates lies before it.
    for (let i = 0; i < EXPORT_RUNS; i++)
      await exportCase(kind, server, 'officer@console.bench', 'csv', {
        name: 'a week a year ago + action: update',
        filters: { from: daysAgo(358), to: daysAgo(352), action: 'update' },
      });
  } finally {
    await bench.close();
  }
}

/**
 * The officer's whole organization (or the entries the filters match) exported through the
 * function (decision 0428): time to the first entry and to the end, size, and the growth of this
 * process's resident memory (server and bench share it) while it streams.
 */
async function exportCase(
  kind: BenchDatabase,
  server: RunningServer,
  email: string,
  format: 'csv' | 'json',
  only?: { name: string; filters: Record<string, string> },
) {
  const client = createClient(server.url, server.deps.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: RealtimeUnused as never },
  });
  const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw new Error(`sign in ${email}: ${error.message}`);
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  const baseHeap = process.memoryUsage().heapUsed;
  let peak = baseline;
  let peakHeap = baseHeap;
  let peakLive = baseHeap;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 50);
  // Heap right after a full GC, twice a second: what the export still holds, garbage left out.
  const liveSampler = global.gc
    ? setInterval(() => {
        global.gc!();
        peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
      }, 500)
    : undefined;
  const start = performance.now();
  const params = new URLSearchParams({ format, ...only?.filters });
  const response = await fetch(`${server.url}/functions/v1/audit-log-export?${params}`, {
    headers: {
      apikey: server.deps.keys.anonKey,
      authorization: `Bearer ${data.session.access_token}`,
      'accept-encoding': 'identity',
    },
  });
  if (!response.ok) throw new Error(`export: HTTP ${response.status}`);
  let bytes = 0;
  let lines = 0;
  // The header is one line; the first entry ends the second.
  let firstEntry: number | null = null;
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    for (const byte of read.value) if (byte === 10) lines++;
    if (firstEntry === null && lines >= 2) firstEntry = performance.now() - start;
  }
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  clearInterval(liveSampler);
  const mb = (n: number) => (n / 1e6).toFixed(1);
  console.log(
    `${kind}: export ${format} of organization 0${only ? `, ${only.name}` : ''}: ` +
      `${lines.toLocaleString('en')} lines, ${mb(bytes)} MB in ${seconds.toFixed(2)} s ` +
      `(first entry after ${firstEntry === null ? '-' : firstEntry.toFixed(0)} ms), RSS +${mb(peak - baseline)} MB, ` +
      `heap +${mb(peakHeap - baseHeap)} MB at the peak, +${mb(peakLive - baseHeap)} MB live after GC (${load()})`,
  );
}

await onBothDatabases(run, process.env.BENCH_ONLY as BenchDatabase | undefined);
process.exit(0);
