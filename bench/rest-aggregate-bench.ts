/**
 * REST aggregates over an embed of 100,000 rows (issue 19): one client asks, one request at a
 * time, for ten courses each with its attempts' count, sum and average embedded (the embed
 * covers all 100,000 attempts), and for the same figures grouped at the top level; beside it the
 * hand-written GROUP BY through the database adapter, for scale.
 *
 *   node --import tsx bench/rest-aggregate-bench.ts [requests] [pglite|postgres]
 */
import type { Database } from '../src/server/db/types';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import { onBothDatabases, startBenchServer, type BenchDatabase } from './lib/bench-server';

const REQUESTS = Number(process.argv[2] ?? 20);
const ONLY_DATABASE = process.argv[3] as BenchDatabase | undefined;
const WARMUP = 3;

const fixture = `
create table public.bench_agg_courses (id int primary key, title text not null);
create table public.bench_agg_attempts (
  id int primary key,
  course_id int not null references public.bench_agg_courses(id),
  score int not null
);
insert into public.bench_agg_courses select g, 'course ' || g from generate_series(1, 10) g;
insert into public.bench_agg_attempts select g, 1 + g % 10, g % 101 from generate_series(1, 100000) g;
create index bench_agg_attempts_course on public.bench_agg_attempts (course_id);
analyze public.bench_agg_courses;
analyze public.bench_agg_attempts;
notify pgrst, 'reload schema';
`;

const cases = [
  {
    name: 'aggregates inside an embed (10 courses, 100,000 attempts)',
    path: '/rest/v1/bench_agg_courses?select=id,title,bench_agg_attempts(attempts:count(),total:score.sum(),mean:score.avg())&order=id',
  },
  {
    name: 'aggregates grouped at the top level (100,000 attempts)',
    path: '/rest/v1/bench_agg_attempts?select=course_id,attempts:count(),total:score.sum(),mean:score.avg()&order=course_id',
  },
];

const baselineSql = `select course_id, count(*), sum(score), avg(score)
  from public.bench_agg_attempts group by course_id order by course_id`;

interface Row {
  database: BenchDatabase;
  name: string;
  p50: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function timed(runs: number, work: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function benchDatabase(kind: BenchDatabase, cluster?: PostgresCluster): Promise<Row[]> {
  const bench = await startBenchServer(kind, cluster, 'rest-agg', {
    API_RATE_LIMIT_PER_SECOND: '100000000',
    REST_AGGREGATES_ENABLED: 'true',
  });
  const rows: Row[] = [];
  try {
    const { server } = bench;
    const db: Database = server.deps.db;
    await db.exec(fixture);
    const key = server.deps.keys.serviceRoleKey;
    const headers = { apikey: key, authorization: `Bearer ${key}` };
    for (const scenario of cases) {
      const ask = async () => {
        const response = await fetch(`${server.url}${scenario.path}`, { headers });
        const body = await response.text();
        if (response.status !== 200)
          throw new Error(`${scenario.name}: ${response.status} ${body}`);
      };
      // The schema cache sees the new tables once the NOTIFY lands.
      for (let tries = 0; ; tries++) {
        try {
          await ask();
          break;
        } catch (error) {
          if (tries > 100) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      const times = await timed(REQUESTS, ask);
      rows.push({
        database: kind,
        name: scenario.name,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        max: times[times.length - 1] ?? NaN,
      });
    }
    const times = await timed(REQUESTS, async () => {
      await db.query(baselineSql);
    });
    rows.push({
      database: kind,
      name: 'hand-written GROUP BY through the adapter',
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times[times.length - 1] ?? NaN,
    });
  } finally {
    await bench.close();
  }
  return rows;
}

const rows = await onBothDatabases(benchDatabase, ONLY_DATABASE);
console.log(`REST aggregate benchmark: one client, ${REQUESTS} requests per case\n`);
console.log('| database | case | p50 ms | p99 ms | max ms |');
console.log('|----------|------|-------:|-------:|-------:|');
for (const row of rows) {
  console.log(
    `| ${row.database} | ${row.name} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.max.toFixed(1)} |`,
  );
}
