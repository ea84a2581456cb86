/**
 * Many processes on PostgreSQL (issue 10): the REST 20-row select from `rest-bench.ts` served
 * by one gateway process and by `WORKERS=2`, both started as an operator starts them
 * (`node src/server/main.ts`) on one throwaway PostgreSQL database, 50 concurrent clients,
 * interleaved one-second rounds (SECONDS rounds each), and the ratio. Then the per-key rate
 * limit under the same load against both workers, set to a quarter of what they served so the
 * load is well over it: requests admitted against the limit (decision 0070).
 *
 *   node --import tsx bench/cluster-bench.ts [seconds] [rate-limit seconds]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, startPostgresCluster } from '../tests/support/postgres-cluster';
import { combine, measureHttp, type Measurement } from './lib/measure';

const CONNECTIONS = 50;
const SECONDS = Number(process.argv[2] ?? 5);
const LIMIT_SECONDS = Number(process.argv[3] ?? 5);
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
grant select on public.bench_items to anon;
analyze public.bench_items;
`;
const selectPath = '/rest/v1/bench_items?select=id,name,price&category=eq.7&order=id';

interface Gateway {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `main.ts` with `workers` processes; its log goes to a file (request lines included,
 * as in production at LOG_LEVEL=info) that is read only to see when every worker listens.
 */
async function startGateway(
  databaseUrl: string,
  workers: number,
  rateLimit: number,
  logDir: string,
): Promise<Gateway> {
  const port = await freePort();
  const logFile = path.join(logDir, `gateway-${workers}-${port}.log`);
  const out = fs.openSync(logFile, 'w');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: os.tmpdir(),
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      WORKERS: String(workers),
      API_RATE_LIMIT_PER_SECOND: String(rateLimit),
      DATA_ROOM_PIN: 'bench-pin',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', out, 'inherit'],
  });
  fs.closeSync(out);
  const ready = workers === 1 ? 'Lyceum listening on' : `${workers} worker processes`;
  const deadline = Date.now() + 120_000;
  while (!fs.readFileSync(logFile, 'utf8').includes(ready)) {
    if (child.exitCode !== null) throw new Error(`gateway exited: ${fs.readFileSync(logFile)}`);
    if (Date.now() > deadline) throw new Error('gateway did not start within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function anonKey(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ value: string }>(
      `select value from platform.settings where key like 'api_key.anon.%'`,
    );
    return rows[0]!.value;
  } finally {
    await client.end();
  }
}

function line(label: string, m: Measurement): string {
  return (
    `${label.padEnd(14)} ${m.requestsPerSecond.toFixed(0).padStart(7)} req/s` +
    `   p50 ${m.p50Ms.toFixed(1).padStart(6)} ms   p99 ${m.p99Ms.toFixed(1).padStart(6)} ms` +
    `   errors ${m.errors}`
  );
}

const cluster = await startPostgresCluster();
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-cluster-bench-'));
try {
  const databaseUrl = await cluster.createDatabase(`bench_cluster_${Date.now()}`);
  // The throughput runs measure the service layer, not the per-key limit.
  const unlimited = 100_000_000;
  const one = await startGateway(databaseUrl, 1, unlimited, logDir);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(fixture);
  await db.query(`notify pgrst, 'reload schema'`);
  await db.end();
  const two = await startGateway(databaseUrl, 2, unlimited, logDir);
  const key = await anonKey(databaseUrl);
  const headers = { apikey: key, authorization: `Bearer ${key}` };

  const report: string[] = [];
  let served = 0;
  try {
    for (const gateway of [one, two]) {
      const probe = await fetch(`${gateway.url}${selectPath}`, { headers });
      const rows = (await probe.json()) as unknown[];
      if (probe.status !== 200 || rows.length !== 20)
        throw new Error(
          `select answered ${probe.status} with ${JSON.stringify(rows).slice(0, 200)}`,
        );
    }
    const cases: [string, Gateway][] = [
      ['1 process', one],
      ['2 processes', two],
    ];
    const measure = (gateway: Gateway, seconds: number) =>
      measureHttp(
        { url: `${gateway.url}${selectPath}`, headers },
        { connections: CONNECTIONS, seconds },
      );
    for (const [, gateway] of cases) await measure(gateway, WARMUP_SECONDS);
    const rounds = new Map<string, Measurement[]>(cases.map(([name]) => [name, []]));
    // Rounds of one second, interleaved, so load from elsewhere hits both alike.
    for (let round = 0; round < Math.max(1, Math.round(SECONDS)); round++) {
      for (const [name, gateway] of cases) rounds.get(name)!.push(await measure(gateway, 1));
    }
    const results = cases.map(([name]) => [name, combine(rounds.get(name)!)] as const);
    report.push(
      `REST select 20 rows on PostgreSQL, ${CONNECTIONS} connections, ${SECONDS} × 1 s rounds each ` +
        `(${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end):`,
    );
    for (const [name, result] of results) report.push(`  ${line(name, result)}`);
    served = results[1]![1].requestsPerSecond;
    const ratio = served / results[0]![1].requestsPerSecond;
    report.push(`  ratio 2 processes / 1 process: ${ratio.toFixed(2)}`);
  } finally {
    await one.stop();
    await two.stop();
  }

  // The same load on one key against both workers, with a limit well under what they serve.
  const RATE_LIMIT = Math.max(5, Math.floor(served / 4));
  const limited = await startGateway(databaseUrl, 2, RATE_LIMIT, logDir);
  try {
    const result = await measureHttp(
      { url: `${limited.url}${selectPath}`, headers },
      { connections: CONNECTIONS, seconds: LIMIT_SECONDS },
    );
    const admitted = result.total - result.errors;
    const exact = RATE_LIMIT + RATE_LIMIT * result.seconds;
    report.push(
      `Rate limit ${RATE_LIMIT}/s on one key, WORKERS=2, ${CONNECTIONS} connections, ` +
        `${result.seconds.toFixed(1)} s: ${result.total} requests, ${admitted} admitted ` +
        `(${(admitted / result.seconds).toFixed(0)}/s); one token bucket admits ${exact.toFixed(0)}, ` +
        `the stated bound is ${(exact + RATE_LIMIT * 1.1).toFixed(0)}, ` +
        `two unshared buckets would admit ${(2 * exact).toFixed(0)}.`,
    );
  } finally {
    await limited.stop();
  }
  console.log(report.join('\n'));
} finally {
  await cluster.stop();
  fs.rmSync(logDir, { recursive: true, force: true });
}
