/**
 * The public API's figure (issue 17, decisions 0610 and 0611): an organization of USERS people
 * read through an organization API key, as an institution's system would, on PGlite and on a
 * throwaway PostgreSQL cluster. The key is made by the same code as the API keys screen, so
 * each request goes through its checks (the key's hash, the principal's claims) and the
 * organization's row-level security.
 *
 * Cases, each a GET of `profiles` ordered by name then id, 100 per page:
 *   - the first page; the first page with `Prefer: count=exact` (the total a client pages by);
 *   - a page in the middle (offset USERS / 2);
 *   - one person by id (the policy's set is built for one row: decision 0614's trade-off);
 *   - the whole list paged through by one client, 100 at a time, as a sync job would
 *     (wall time and pages per second; it checks every user came back exactly once).
 * Throughput is measured with the per-key limit lifted: one key is held to
 * API_RATE_LIMIT_PER_SECOND (100) requests a second by design, which would be all it showed.
 *
 *   node --import tsx bench/public-api-bench.ts [seconds-per-case=5] [users=10000] [pglite|postgres]
 */
import os from 'node:os';
import type { RunningServer } from '../src/server/start';
import { createOrganizationKey } from '../src/server/public-api/organization-keys';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import { onBothDatabases, startBenchServer, type BenchDatabase } from './lib/bench-server';
import { measureHttp } from './lib/measure';

const SECONDS = Number(process.argv[2] ?? 5);
const USERS = Number(process.argv[3] ?? 10_000);
const ONLY = process.argv[4] as BenchDatabase | undefined;
const CONNECTIONS = 10;
const PAGE = 100;
const BATCH = 5_000;

const userId = (n: string) => `md5('u' || (${n})::text)::uuid`;
const ORG = `md5('api-org')::uuid`;
const OWNER = `md5('api-owner')::uuid`;

function log(message: string) {
  process.stderr.write(`[public-api-bench] ${message}\n`);
}

/** USERS people, each an active learner of one organization; the owner makes the key. */
async function seed(server: RunningServer): Promise<{ org: string; owner: string }> {
  const { db } = server.deps;
  // Triggers stay off while seeding: profiles and memberships are written directly.
  const bulk = (text: string, params: unknown[] = []) =>
    db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(text, params);
    });
  const inBatches = async (text: string) => {
    for (let from = 1; from <= USERS; from += BATCH)
      await bulk(text, [from, Math.min(USERS, from + BATCH - 1)]);
  };
  await bulk(`insert into auth.users (id, email) values (${OWNER}, 'owner@api-bench.test')`);
  await bulk(`insert into public.profiles (id, full_name) values (${OWNER}, 'Olga Owner')`);
  await inBatches(
    `insert into auth.users (id, email) select ${userId('g')}, 'u' || g || '@api-bench.test'
       from generate_series($1::int, $2::int) g`,
  );
  await inBatches(
    `insert into public.profiles (id, full_name) select ${userId('g')}, 'Person ' || g
       from generate_series($1::int, $2::int) g`,
  );
  await bulk(`insert into public.organizations (id, name, slug, owner_id)
              values (${ORG}, 'API Bench University', 'api-bench', ${OWNER})`);
  // The membership the organization's insert trigger would give its owner.
  await bulk(`insert into public.memberships (user_id, organization_id, role)
              values (${OWNER}, ${ORG}, 'org_admin')`);
  await inBatches(
    `insert into public.memberships (user_id, organization_id, role)
     select ${userId('g')}, ${ORG}, 'learner' from generate_series($1::int, $2::int) g`,
  );
  await db.query('analyze');
  const { rows } = await db.query<{ org: string; owner: string }>(
    `select ${ORG}::text as org, ${OWNER}::text as owner`,
  );
  return rows[0]!;
}

interface Row {
  database: BenchDatabase;
  case: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  errors: number;
}

async function bench(kind: BenchDatabase, cluster?: PostgresCluster): Promise<Row[]> {
  const { server, close } = await startBenchServer(kind, cluster, 'public-api', {
    NODE_ENV: 'production',
    API_RATE_LIMIT_PER_SECOND: '100000000',
  });
  try {
    log(`${kind}: seeding ${USERS.toLocaleString()} users`);
    const { org, owner } = await seed(server);
    const { secret } = await createOrganizationKey(
      server.deps.db,
      server.deps.keys.current,
      owner,
      org,
      'Bench sync',
    );
    const headers = { apikey: secret, Authorization: `Bearer ${secret}` };
    const list = (offset: number) =>
      `${server.url}/rest/v1/profiles?select=id,full_name&order=full_name.asc,id.asc&limit=${PAGE}&offset=${offset}`;

    const { rows: someone } = await server.deps.db.query<{ id: string }>(
      `select ${userId(String(Math.ceil(USERS / 2)))}::text as id`,
    );
    const onePerson = `${server.url}/rest/v1/profiles?select=id,full_name&id=eq.${someone[0]!.id}`;

    // The key sees its organization's people, owner included, and counts them.
    const first = await fetch(list(0), { headers: { ...headers, Prefer: 'count=exact' } });
    const total = Number(first.headers.get('content-range')?.split('/')[1]);
    if (!first.ok || total !== USERS + 1)
      throw new Error(`expected ${USERS + 1} people through the key, got ${first.status} ${total}`);
    const one = (await (await fetch(onePerson, { headers })).json()) as unknown[];
    if (one.length !== 1) throw new Error(`expected one person by id, got ${one.length}`);

    const rows: Row[] = [];
    const cases: [string, string, Record<string, string>][] = [
      ['first page', list(0), headers],
      ['first page + count=exact', list(0), { ...headers, Prefer: 'count=exact' }],
      ['a page in the middle', list(Math.floor(USERS / 2)), headers],
      ['one person by id', onePerson, headers],
    ];
    for (const [label, url, caseHeaders] of cases) {
      await measureHttp({ url, headers: caseHeaders }, { connections: CONNECTIONS, seconds: 1 });
      const m = await measureHttp(
        { url, headers: caseHeaders },
        { connections: CONNECTIONS, seconds: SECONDS },
      );
      if (m.total === 0)
        log(`${kind}: ${label}: no request completed within ${SECONDS} s; run longer cases`);
      rows.push({
        database: kind,
        case: `${label} (${CONNECTIONS} clients)`,
        'req/s': Math.round(m.requestsPerSecond),
        'p50 ms': Number(m.p50Ms.toFixed(1)),
        'p99 ms': Number(m.p99Ms.toFixed(1)),
        errors: m.errors,
      });
    }

    // One client paging through everyone, as a nightly sync would.
    const seen = new Set<string>();
    const pageTimes: number[] = [];
    const started = performance.now();
    for (let offset = 0; offset < total; offset += PAGE) {
      const t0 = performance.now();
      const answer = await fetch(list(offset), { headers });
      const page = (await answer.json()) as { id: string }[];
      if (!answer.ok) throw new Error(`page at ${offset}: ${answer.status}`);
      for (const person of page) seen.add(person.id);
      pageTimes.push(performance.now() - t0);
    }
    const wallMs = performance.now() - started;
    if (seen.size !== total)
      throw new Error(`paging returned ${seen.size} distinct people of ${total}`);
    pageTimes.sort((a, b) => a - b);
    const at = (p: number) => pageTimes[Math.ceil((p / 100) * pageTimes.length) - 1]!;
    rows.push({
      database: kind,
      case: `all ${total.toLocaleString()} paged by one client: ${(wallMs / 1000).toFixed(1)} s`,
      'req/s': Math.round(pageTimes.length / (wallMs / 1000)),
      'p50 ms': Number(at(50).toFixed(1)),
      'p99 ms': Number(at(99).toFixed(1)),
      errors: 0,
    });
    return rows;
  } finally {
    await close();
  }
}

async function main() {
  const loadBefore = os.loadavg()[0]!;
  const rows = await onBothDatabases(bench, ONLY);
  const loadAfter = os.loadavg()[0]!;
  console.log(
    `Public API: ${USERS.toLocaleString()} organization users read through an organization key ` +
      `(GET /rest/v1/profiles, ${PAGE} a page, RLS on), ${SECONDS} s per case, per-key limit lifted`,
  );
  console.table(rows);
  console.log(
    `Machine: ${os.cpus().length} cores, load average ${loadBefore.toFixed(1)} before and ` +
      `${loadAfter.toFixed(1)} after${
        loadBefore > os.cpus().length || loadAfter > os.cpus().length
          ? ' — loaded by other work: the timings are not representative'
          : ''
      }.`,
  );
  if (rows.some((row) => row.errors > 0)) {
    console.error('Some requests failed or answered outside 2xx: the figures are suspect.');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
