/**
 * Platform metrics benchmark (issue 6): seeds 1,000,000 users and 5,000,000 enrolments (plus
 * courses, notes, flashcards, a month of user activity and a day of request counters) on a
 * throwaway PostgreSQL cluster, then measures get_public_platform_metrics():
 *   - median and p99 of one caller, straight through the database adapter and through the
 *     gateway (POST /rest/v1/rpc/get_public_platform_metrics with the anon key);
 *   - the gateway's throughput for the call with 50 concurrent clients (autocannon).
 * Target: median under 50 ms on PostgreSQL.
 *
 *   node --import tsx bench/metrics-bench.ts [seconds-per-case] [users] [enrolments]
 */
import { startPostgresCluster } from '../tests/support/postgres-cluster';
import { startBenchServer } from './lib/bench-server';
import { measureHttp, measureLoop, type Measurement } from './lib/measure';

const SECONDS = Number(process.argv[2] ?? 5);
const USERS = Number(process.argv[3] ?? 1_000_000);
const ENROLMENTS = Number(process.argv[4] ?? 5_000_000);
const COURSES = 1_000;
const NOTES = 200_000;
const FLASHCARDS = 200_000;
const BATCH = 500_000;

function log(message: string) {
  process.stderr.write(`[metrics-bench] ${message}\n`);
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** Deterministic ids, so enrolments can name users and courses without a lookup. */
const userId = (n: string) => `md5('u' || (${n})::text)::uuid`;
const courseId = (n: string) => `md5('c' || (${n})::text)::uuid`;

/** Inserts in batches so each statement (and its counter trigger) stays a bounded size. */
function batches(total: number): [number, number][] {
  const out: [number, number][] = [];
  for (let from = 1; from <= total; from += BATCH)
    out.push([from, Math.min(total, from + BATCH - 1)]);
  return out;
}

function row(label: string, m: Measurement, connections: number) {
  return {
    case: label,
    clients: connections,
    'req/s': Math.round(m.requestsPerSecond),
    'p50 ms': Number(m.p50Ms.toFixed(2)),
    'p99 ms': Number(m.p99Ms.toFixed(2)),
    errors: m.errors,
    total: m.total,
  };
}

async function main() {
  const perUser = Math.ceil(ENROLMENTS / USERS);
  if (perUser > COURSES) throw new Error('more enrolments per user than courses');
  const cluster = await startPostgresCluster();
  try {
    const bench = await startBenchServer('postgres', cluster, 'metrics', {
      NODE_ENV: 'production',
      DATABASE_POOL_SIZE: '20',
      API_RATE_LIMIT_PER_SECOND: '100000000',
    });
    const { server } = bench;
    const { db } = server.deps;
    try {
      log(`seeding ${USERS.toLocaleString()} users, ${ENROLMENTS.toLocaleString()} enrolments`);
      await timed('users', async () => {
        for (const [from, to] of batches(USERS)) {
          await db.query(
            `insert into auth.users (id, email, created_at)
             select ${userId('g')}, 'user' || g || '@bench.test', now() - (g % 720) * interval '1 day'
               from generate_series($1::int, $2::int) g`,
            [from, to],
          );
        }
      });
      await timed('courses', () =>
        db.query(
          `insert into public.courses (id, title, owner_id, published)
           select ${courseId('g')}, 'Course ' || g, ${userId('g')}, g % 4 <> 0
             from generate_series(1, $1::int) g`,
          [COURSES],
        ),
      );
      // Enrolment e belongs to user (e mod USERS) and course ((e div USERS) * 97 + user) mod
      // COURSES: distinct courses per user as long as perUser <= COURSES / 97.
      await timed('enrolments', async () => {
        for (const [from, to] of batches(ENROLMENTS)) {
          await db.query(
            `insert into public.enrollments (user_id, course_id, progress_percent, enrolled_at)
             select ${userId('u')}, ${courseId('((g - 1) / $3::int * 97 + u) % $4::int + 1')},
                    (g * 37) % 101, now() - (g % 365) * interval '1 day'
               from generate_series($1::int, $2::int) g,
                    lateral (select (g - 1) % $3::int + 1 as u) x`,
            [from, to, USERS, COURSES],
          );
          log(`  enrolments ${to.toLocaleString()}`);
        }
      });
      await timed('notes and flashcards', async () => {
        await db.query(
          `insert into public.notes (user_id, title, body)
           select ${userId('(g * 7) % $2::int + 1')}, 'Note ' || g, 'Body of note ' || g
             from generate_series(1, $1::int) g`,
          [NOTES, USERS],
        );
        await db.query(
          `insert into public.flashcards (user_id, front, back)
           select ${userId('(g * 11) % $2::int + 1')}, 'Question ' || g, 'Answer ' || g
             from generate_series(1, $1::int) g`,
          [FLASHCARDS, USERS],
        );
      });
      await timed('activity (30 days)', () =>
        db.query(
          `insert into public.user_activity (user_id, last_active_at)
           select ${userId('g')}, now() - ((g::bigint * 7919) % 2592000) * interval '1 second'
             from generate_series(1, $1::int) g`,
          [USERS],
        ),
      );
      await timed('request counters (24 hours)', () =>
        db.query(
          `insert into platform.request_metrics (minute, service, requests, errors, p50_ms, p99_ms)
           select date_trunc('minute', now()) - m * interval '1 minute', s, 100 + m % 50, m % 3, 4, 30
             from generate_series(1, 1440) m,
                  unnest(array['auth', 'rest', 'storage', 'functions', 'realtime']) s
           on conflict do nothing`,
        ),
      );
      await timed('vacuum analyze', () => db.exec('vacuum analyze'));

      const { rows } = await db.query<{ m: { totals: Record<string, number> } }>(
        'select public.get_public_platform_metrics() as m',
      );
      log(`totals: ${JSON.stringify(rows[0]!.m.totals)}`);

      const call = () => db.query('select public.get_public_platform_metrics()');
      const http = {
        url: `${server.url}/rest/v1/rpc/get_public_platform_metrics`,
        method: 'POST' as const,
        headers: {
          apikey: server.deps.keys.anonKey,
          authorization: `Bearer ${server.deps.keys.anonKey}`,
          'content-type': 'application/json',
        },
        body: '{}',
      };
      await measureLoop(call, { connections: 1, seconds: 1 });
      const results = [
        row(
          'direct SQL (adapter)',
          await measureLoop(call, { connections: 1, seconds: SECONDS }),
          1,
        ),
        row('gateway rpc', await measureHttp(http, { connections: 1, seconds: SECONDS }), 1),
        row('gateway rpc', await measureHttp(http, { connections: 50, seconds: SECONDS }), 50),
      ];
      console.log(
        `get_public_platform_metrics on PostgreSQL with ${USERS.toLocaleString()} users and ${ENROLMENTS.toLocaleString()} enrolments`,
      );
      console.table(results);
      const median = results[0]!['p50 ms'];
      console.log(
        median < 50
          ? `direct median ${median} ms: within the 50 ms target`
          : `direct median ${median} ms: OVER the 50 ms target`,
      );
      if (median >= 50) process.exitCode = 1;
    } finally {
      await bench.close();
    }
  } finally {
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
