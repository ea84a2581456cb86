/**
 * Learning data benchmark (issue 11, decision 0102). Seeds a throwaway PostgreSQL cluster at
 * the scale (bench/learning-seed.ts: 100,000 learners, 1,000 courses, 1,000,000
 * enrolments, 10,000,000 progress rows), then measures through supabase-js with RLS on, one
 * signed-in client at a time, against the targets (p99):
 *   - the learner dashboard: the api functions of src/web/features/learn, run unchanged
 *     (< 50 ms each),
 *   - an instructor's progress table for a 500-learner course: the api functions of
 *     src/web/features/teaching, run unchanged (< 100 ms),
 *   - organization analytics as the organization's owner and admin: the api functions of
 *     src/web/features/org-insights, run unchanged (< 200 ms).
 * A missed target is printed as MISSED; the exit code is non-zero only when the bench itself
 * fails (a call errs or answers the wrong rows), so `npm run bench` goes on.
 *
 *   node --import tsx bench/learning-bench.ts
 *
 * Environment:
 *   LEARNING_BENCH_SCALE    1 (default) is the scale; 0.1 a tenth (0.02 at least)
 *   LEARNING_BENCH_SECONDS  seconds measured per case (default 5)
 *   LEARNING_BENCH_EXPLAIN  1: also print each case's plans, as run (auto_explain, ANALYZE)
 *
 * Full scale needs about 8 GB free under the temporary directory (3 GB of tables and
 * indexes, the rest write-ahead log between checkpoints), 2 GB of memory for PostgreSQL, and
 * seeds in one to two minutes on two quiet cores.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import type { RunningServer } from '../src/server/start';
import type { AppSession } from '../src/web/lib/app-session';
import { startPostgresCluster, type PostgresCluster } from '../tests/support/postgres-cluster';
import { startBenchServer } from './lib/bench-server';
import { measureLoop, type LoopMeasurement } from './lib/measure';
import { RealtimeUnused, webAppSignIn as signInAs } from './lib/web-client';
import {
  BIG_COURSE_LEARNERS,
  ENROLMENTS_PER_LEARNER,
  LESSONS_PER_COURSE,
  benchIds,
  seedLearning,
  type SeedSize,
} from './learning-seed';

const SCALE = Number(process.env.LEARNING_BENCH_SCALE ?? 1);
const SECONDS = Number(process.env.LEARNING_BENCH_SECONDS ?? 5);
const EXPLAIN = process.env.LEARNING_BENCH_EXPLAIN === '1';
const PASSWORD = 'bench-password-not-secret';

function log(message: string) {
  process.stderr.write(`[learning-bench] ${message}\n`);
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function sizeFor(scale: number): SeedSize {
  if (!Number.isFinite(scale) || scale < 0.02 || scale > 1) {
    throw new Error(
      `LEARNING_BENCH_SCALE must be a number from 0.02 to 1 (the issue's scale), not "${process.env.LEARNING_BENCH_SCALE}"`,
    );
  }
  return { learners: Math.round(100_000 * scale), courses: Math.round(1_000 * scale) };
}

/**
 * Settings for a bulk load and a read benchmark on a cluster that is thrown away afterwards;
 * shared_buffers and the auto_explain library need a restart.
 */
async function tuneCluster(cluster: PostgresCluster): Promise<void> {
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  try {
    // ALTER SYSTEM knows a library's settings once the session has loaded it.
    await admin.query(`load 'auto_explain'`);
    const settings: [string, string][] = [
      ['shared_buffers', '1GB'],
      ['max_wal_size', '4GB'],
      ['checkpoint_timeout', '30min'],
      ['effective_cache_size', '8GB'],
      ['shared_preload_libraries', 'auto_explain'],
      // Off until the data is in; EXPLAIN mode switches it on for the measured statements.
      ['auto_explain.log_min_duration', '-1'],
      ['auto_explain.log_analyze', 'on'],
      ['auto_explain.log_buffers', 'on'],
      ['auto_explain.log_nested_statements', 'on'],
      ['logging_collector', 'on'],
      ['log_directory', 'log'],
      ['log_filename', 'postgresql.log'],
    ];
    for (const [name, value] of settings) {
      await admin.query(`alter system set ${name} = ${pg.escapeLiteral(value)}`);
    }
  } finally {
    await admin.end();
  }
  await cluster.halt();
  await cluster.resume();
}

async function adminQuery<R extends pg.QueryResultRow>(
  cluster: PostgresCluster,
  text: string,
): Promise<R[]> {
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  try {
    return (await admin.query<R>(text)).rows;
  } finally {
    await admin.end();
  }
}

const webAppSignIn = (server: RunningServer, email: string) => signInAs(server, email, PASSWORD);

interface Case {
  group: string;
  label: string;
  /** p99 target in ms; null: shown for information. */
  target: number | null;
  run: () => Promise<void>;
}

/** Throws (counted as an error) when a call fails or answers an unexpected number of rows. */
function expectCount(label: string, n: number, min: number, max = min) {
  if (n < min || n > max) throw new Error(`${label}: expected ${min}–${max} rows, got ${n}`);
}

async function learnerCases(
  server: RunningServer,
  learner: { id: string; email: string },
  organizationId: string,
): Promise<Case[]> {
  await webAppSignIn(server, learner.email);
  const { getEnrolments } = await import('../src/web/features/learn/api/get-enrolments');
  const { getContinueLesson } = await import('../src/web/features/learn/api/get-continue-lesson');
  const { getAssignmentsDue } = await import('../src/web/features/learn/api/get-assignments-due');
  const { getRecentResults } = await import('../src/web/features/learn/api/get-recent-results');
  const session: AppSession = {
    userId: learner.id,
    email: learner.email,
    workspace: {
      kind: 'organization',
      organizationId,
      organizationName: 'Bench University',
      boardId: null,
      boardName: null,
      roles: ['learner'],
      isOwner: false,
    },
  };
  // Learner 1 has ten enrolments and is one of course 1's 500 learners.
  const enrolments = await getEnrolments(session);
  expectCount('enrolments', enrolments.length, ENROLMENTS_PER_LEARNER + 1);
  const ids = enrolments.map((e) => e.courseId);
  const group = 'learner dashboard';
  return [
    {
      group,
      label: 'getEnrolments: my courses with titles',
      target: 50,
      run: async () => expectCount('enrolments', (await getEnrolments(session)).length, ids.length),
    },
    {
      group,
      label: 'getContinueLesson: last lesson in progress',
      target: 50,
      run: async () =>
        expectCount('continue', (await getContinueLesson(learner.id, ids)) ? 1 : 0, 1),
    },
    {
      group,
      label: 'getAssignmentsDue: next five due',
      target: 50,
      run: async () => expectCount('assignments', (await getAssignmentsDue(ids)).length, 5),
    },
    {
      group,
      label: 'getRecentResults: last five quiz results',
      target: 50,
      run: async () =>
        expectCount('results', (await getRecentResults(learner.id, ids)).length, 1, 5),
    },
    {
      group,
      label: 'the whole page: courses, then the other three at once',
      target: null,
      run: async () => {
        const courses = (await getEnrolments(session)).map((e) => e.courseId);
        await Promise.all([
          getContinueLesson(learner.id, courses),
          getAssignmentsDue(courses),
          getRecentResults(learner.id, courses),
        ]);
      },
    },
  ];
}

/**
 * The instructor's progress table: the api functions of src/web/features/teaching (decision
 * 0125, course_progress), run unchanged by the web app's client signed in as the instructor.
 */
async function instructorCases(
  server: RunningServer,
  instructor: { email: string },
  course: string,
  learners: number,
): Promise<Case[]> {
  await webAppSignIn(server, instructor.email);
  const { getCourseProgress, getAllCourseProgress } =
    await import('../src/web/features/teaching/api/get-course-progress');
  const { PROGRESS_PAGE_SIZE } = await import('../src/web/features/teaching/progress-query');
  type View = Parameters<typeof getCourseProgress>[1];
  const byName: View = { search: '', status: null, sort: 'name', descending: false, page: 0 };
  const group = `instructor progress table (${learners} learners x ${LESSONS_PER_COURSE} lessons)`;
  const page = (label: string, view: View, rows: number): Case => ({
    group,
    label,
    target: 100,
    run: async () => expectCount(label, (await getCourseProgress(course, view)).rows.length, rows),
  });
  return [
    page('getCourseProgress: first page by name', byName, PROGRESS_PAGE_SIZE),
    page(
      'getCourseProgress: page 10 by last activity, newest first',
      { ...byName, sort: 'last_activity', descending: true, page: 9 },
      PROGRESS_PAGE_SIZE,
    ),
    page('getCourseProgress: search by address', { ...byName, search: 'l123@' }, 1),
    {
      group,
      label: 'getAllCourseProgress: every row (the CSV export)',
      target: 100,
      run: async () =>
        expectCount('export', (await getAllCourseProgress(course, byName)).length, learners),
    },
  ];
}

/**
 * Organization analytics: the api functions of src/web/features/org-insights (decisions
 * 0135–0136), run unchanged by the web app's client signed in as the organization's owner
 * and admin, as the analytics and reports screens call them.
 */
async function analyticsCases(
  server: RunningServer,
  admin: { email: string },
  organization: string,
): Promise<Case[]> {
  await webAppSignIn(server, admin.email);
  const insights = await import('../src/web/features/org-insights/api/get-organization-insights');
  const courses = await import('../src/web/features/org-insights/api/get-course-insights');
  const boards = await import('../src/web/features/org-insights/api/get-board-insights');
  const report = await import('../src/web/features/org-insights/api/get-organization-report');
  const { noFilters } = await import('../src/web/features/org-insights/report-filters');
  const group = 'organization analytics (organization admin and owner)';
  return [
    {
      group,
      label: 'getOrganizationInsights: totals',
      target: 200,
      run: async () => {
        const totals = await insights.getOrganizationInsights(organization, null);
        expectCount('courses', totals.courses, 1, Number.MAX_SAFE_INTEGER);
      },
    },
    {
      group,
      label: 'getCourseInsights: first page of courses',
      target: 200,
      run: async () => {
        const page = await courses.getCourseInsights(organization, null, '', 0);
        expectCount('course rows', page.courses.length, 1, courses.COURSE_PAGE_SIZE);
      },
    },
    {
      group,
      label: 'getBoardInsights: per board (owner)',
      target: 200,
      run: async () => {
        await boards.getBoardInsights(organization);
      },
    },
    {
      group,
      label: 'getOrganizationReport: the 25-row preview',
      target: 200,
      run: async () =>
        expectCount(
          'report rows',
          (await report.getOrganizationReport(organization, noFilters, 25)).rows.length,
          25,
        ),
    },
  ];
}

interface Result {
  case: Case;
  m: LoopMeasurement;
  /** The first failure of the case's call, if any (its errors count in `m`). */
  firstError?: unknown;
}

function report(results: Result[], size: SeedSize, load: { before: number; after: number }) {
  const fmt = (ms: number) => ms.toFixed(1);
  const header = ['query', 'p50 ms', 'p95 ms', 'p99 ms', 'target', 'req/s', 'n', 'errors', ''];
  const lines: string[][] = [];
  let group = '';
  for (const { case: c, m } of results) {
    if (c.group !== group) {
      group = c.group;
      lines.push([`${group}:`, '', '', '', '', '', '', '', '']);
    }
    const verdict =
      m.errors > 0 ? 'ERRORS' : c.target === null ? '' : m.p99Ms < c.target ? 'met' : 'MISSED';
    lines.push([
      `  ${c.label}`,
      fmt(m.p50Ms),
      fmt(m.p95Ms),
      fmt(m.p99Ms),
      c.target === null ? '' : `< ${c.target}`,
      m.requestsPerSecond.toFixed(0),
      String(m.total),
      String(m.errors),
      verdict,
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ');
  console.log(
    `Learning queries through supabase-js with RLS on PostgreSQL: ` +
      `${size.learners.toLocaleString()} learners, ${size.courses.toLocaleString()} courses, ` +
      `${(size.learners * ENROLMENTS_PER_LEARNER).toLocaleString()} enrolments, ` +
      `${(size.learners * ENROLMENTS_PER_LEARNER * LESSONS_PER_COURSE).toLocaleString()} progress rows ` +
      `(scale ${SCALE}); one client, ${SECONDS} s per case; ${os.cpus().length} CPUs, ` +
      `load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after`,
  );
  console.log(row(header));
  for (const l of lines) console.log(row(l));
  const missed = results.filter((r) => r.case.target !== null && r.m.p99Ms >= r.case.target);
  console.log(
    missed.length === 0
      ? 'Every target met.'
      : `MISSED ${missed.length} target(s): ${missed.map((r) => r.case.label).join('; ')}`,
  );
}

/** Runs each case once with auto_explain on and prints the plans its statements got. */
async function explainCases(cluster: PostgresCluster, cases: Case[]) {
  const [setting] = await adminQuery<{ dir: string }>(
    cluster,
    `select current_setting('data_directory') as dir`,
  );
  const file = path.join(setting!.dir, 'log', 'postgresql.log');
  await adminQuery(cluster, `alter system set auto_explain.log_min_duration = 0`);
  await adminQuery(cluster, `select pg_reload_conf()`);
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const c of cases) {
    const from = fs.existsSync(file) ? fs.statSync(file).size : 0;
    await c.run();
    // The logging collector writes asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const text = fs.readFileSync(file, 'utf8').slice(from);
    const plans = text
      .split(/\n(?=\S+ \S+ UTC \[\d+\] LOG: {2}duration:)/)
      .filter((entry) => !/Query Text: (select set_config|begin|commit)/i.test(entry))
      .filter((entry) => /Query Text:/.test(entry));
    console.log(`\n===== ${c.group}: ${c.label}\n${plans.join('\n')}`);
  }
  await adminQuery(cluster, `alter system set auto_explain.log_min_duration = -1`);
  await adminQuery(cluster, `select pg_reload_conf()`);
}

async function main() {
  const size = sizeFor(SCALE);
  const cluster = await startPostgresCluster();
  try {
    await tuneCluster(cluster);
    const bench = await startBenchServer('postgres', cluster, 'learning', {
      NODE_ENV: 'production',
      DATABASE_POOL_SIZE: '10',
      API_RATE_LIMIT_PER_SECOND: '100000000',
    });
    const { server } = bench;
    try {
      const { db } = server.deps;
      log(
        `seeding ${size.learners.toLocaleString()} learners, ${size.courses.toLocaleString()} courses ` +
          `(scale ${SCALE}) in ${os.tmpdir()}`,
      );
      const seedStarted = performance.now();
      await db.transaction((tx) =>
        seedLearning(tx, size, (label, work) => timed(`  ${label}`, work)),
      );
      await timed('  vacuum analyze', () => db.exec('vacuum analyze'));
      const seedSeconds = (performance.now() - seedStarted) / 1000;
      const [counts] = (
        await db.query<{ enrolments: number; progress: number; bytes: string }>(
          `select (select count(*) from public.enrollments)::int as enrolments,
                  (select count(*) from public.lesson_progress)::int as progress,
                  pg_size_pretty(pg_database_size(current_database())) as bytes`,
        )
      ).rows;
      console.log(
        `Seeded ${counts!.enrolments.toLocaleString()} enrolments and ` +
          `${counts!.progress.toLocaleString()} progress rows in ${seedSeconds.toFixed(0)} s; ` +
          `database ${counts!.bytes}.`,
      );

      const [ids] = (
        await db.query<{
          org: string;
          learner: string;
          instructor: string;
          admin: string;
          course: string;
        }>(
          `select ${benchIds.organization}::text as org, ${benchIds.learner('1')}::text as learner,
                  ${benchIds.instructor('1')}::text as instructor, ${benchIds.admin}::text as admin,
                  ${benchIds.course('1')}::text as course`,
        )
      ).rows;
      const service = createClient(server.url, server.deps.keys.serviceRoleKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        realtime: { transport: RealtimeUnused as never },
      });
      for (const [id, email] of [
        [ids!.learner, 'l1@bench.test'],
        [ids!.instructor, 'i1@bench.test'],
        [ids!.admin, 'admin@bench.test'],
      ] as const) {
        const { error } = await service.auth.admin.updateUserById(id, { password: PASSWORD });
        if (error) throw new Error(`set the password of ${email}: ${error.message}`);
      }

      // The web app's client is one per process: each actor's cases run while it is signed in.
      const bigCourse = Math.min(BIG_COURSE_LEARNERS, size.learners);
      const actors: (() => Promise<Case[]>)[] = [
        () => learnerCases(server, { id: ids!.learner, email: 'l1@bench.test' }, ids!.org),
        () => instructorCases(server, { email: 'i1@bench.test' }, ids!.course, bigCourse),
        () => analyticsCases(server, { email: 'admin@bench.test' }, ids!.org),
      ];

      const before = os.loadavg()[0]!;
      const results: Result[] = [];
      for (const casesOf of actors) {
        const cases = await casesOf();
        if (EXPLAIN) await explainCases(cluster, cases);
        for (const c of cases) {
          let firstError: unknown;
          const run = () =>
            c.run().catch((error: unknown) => {
              firstError ??= error;
              throw error;
            });
          await measureLoop(run, { connections: 1, seconds: 1 });
          const m = await measureLoop(run, { connections: 1, seconds: SECONDS });
          results.push({ case: c, m, firstError });
        }
      }
      report(results, size, { before, after: os.loadavg()[0]! });
      // A call that errs or answers the wrong rows measures nothing: show why, fail the bench.
      for (const r of results.filter((x) => x.firstError !== undefined)) {
        console.error(`${r.case.label}:`, r.firstError);
        process.exitCode = 1;
      }
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
