/**
 * Storage benchmark (issue 3, case c): download of a 1 KB object, 50 concurrent clients, on
 * PGlite and on a throwaway PostgreSQL cluster, beside two baselines measured in the same run:
 * the same metadata query through the database adapter plus the blob read (no HTTP), and a bare
 * Hono route doing that lookup and read with no JWT check, role switch, RLS or headers.
 *
 * It also measures an image transformation (issue 19): a 1 MB JPEG (1600×1200) resized to
 * 400×300 through `/render/image/public`, cold (each request a new variant, so sharp renders it)
 * and cached (one variant again and again, read from the disk cache), on PGlite (the database
 * does one indexed lookup either way), with the machine's load average beside the figures.
 *
 *   npm run bench            (all benchmarks)
 *   node --import tsx bench/storage-bench.ts [seconds-per-case] [image]   (image: only that)
 */
import os from 'node:os';
import sharp from 'sharp';
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

const COLD_RENDERS = 12;
const CACHED_REQUESTS = 200;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** One request's time in ms; refuses anything but a 200 with the expected size of image. */
async function timedRender(url: string, accept: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { Accept: accept } });
  const bytes = Buffer.from(await response.arrayBuffer());
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${bytes.toString()}`);
  const { height } = await sharp(bytes).metadata();
  if (height !== 300) throw new Error(`${url}: rendered ${height} px high, not 300`);
  return elapsed;
}

async function benchImageTransformation(): Promise<string> {
  const bench = await startBenchServer('pglite', undefined, 'storage-image');
  try {
    const { storage } = bench.server.deps;
    await storage.ensureBucket(BUCKET, { public: true });
    const source = await sharp({
      create: {
        width: 1600,
        height: 1200,
        channels: 3,
        background: { r: 120, g: 90, b: 60 },
        noise: { type: 'gaussian', mean: 120, sigma: 40 },
      },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
    await storage.putObject(BUCKET, 'photo.jpg', source, 'image/jpeg');
    const base = `${bench.server.url}/storage/v1/render/image/public/${BUCKET}/photo.jpg`;
    const loadBefore = load();
    const lines = [
      `Image transformation: ${(source.byteLength / 1e6).toFixed(2)} MB JPEG 1600×1200 → 400×300 (PGlite, one client)`,
      `load average before: ${loadBefore}`,
      '',
      '| case | requests | p50 ms | p95 ms | max ms |',
      '| --- | --- | --- | --- | --- |',
    ];
    const row = (name: string, times: number[]) =>
      lines.push(
        `| ${name} | ${times.length} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${Math.max(...times).toFixed(1)} |`,
      );
    // A first render loads libvips' codecs: not part of either figure.
    await timedRender(`${base}?width=399&height=300`, '*/*');
    for (const [name, accept] of [
      ['cold, JPEG out', '*/*'],
      ['cold, WebP out', 'image/webp,*/*'],
    ] as const) {
      const times = [];
      for (let i = 0; i < COLD_RENDERS; i++)
        times.push(await timedRender(`${base}?width=${400 + i}&height=300`, accept));
      row(name, times);
    }
    const cachedUrl = `${base}?width=400&height=300`;
    const cached = [];
    for (let i = 0; i < CACHED_REQUESTS; i++) cached.push(await timedRender(cachedUrl, '*/*'));
    row('cached, JPEG out', cached);
    const parallel = await measureHttp(
      { url: cachedUrl },
      { connections: 10, seconds: Math.max(2, SECONDS) },
    );
    lines.push(
      '',
      `cached, 10 clients: ${parallel.requestsPerSecond.toFixed(0)} req/s, p50 ${parallel.p50Ms} ms, p99 ${parallel.p99Ms} ms, ${parallel.errors} errors`,
      `load average after: ${load()}`,
    );
    return lines.join('\n');
  } finally {
    await bench.close();
  }
}

if (process.argv[3] !== 'image') {
  const rows = await runStorageBench();
  console.log(
    formatReport('Storage benchmark', { connections: CONNECTIONS, seconds: SECONDS }, rows),
  );
}
console.log(await benchImageTransformation());
