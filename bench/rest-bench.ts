/**
 * REST benchmark (issue 3): (a) rpc of a trivial function and (b) a filtered select of 20 rows,
 * 50 concurrent clients, on PGlite and on a throwaway PostgreSQL cluster, in interleaved
 * one-second rounds (SECONDS rounds per path). Each is measured
 * beside two baselines in the same run: the same SQL straight through the database adapter
 * (no HTTP), and a bare Hono route running that SQL with no parsing, role switching or claims.
 * The ratio is the gateway's throughput over the bare route's; issue 19 asks for >= 0.85 on
 * the 20-row select on PostgreSQL, printed last as one summary line with both routes' req/s,
 * p50 and p99, their server CPU per request and the load average. Throughput on a shared
 * machine moves with other jobs; CPU per request (this process, and the cluster's processes
 * on PostgreSQL) moves much less.
 *
 *   npm run bench            (all benchmarks)
 *   node --import tsx bench/rest-bench.ts [seconds-per-case] [pglite|postgres] [scenario letter]
 */
import os from 'node:os';
import { Hono } from 'hono';
import type { Database } from '../src/server/db/types';
import { QueryContext, buildRead, type ReadResultRow } from '../src/server/gateway/rest/read-query';
import { parseQuery } from '../src/server/gateway/rest/request-query';
import { buildRpc, resolveRoutine } from '../src/server/gateway/rest/rpc-query';
import { readSchema } from '../src/server/gateway/rest/schema-cache';
import { relationSource } from '../src/server/gateway/rest/read-query';
import { Params } from '../src/server/gateway/rest/sql';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import {
  onBothDatabases,
  serveBare,
  startBenchServer,
  type BenchDatabase,
} from './lib/bench-server';
import { combine, measureHttp, measureLoop, type Measurement } from './lib/measure';
import { postgresCpuReader, processCpuMicros } from './lib/server-cpu';
import { formatReport, gatewayRatios, type BenchRow } from './lib/table';

const CONNECTIONS = 50;
const SECONDS = Number(process.argv[2] ?? 5);
/** Optional focus while working on one figure, e.g. `5 postgres b`. */
const ONLY_DATABASE = process.argv[3];
const ONLY_SCENARIO = process.argv[4];
/** Long enough for the gateway's code to be optimised under load too (fewer requests a second). */
const WARMUP_SECONDS = 2;

const fixture = `
create table public.bench_items (
  id int primary key,
  category int not null,
  name text not null,
  price numeric(10, 2) not null,
  created_at timestamptz not null default now()
);
insert into public.bench_items (id, category, name, price)
  select g, g % 50, 'item ' || g, (g % 100) + 0.99 from generate_series(1, 1000) g;
create index bench_items_category on public.bench_items (category);
create function public.bench_ping() returns int language sql stable as 'select 1';
analyze public.bench_items;
`;

const selectQuery = 'select=id,name,price&category=eq.7&order=id';

interface Scenario {
  name: string;
  http: { method: 'GET' | 'POST'; path: string; body?: string };
  /** The SQL and parameters the gateway runs for this request. */
  sql: { text: string; params: unknown[] };
}

/** Builds the exact SQL the REST service generates, for the baselines. */
async function scenarios(db: Database): Promise<Scenario[]> {
  const schema = await readSchema(db);
  const rpcCtx = new QueryContext(schema, new Params());
  const call = resolveRoutine(schema, 'bench_ping', [], {
    singleObject: false,
    bodyIsObject: true,
  });
  const rpc = buildRpc(rpcCtx, call, {}, parseQuery(new URLSearchParams()).read, { count: false });

  const readCtx = new QueryContext(schema, new Params());
  const read = parseQuery(new URLSearchParams(selectQuery)).read;
  const select = buildRead(readCtx, relationSource(readCtx, 'bench_items'), read, { count: false });
  return [
    {
      name: '(a) rpc trivial function',
      http: { method: 'POST', path: '/rest/v1/rpc/bench_ping', body: '{}' },
      sql: { text: rpc.sql, params: rpcCtx.params.values },
    },
    {
      name: '(b) select 20 rows',
      http: { method: 'GET', path: `/rest/v1/bench_items?${selectQuery}` },
      sql: { text: select, params: readCtx.params.values },
    },
  ];
}

/** The same SQL behind a bare Hono route: HTTP and the driver, nothing else. */
async function startBareRoute(
  db: Database,
  cases: Scenario[],
): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Hono();
  cases.forEach((scenario, index) => {
    app.on(scenario.http.method, `/bare/${index}`, async (c) => {
      const { rows } = await db.query<ReadResultRow>(scenario.sql.text, scenario.sql.params);
      return c.body(rows[0]?.body ?? 'null', 200, { 'Content-Type': 'application/json' });
    });
  });
  return serveBare(app);
}

/** Gateway / bare route of each round, by `scenario|database`. */
const roundRatios = new Map<string, number[]>();

async function benchDatabase(kind: BenchDatabase, cluster?: PostgresCluster): Promise<BenchRow[]> {
  const bench = await startBenchServer(kind, cluster, 'rest', {
    // The benchmark measures the service layer, not the per-key limit.
    API_RATE_LIMIT_PER_SECOND: '100000000',
  });
  const { server } = bench;
  const { db } = server.deps;
  const rows: BenchRow[] = [];
  try {
    await db.exec(fixture);
    await server.deps.db.exec(`notify pgrst, 'reload schema'`);
    const cases = await scenarios(db);
    const databaseCpu = await postgresCpuReader(db);
    const bare = await startBareRoute(db, cases);
    const key = server.deps.keys.anonKey;
    const apiHeaders = { apikey: key, authorization: `Bearer ${key}`, 'accept-profile': 'public' };
    try {
      for (const [index, scenario] of cases.entries()) {
        if (ONLY_SCENARIO && !scenario.name.startsWith(`(${ONLY_SCENARIO})`)) continue;
        const options = (seconds: number) => ({ connections: CONNECTIONS, seconds });
        const body = scenario.http.body;
        const jsonHeaders: Record<string, string> = body
          ? { 'content-type': 'application/json' }
          : {};
        // The gateway must answer this request correctly before it is worth timing.
        const probe = await fetch(`${server.url}${scenario.http.path}`, {
          method: scenario.http.method,
          headers: { ...apiHeaders, ...jsonHeaders },
          body,
        });
        if (probe.status !== 200)
          throw new Error(
            `${scenario.name}: gateway answered ${probe.status} ${await probe.text()}`,
          );

        const paths: [string, (seconds: number) => Promise<Measurement>][] = [
          [
            'adapter',
            (seconds) =>
              measureLoop(() => db.query(scenario.sql.text, scenario.sql.params), options(seconds)),
          ],
          [
            'bare route',
            (seconds) =>
              measureHttp(
                {
                  url: `${bare.url}/bare/${index}`,
                  method: scenario.http.method,
                  headers: jsonHeaders,
                  body,
                },
                options(seconds),
              ),
          ],
          [
            'gateway',
            (seconds) =>
              measureHttp(
                {
                  url: `${server.url}${scenario.http.path}`,
                  method: scenario.http.method,
                  headers: { ...apiHeaders, ...jsonHeaders },
                  body,
                },
                options(seconds),
              ),
          ],
        ];
        for (const [, measure] of paths) await measure(WARMUP_SECONDS);
        // Rounds of one second, interleaved, so load from elsewhere hits every path alike.
        const rounds = new Map<string, Measurement[]>(paths.map(([name]) => [name, []]));
        const cpu = new Map(paths.map(([name]) => [name, { process: 0, database: 0 }]));
        for (let round = 0; round < Math.max(1, Math.round(SECONDS)); round++) {
          for (const [name, measure] of paths) {
            const processBefore = processCpuMicros();
            const databaseBefore = databaseCpu?.() ?? 0;
            rounds.get(name)?.push(await measure(1));
            const spent = cpu.get(name)!;
            spent.process += processCpuMicros() - processBefore;
            spent.database += (databaseCpu?.() ?? 0) - databaseBefore;
          }
        }
        // Each round of the gateway beside the bare route's round just before it: how much
        // the ratio moved with the machine's other load during the run.
        const gatewayRounds = rounds.get('gateway') ?? [];
        roundRatios.set(
          `${scenario.name}|${kind}`,
          gatewayRounds.map(
            (round, i) =>
              round.requestsPerSecond / (rounds.get('bare route')?.[i]?.requestsPerSecond ?? NaN),
          ),
        );
        for (const [name] of paths) {
          const result = combine(rounds.get(name) ?? []);
          const spent = cpu.get(name)!;
          const perRequest = (micros: number) => (result.total > 0 ? micros / result.total : 0);
          rows.push({
            scenario: scenario.name,
            database: kind,
            path: name,
            result,
            cpu: {
              processMicros: perRequest(spent.process),
              databaseMicros: databaseCpu ? perRequest(spent.database) : undefined,
            },
          });
        }
        console.error(`done: ${scenario.name} on ${kind}`);
      }
    } finally {
      await bare.close();
    }
  } finally {
    await bench.close();
  }
  return rows;
}

export function runRestBench(): Promise<BenchRow[]> {
  return onBothDatabases(benchDatabase, ONLY_DATABASE as BenchDatabase | undefined);
}

/** Issue 19: the 20-row select through the gateway keeps this share of the bare route's rate. */
const TARGET_RATIO = 0.85;

const loadBefore = os.loadavg()[0]!;
const rows = await runRestBench();
const loadAfter = os.loadavg()[0]!;
console.log(formatReport('REST benchmark', { connections: CONNECTIONS, seconds: SECONDS }, rows));
console.log(`\n${summaryLine(rows)}`);

/** The middle value of sorted numbers (the mean of the two middle ones for an even count). */
function median(sorted: number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The one line the target is read from: both routes' figures and the machine's load beside them. */
function summaryLine(all: BenchRow[]): string {
  const scenario = '(b) select 20 rows';
  const ratio = gatewayRatios(all).get(`${scenario}|postgres`);
  const load = `load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (${os.cpus().length} CPUs)`;
  if (ratio === undefined)
    return `Issue 19 target (${scenario}, PostgreSQL): not measured; ${load}`;
  const figures = (path: string) => {
    const row = all.find(
      (r) => r.scenario === scenario && r.database === 'postgres' && r.path === path,
    );
    if (!row) return `${path} not measured`;
    const { requestsPerSecond, p50Ms, p99Ms } = row.result;
    const cpu = row.cpu
      ? `, server CPU ${(row.cpu.processMicros + (row.cpu.databaseMicros ?? 0)).toFixed(0)} µs/req`
      : '';
    return `${path} ${requestsPerSecond.toFixed(0)} req/s, p50 ${p50Ms.toFixed(2)} ms, p99 ${p99Ms.toFixed(2)} ms${cpu}`;
  };
  const verdict = ratio >= TARGET_RATIO ? 'met' : 'NOT met';
  const perRound = [...(roundRatios.get(`${scenario}|postgres`) ?? [])].sort((a, b) => a - b);
  const spread =
    perRound.length > 0
      ? ` (rounds ${perRound[0]!.toFixed(2)}–${perRound.at(-1)!.toFixed(2)}, median ${median(perRound).toFixed(2)})`
      : '';
  return `Issue 19 target (${scenario}, PostgreSQL): gateway / bare route = ${ratio.toFixed(2)}${spread} (>= ${TARGET_RATIO}: ${verdict}); ${figures('gateway')}; ${figures('bare route')}; ${load}`;
}
