/**
 * Storage benchmark (issue 3, case c): download of a 1 KB object, 50 concurrent clients, on
 * PGlite and on a throwaway PostgreSQL cluster, beside two baselines measured in the same run:
 * the same metadata query through the database adapter plus the blob read (no HTTP), and a bare
 * Hono route doing that lookup and read with no JWT check, role switch, RLS or headers.
 *
 *   npm run bench            (all benchmarks)
 *   node --import tsx bench/storage-bench.ts [seconds-per-case]
 */
import { Hono } from 'hono';
import type { Database } from '../src/server/db/types';
import type { ObjectRow, Storage } from '../src/server/storage/storage';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import {
  onBothDatabases,
  serveBare,
  startBenchServer,
  type BenchDatabase,
} from './lib/bench-server';
import { measureHttp, measureLoop, type Measurement } from './lib/measure';
import { formatReport, type BenchRow } from './lib/table';

const CONNECTIONS = 50;
const SECONDS = Number(process.argv[2] ?? 5);
const WARMUP_SECONDS = 1;
const SCENARIO = '(c) 1 KB storage download';
const BUCKET = 'bench';
const KEY = 'files/one-kb.bin';
const LOOKUP = 'select * from storage.objects where bucket_id = $1 and name = $2';

/** The lookup and blob read of a download, behind a bare Hono route. */
async function startBareRoute(db: Database, storage: Storage) {
  const app = new Hono();
  app.get('/bare', async (c) => {
    const { rows } = await db.query<ObjectRow>(LOOKUP, [BUCKET, KEY]);
    const bytes = await storage.readBytes(rows[0]!);
    return c.body(bytes, 200, { 'Content-Type': 'application/octet-stream' });
  });
  const bare = await serveBare(app);
  return { url: `${bare.url}/bare`, close: bare.close };
}

async function withWarmup(run: (seconds: number) => Promise<Measurement>): Promise<Measurement> {
  await run(WARMUP_SECONDS);
  return run(SECONDS);
}

async function benchDatabase(kind: BenchDatabase, cluster?: PostgresCluster): Promise<BenchRow[]> {
  const bench = await startBenchServer(kind, cluster, 'storage', {
    // The benchmark measures the storage layer, not the per-key limit.
    API_RATE_LIMIT_PER_SECOND: '100000000',
  });
  const { server } = bench;
  const { db } = server.deps;
  const rows: BenchRow[] = [];
  const push = (pathName: string, result: Measurement) =>
    rows.push({ scenario: SCENARIO, database: kind, path: pathName, result });
  try {
    const { storage } = server.deps;
    await storage.ensureBucket(BUCKET, { public: true });
    const bytes = new Uint8Array(1024).map((_, i) => (i * 31) % 256);
    await storage.putObject(BUCKET, KEY, bytes, 'application/octet-stream');
    // Anonymous reads of this bucket are allowed by policy, so the gateway path runs RLS.
    await db.exec(
      `create policy bench_read on storage.objects for select to anon using (bucket_id = '${BUCKET}')`,
    );

    const key = server.deps.keys.anonKey;
    const headers = { apikey: key, authorization: `Bearer ${key}` };
    const gatewayUrl = `${server.url}/storage/v1/object/${BUCKET}/${KEY}`;
    const publicUrl = `${server.url}/storage/v1/object/public/${BUCKET}/${KEY}`;
    for (const [url, h] of [
      [gatewayUrl, headers],
      [publicUrl, {}],
    ] as const) {
      const probe = await fetch(url, { headers: h });
      const body = new Uint8Array(await probe.arrayBuffer());
      if (probe.status !== 200 || body.length !== 1024)
        throw new Error(`${url}: gateway answered ${probe.status} with ${body.length} bytes`);
    }

    const options = (seconds: number) => ({ connections: CONNECTIONS, seconds });
    push(
      'adapter + blob read',
      await withWarmup((seconds) =>
        measureLoop(async () => {
          const { rows: found } = await db.query<ObjectRow>(LOOKUP, [BUCKET, KEY]);
          await storage.readBytes(found[0]!);
        }, options(seconds)),
      ),
    );
    const bare = await startBareRoute(db, storage);
    try {
      push(
        'bare route',
        await withWarmup((seconds) => measureHttp({ url: bare.url }, options(seconds))),
      );
    } finally {
      await bare.close();
    }
    push(
      'gateway',
      await withWarmup((seconds) => measureHttp({ url: gatewayUrl, headers }, options(seconds))),
    );
    push(
      'gateway (public URL)',
      await withWarmup((seconds) => measureHttp({ url: publicUrl }, options(seconds))),
    );
    console.error(`done: ${SCENARIO} on ${kind}`);
  } finally {
    await bench.close();
  }
  return rows;
}

export function runStorageBench(): Promise<BenchRow[]> {
  return onBothDatabases(benchDatabase);
}

const rows = await runStorageBench();
console.log(
  formatReport('Storage benchmark', { connections: CONNECTIONS, seconds: SECONDS }, rows),
);
