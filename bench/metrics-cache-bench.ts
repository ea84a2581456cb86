/**
 * Public metrics throughput (issue 10): POST /rest/v1/rpc/get_public_platform_metrics with the
 * anon key, as every home-page visitor polls it, at 50 concurrent clients on PGlite and on a
 * throwaway PostgreSQL cluster, in interleaved one-second rounds: the plain call (answered from
 * the shared one-second cache, decision 0017) beside the same call with `Cache-Control:
 * no-cache` (one database call per request, as before the cache), and a bare Hono route
 * answering the same bytes (what the HTTP stack alone allows on this machine). Counts the
 * database calls the cached rounds made. Target: at least 5,000 req/s cached.
 *
 *   node --import tsx bench/metrics-cache-bench.ts [seconds-per-case] [pglite|postgres]
 */
import { Hono } from 'hono';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import {
  onBothDatabases,
  serveBare,
  startBenchServer,
  type BenchDatabase,
} from './lib/bench-server';
import { combine, measureHttp, type Measurement } from './lib/measure';

const CONNECTIONS = 50;
const SECONDS = Number(process.argv[2] ?? 5);
const ONLY_DATABASE = process.argv[3] as BenchDatabase | undefined;
const TARGET_RPS = 5000;

interface Row {
  database: BenchDatabase;
  path: string;
  result: Measurement;
  databaseCalls?: number;
}

async function bench(kind: BenchDatabase, cluster?: PostgresCluster): Promise<Row[]> {
  const { server, close } = await startBenchServer(kind, cluster, 'metrics_cache', {
    NODE_ENV: 'production',
    API_RATE_LIMIT_PER_SECOND: '100000000',
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const db = server.deps.db;
    let databaseCalls = 0;
    const queryAsRole = db.queryAsRole.bind(db);
    db.queryAsRole = (claims, sql, params, options) => {
      if (sql.includes('get_public_platform_metrics')) databaseCalls += 1;
      return queryAsRole(claims, sql, params, options);
    };
    const call = (headers: Record<string, string> = {}) => ({
      url: `${server.url}/rest/v1/rpc/get_public_platform_metrics`,
      method: 'POST' as const,
      headers: {
        apikey: server.deps.keys.anonKey,
        authorization: `Bearer ${server.deps.keys.anonKey}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: '{}',
    });
    const sample = await fetch(call().url, { ...call(), body: '{}' });
    const body = await sample.text();
    const contentType = sample.headers.get('content-type') ?? 'application/json';
    const bare = await serveBare(
      new Hono().post('/', (c) => c.body(body, 200, { 'Content-Type': contentType })),
    );
    closers.push(bare.close);
    const cases = [
      { path: 'shared cache', target: call() },
      { path: 'no cache (no-cache header)', target: call({ 'cache-control': 'no-cache' }) },
      { path: 'bare Hono route, same body', target: { ...call(), url: `${bare.url}/` } },
    ];
    for (const c of cases) await measureHttp(c.target, { connections: CONNECTIONS, seconds: 1 });
    const rounds = new Map<string, Measurement[]>(cases.map((c) => [c.path, []]));
    let cachedCalls = 0;
    for (let round = 0; round < SECONDS; round++) {
      for (const c of cases) {
        const before = databaseCalls;
        rounds
          .get(c.path)!
          .push(await measureHttp(c.target, { connections: CONNECTIONS, seconds: 1 }));
        if (c.path === 'shared cache') cachedCalls += databaseCalls - before;
      }
    }
    return cases.map((c) => ({
      database: kind,
      path: c.path,
      result: combine(rounds.get(c.path)!),
      databaseCalls: c.path === 'shared cache' ? cachedCalls : undefined,
    }));
  } finally {
    for (const closeBare of closers) await closeBare();
    await close();
  }
}

async function main() {
  const rows = await onBothDatabases(bench, ONLY_DATABASE);
  console.log(
    `get_public_platform_metrics through the gateway, ${CONNECTIONS} clients, ${SECONDS} one-second rounds per case`,
  );
  console.table(
    rows.map((r) => ({
      database: r.database,
      path: r.path,
      'req/s': Math.round(r.result.requestsPerSecond),
      'p50 ms': Number(r.result.p50Ms.toFixed(2)),
      'p99 ms': Number(r.result.p99Ms.toFixed(2)),
      errors: r.result.errors,
      'database calls': r.databaseCalls ?? (r.path.startsWith('bare') ? 0 : r.result.total),
    })),
  );
  for (const row of rows.filter((r) => r.path === 'shared cache')) {
    const rps = Math.round(row.result.requestsPerSecond);
    const ok = rps >= TARGET_RPS && row.result.errors === 0;
    console.log(
      `${row.database}: ${rps} req/s cached — ${ok ? 'meets' : 'MISSES'} the ${TARGET_RPS} req/s target`,
    );
    if (!ok) process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
