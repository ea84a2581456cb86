/**
 * Realtime (issue 15), loopback only, bounded runs:
 * - `connections`: 1,000 WebSocket connections each joined to a channel, opened 50 at a time,
 *   against a gateway process of its own on PostgreSQL: the connection + join rate, and the
 *   gateway's resident memory per connection (RSS growth over the 1,000).
 * - `fanout`: one sender broadcasting to 100 subscribers on that gateway: latency from send to
 *   receipt (p50/p95/p99) at a moderate pace, then deliveries per second with the sender as fast
 *   as its acknowledgements allow.
 * - `changes`: postgres changes of an RLS table with 100 subscribers, each its own user (so 100
 *   RLS checks per change), on PGlite and PostgreSQL in this process: from the insert to each
 *   client, p50/p99, one change at a time; PostgreSQL both by logical replication and, on a
 *   server with wal_level=replica, by the triggers' NOTIFY (decision 0304).
 * Supabase's published figures for its Realtime cluster, to set beside these: broadcast median
 * 6 ms, p95 28 ms, p99 213 ms; database-originated broadcast median 46 ms.
 *
 *   node --import tsx bench/realtime-bench.ts [connections|fanout|changes|all] [seconds] [pglite|postgres]
 */
import fs from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startGatewayProcess } from '../tests/support/gateway-process';
import { startPostgresCluster, type PostgresCluster } from '../tests/support/postgres-cluster';
import * as jose from 'jose';
import type { RunningServer } from '../src/server/start';
import { onBothDatabases, startBenchServer, type BenchDatabase } from './lib/bench-server';
import { openBenchSocket, percentile, type BenchSocket } from './lib/realtime-socket';

const section = process.argv[2] ?? 'all';
const SECONDS = Number(process.argv[3] ?? 5);
/** `changes` on one database only: `pglite` or `postgres` (both PostgreSQL captures). */
const only = process.argv[4] as BenchDatabase | undefined;
const CONNECTIONS = 1000;
const IN_FLIGHT = 50;
const SUBSCRIBERS = 100;
const CHANGES = 50;
/** Realtime's own limits are not what these runs measure. */
const unlimited = {
  REALTIME_JOINS_PER_SECOND: '1000000',
  REALTIME_KEY_JOINS_PER_SECOND: '1000000',
  REALTIME_EVENTS_PER_SECOND: '1000000',
  REALTIME_KEY_EVENTS_PER_SECOND: '1000000',
  REALTIME_MAX_CHANNELS_PER_CONNECTION: '1000',
  API_RATE_LIMIT_PER_SECOND: '1000000',
};

const report: string[] = [];
const load = () => `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
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

/** A user's access token signed with the gateway's current key (as sign-in issues one). */
function userToken(server: RunningServer, sub: string): Promise<string> {
  const key = server.deps.keys.current;
  return new jose.SignJWT({ role: 'authenticated', sub, aud: 'authenticated' })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key.privateKey);
}

async function joinOrFail(socket: BenchSocket, topic: string, payload?: Record<string, unknown>) {
  const reply = await socket.join(topic, payload);
  if (reply.status !== 'ok') throw new Error(`join of ${topic} refused: ${JSON.stringify(reply)}`);
}

async function connections(url: string, key: string, pid: number) {
  // Warm the gateway's code paths first, so the memory measured is the connections'.
  const warm = await Promise.all(Array.from({ length: 20 }, () => openBenchSocket(url, key)));
  await Promise.all(warm.map((s, i) => joinOrFail(s, `realtime:warm-${i}`)));
  for (const socket of warm) socket.close();
  const before = rssBytes(pid);

  const sockets: BenchSocket[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < CONNECTIONS) {
        const i = next++;
        const socket = await openBenchSocket(url, key);
        await joinOrFail(socket, `realtime:room-${i % 100}`);
        sockets.push(socket);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = rssBytes(pid);
  report.push(
    `connection + join: ${CONNECTIONS} connections each joined to one of 100 channels, ` +
      `${IN_FLIGHT} at a time, in ${seconds.toFixed(2)} s = ${(CONNECTIONS / seconds).toFixed(0)}/s`,
    `memory: gateway RSS ${(before / 2 ** 20).toFixed(0)} MB before, ` +
      `${(after / 2 ** 20).toFixed(0)} MB with ${CONNECTIONS} joined connections = ` +
      `${((after - before) / CONNECTIONS / 1024).toFixed(1)} KB per connection (${load()})`,
  );
  for (const socket of sockets) socket.close();
}

async function fanout(url: string, key: string) {
  const topic = `realtime:fanout-${randomUUID()}`;
  const subscribers = await Promise.all(
    Array.from({ length: SUBSCRIBERS }, () => openBenchSocket(url, key)),
  );
  await Promise.all(subscribers.map((s) => joinOrFail(s, topic)));
  const sender = await openBenchSocket(url, key);
  await joinOrFail(sender, topic, { config: { broadcast: { ack: true } } });

  let latencies: number[] = [];
  let delivered = 0;
  for (const subscriber of subscribers)
    subscriber.onBroadcast((frame) => {
      delivered += 1;
      latencies.push(performance.now() - (frame.payload as { t: number }).t);
    });

  // (a) Latency at a moderate pace: 100 broadcasts a second (10,000 deliveries a second).
  const pace = 100;
  const paced = Math.round(pace * SECONDS);
  const start = performance.now();
  for (let n = 0; n < paced; n += 1) {
    const due = start + (n * 1000) / pace;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await sender.broadcast(topic, 'm', { t: performance.now() });
  }
  while (delivered < paced * SUBSCRIBERS) await new Promise((resolve) => setImmediate(resolve));
  const sorted = latencies.sort((a, b) => a - b);
  report.push(
    `broadcast fan-out to ${SUBSCRIBERS} subscribers at ${pace} broadcasts/s for ${SECONDS} s ` +
      `(${sorted.length} deliveries): send → receipt p50 ${ms(percentile(sorted, 50))}, ` +
      `p95 ${ms(percentile(sorted, 95))}, p99 ${ms(percentile(sorted, 99))}`,
  );

  // (b) Throughput: the sender keeps 20 acknowledged broadcasts in flight.
  latencies = [];
  delivered = 0;
  let sent = 0;
  const until = performance.now() + SECONDS * 1000;
  const throughputStart = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (performance.now() < until) {
        sent += 1;
        await sender.broadcast(topic, 'm', { t: performance.now() });
      }
    }),
  );
  while (delivered < sent * SUBSCRIBERS) await new Promise((resolve) => setImmediate(resolve));
  const seconds = (performance.now() - throughputStart) / 1000;
  const saturated = latencies.sort((a, b) => a - b);
  report.push(
    `broadcast fan-out, sender as fast as acknowledged (20 in flight): ${sent} broadcasts, ` +
      `${(delivered / seconds).toFixed(0)} deliveries/s; send → receipt p50 ` +
      `${ms(percentile(saturated, 50))}, p99 ${ms(percentile(saturated, 99))} (${load()})`,
  );
  for (const socket of [...subscribers, sender]) socket.close();
}

async function overGateway() {
  const cluster = await startPostgresCluster();
  try {
    const databaseUrl = await cluster.createDatabase(`bench_realtime_${Date.now()}`);
    const gateway = await startGatewayProcess(databaseUrl, { ...unlimited, LOG_LEVEL: 'info' });
    try {
      const key = await anonKey(databaseUrl);
      if (section === 'all' || section === 'connections')
        await connections(gateway.url, key, gateway.pid);
      if (section === 'all' || section === 'fanout') await fanout(gateway.url, key);
    } finally {
      await gateway.stop();
    }
  } finally {
    await cluster.stop();
  }
}

const feedSchema = `
create table public.bench_members (user_id uuid, room text, primary key (user_id, room));
create table public.bench_feed (
  id bigint generated always as identity primary key,
  room text not null,
  body text not null
);
alter table public.bench_members enable row level security;
alter table public.bench_feed enable row level security;
create policy own on public.bench_members for select to authenticated using (user_id = auth.uid());
create policy members on public.bench_feed for select to authenticated
  using (exists (select 1 from public.bench_members m
                  where m.user_id = auth.uid() and m.room = bench_feed.room));
grant select on public.bench_members, public.bench_feed to authenticated;
select realtime.enable_changes('public.bench_feed');
`;

/** `capture`: how the server captures changes there (decision 0304). */
async function changesOn(
  kind: BenchDatabase,
  cluster: PostgresCluster | undefined,
  capture: string,
) {
  const bench = await startBenchServer(kind, cluster, 'realtime-changes', unlimited);
  try {
    const { server } = bench;
    await server.deps.db.exec(feedSchema);
    const received = new Map<number, number[]>();
    const sockets: BenchSocket[] = [];
    for (let i = 0; i < SUBSCRIBERS; i += 1) {
      const user = randomUUID();
      await server.deps.db.query(
        `insert into public.bench_members (user_id, room) values ($1, 'r')`,
        [user],
      );
      const socket = await openBenchSocket(server.url, server.deps.keys.anonKey);
      const subscribed = new Promise<void>((resolve) =>
        socket.onMessage((event, payload) => {
          if (event === 'system') resolve();
          if (event !== 'postgres_changes') return;
          const id = Number((payload as { data: { record: { id: number } } }).data.record.id);
          (received.get(id) ?? received.set(id, []).get(id)!).push(performance.now());
        }),
      );
      await joinOrFail(socket, `realtime:feed-${i}`, {
        access_token: await userToken(server, user),
        config: {
          postgres_changes: [{ event: 'INSERT', schema: 'public', table: 'bench_feed' }],
        },
      });
      await subscribed;
      sockets.push(socket);
    }
    const latencies: number[] = [];
    const lastArrivals: number[] = [];
    for (let n = 0; n < CHANGES; n += 1) {
      const before = performance.now();
      const { rows } = await server.deps.db.query<{ id: number }>(
        `insert into public.bench_feed (room, body) values ('r', $1) returning id::int`,
        [`change ${n}`],
      );
      const id = rows[0]!.id;
      while ((received.get(id)?.length ?? 0) < SUBSCRIBERS)
        await new Promise((resolve) => setImmediate(resolve));
      const times = received.get(id)!.map((at) => at - before);
      latencies.push(...times);
      lastArrivals.push(Math.max(...times));
    }
    latencies.sort((a, b) => a - b);
    lastArrivals.sort((a, b) => a - b);
    report.push(
      `postgres changes on ${kind} (${capture}), RLS table, ${SUBSCRIBERS} subscribers (100 users), ` +
        `${CHANGES} inserts one at a time: insert → client p50 ${ms(percentile(latencies, 50))}, ` +
        `p99 ${ms(percentile(latencies, 99))}; last of the 100 p50 ` +
        `${ms(percentile(lastArrivals, 50))}, p99 ${ms(percentile(lastArrivals, 99))} (${load()})`,
    );
    for (const socket of sockets) socket.close();
  } finally {
    await bench.close();
  }
}

async function changes() {
  await onBothDatabases(async (kind, cluster) => {
    await changesOn(kind, cluster, kind === 'postgres' ? 'logical replication' : 'triggers');
    return [];
  }, only);
  if (only === 'pglite') return;
  // The test cluster commits without waiting for a WAL flush, and a WAL sender only sends
  // flushed WAL: there every change waits for the WAL writer's cycle. A server left at its
  // default (synchronous_commit=on) flushes at commit, as production does.
  const flushing = await startPostgresCluster({ synchronous_commit: 'on' });
  try {
    await changesOn('postgres', flushing, 'logical replication, synchronous_commit=on');
  } finally {
    await flushing.stop();
  }
  // The same on a PostgreSQL server without wal_level=logical: the triggers' NOTIFY.
  const replica = await startPostgresCluster({ wal_level: 'replica' });
  try {
    await changesOn('postgres', replica, 'triggers, wal_level=replica');
  } finally {
    await replica.stop();
  }
}

if (!['all', 'connections', 'fanout', 'changes'].includes(section))
  throw new Error(`unknown section ${section}: connections, fanout, changes or all`);
if (section !== 'changes') await overGateway();
if (section === 'all' || section === 'changes') await changes();
console.log(report.join('\n'));
console.log(
  'Supabase Realtime (published): broadcast median 6 ms, p95 28 ms, p99 213 ms; ' +
    'database-originated broadcast median 46 ms.',
);
