/**
 * Learning data benchmark (issue 11): seeds one organization on a throwaway PostgreSQL cluster
 * with LEARNERS learners, COURSES courses of 10 lessons, ten enrolments per learner (about
 * 1,000,000 at full scale) with progress on every lesson (about 10,000,000 rows), a 500-learner
 * course, quizzes and attempts, then measures through supabase-js with RLS on, one client at
 * a time:
 *   - the learner dashboard's queries (target p99 < 50 ms),
 *   - an instructor's progress table for the 500-learner course (target p99 < 100 ms).
 *
 *   node --import tsx bench/learning-bench.ts [seconds-per-case] [learners] [courses]
 *
 * Full scale is 100000 learners and 1000 courses; a smaller run (e.g. `3 10000 100`) checks the
 * bench and the query plans in a few minutes.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import type { RunningServer } from '../src/server/start';
import { startPostgresCluster } from '../tests/support/postgres-cluster';
import { startBenchServer } from './lib/bench-server';
import { measureLoop, type Measurement } from './lib/measure';

const SECONDS = Number(process.argv[2] ?? 5);
const LEARNERS = Number(process.argv[3] ?? 100_000);
const COURSES = Number(process.argv[4] ?? 1_000);
const PER_LEARNER = 10;
const LESSONS = 10;
/** Course 1 is the instructor's: exactly this many learners. */
const BIG_COURSE_LEARNERS = 500;
const INSTRUCTORS = Math.max(1, Math.floor(COURSES / 5));
const BATCH = 20_000;
/** `explain` as the fifth argument prints the plans of the heaviest queries instead of timing. */
const EXPLAIN = process.argv[5] === 'explain';

function log(message: string) {
  process.stderr.write(`[learning-bench] ${message}\n`);
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** Deterministic ids, so rows can name each other without lookups. */
const learnerId = (n: string) => `md5('l' || (${n})::text)::uuid`;
const instructorId = (n: string) => `md5('i' || (${n})::text)::uuid`;
const courseId = (n: string) => `md5('c' || (${n})::text)::uuid`;
const moduleId = (n: string) => `md5('m' || (${n})::text)::uuid`;
const lessonId = (course: string, k: string) =>
  `md5('s' || (${course})::text || '-' || (${k})::text)::uuid`;
const ORG = `md5('org')::uuid`;
const ADMIN = `md5('admin')::uuid`;

/** The k-th course (0-based) of learner u: never course 1, distinct for k < PER_LEARNER. */
const courseOf = (u: string, k: string) => `((${u}) * 7 + (${k}) * 101) % ($COURSES - 1) + 2`;

function row(label: string, m: Measurement, target: number) {
  return {
    case: label,
    'req/s': Math.round(m.requestsPerSecond),
    'p50 ms': Number(m.p50Ms.toFixed(2)),
    'p99 ms': Number(m.p99Ms.toFixed(2)),
    target: `< ${target}`,
    errors: m.errors,
    total: m.total,
  };
}

async function seed(server: RunningServer) {
  const { db } = server.deps;
  const sql = (text: string) => text.replaceAll('$COURSES', String(COURSES));
  // Triggers stay off while seeding: each would redo per row what the statements below write
  // directly (progress, role rows, counters).
  const bulk = (text: string, params: unknown[] = []) =>
    db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(sql(text), params);
    });
  const inBatches = async (label: string, total: number, text: string) => {
    for (let from = 1; from <= total; from += BATCH) {
      await bulk(text, [from, Math.min(total, from + BATCH - 1)]);
    }
    log(`  ${label}: ${total.toLocaleString()}`);
  };

  await timed('users', async () => {
    await inBatches(
      'learners',
      LEARNERS,
      `insert into auth.users (id, email) select ${learnerId('g')}, 'l' || g || '@bench.test'
         from generate_series($1::int, $2::int) g`,
    );
    await bulk(
      `insert into auth.users (id, email) select ${instructorId('g')}, 'i' || g || '@bench.test'
         from generate_series(1, $1::int) g
       union all select ${ADMIN}, 'admin@bench.test'`,
      [INSTRUCTORS],
    );
  });
  await timed('organization and memberships', async () => {
    await bulk(`insert into public.organizations (id, name, slug, owner_id)
                values (${ORG}, 'Bench University', 'bench', ${ADMIN})`);
    await bulk(
      `insert into public.boards (organization_id, name, slug)
       select ${ORG}, 'Board ' || g, 'board-' || g from generate_series(1, 10) g`,
    );
    await bulk(`insert into public.memberships (user_id, organization_id, role)
                values (${ADMIN}, ${ORG}, 'org_admin')`);
    await inBatches(
      'learner memberships',
      LEARNERS,
      `insert into public.memberships (user_id, organization_id, role)
       select ${learnerId('g')}, ${ORG}, 'learner' from generate_series($1::int, $2::int) g`,
    );
    await bulk(
      `insert into public.memberships (user_id, organization_id, role)
       select ${instructorId('g')}, ${ORG}, 'instructor' from generate_series(1, $1::int) g`,
      [INSTRUCTORS],
    );
  });
  await timed('courses, modules, lessons, quizzes', async () => {
    await bulk(
      `insert into public.courses (id, organization_id, title, subject, published, visibility)
       select ${courseId('g')}, ${ORG}, 'Course ' || g, 'Subject ' || (g % 20), true, 'organization'
         from generate_series(1, $COURSES) g`,
    );
    await bulk(
      `insert into public.course_instructors (course_id, user_id)
       select ${courseId('g')}, ${instructorId(`(g - 1) % ${INSTRUCTORS} + 1`)}
         from generate_series(1, $COURSES) g`,
    );
    await bulk(
      `insert into public.modules (id, course_id, position, title)
       select ${moduleId('g')}, ${courseId('g')}, 1, 'Module ' || g from generate_series(1, $COURSES) g`,
    );
    await bulk(
      `insert into public.lessons (id, module_id, course_id, position, title, kind, body)
       select ${lessonId('g', 'k')}, ${moduleId('g')}, ${courseId('g')}, k, 'Lesson ' || k,
              'markdown', 'Lesson body.'
         from generate_series(1, $COURSES) g, generate_series(1, ${LESSONS}) k`,
    );
    await bulk(
      `insert into public.assessments (id, course_id, module_id, title, published)
       select ${courseId('g')}, ${courseId('g')}, ${moduleId('g')}, 'Quiz ' || g, true
         from generate_series(1, $COURSES) g`,
    );
    await bulk(
      `insert into public.assignments (course_id, lesson_id, title, due_at)
       select ${courseId('g')}, ${lessonId('g', '1')}, 'Read lesson 1', now() + (g % 30) * interval '1 day'
         from generate_series(1, $COURSES) g`,
    );
  });
  await timed('enrolments and progress', async () => {
    const progress = (percentOf: string) => `least(100, ${percentOf})::smallint`;
    await inBatches(
      'enrolments',
      LEARNERS,
      `insert into public.enrollments (user_id, course_id, progress_percent, status, enrolled_at)
       select ${learnerId('u')}, ${courseId(courseOf('u', 'k'))},
              ${progress('((u + k) % 11) * 10')},
              case when (u + k) % 11 = 10 then 'completed' else 'active' end,
              now() - ((u * 13 + k) % 365) * interval '1 day'
         from generate_series($1::int, $2::int) u, generate_series(0, ${PER_LEARNER - 1}) k`,
    );
    await bulk(
      `insert into public.enrollments (user_id, course_id, progress_percent)
       select ${learnerId('u')}, ${courseId('1')}, 30 from generate_series(1, $1::int) u`,
      [Math.min(BIG_COURSE_LEARNERS, LEARNERS)],
    );
    // Lesson j of an enrolment is completed when j <= its progress / 10.
    await inBatches(
      'progress rows (x10 per enrolment)',
      LEARNERS,
      `insert into public.lesson_progress
         (user_id, lesson_id, course_id, status, time_spent_seconds, completed_at, updated_at)
       select ${learnerId('u')}, ${lessonId(courseOf('u', 'k'), 'j')}, ${courseId(courseOf('u', 'k'))},
              case when j <= (u + k) % 11 then 'completed' else 'in_progress' end,
              60 * j,
              case when j <= (u + k) % 11 then now() - (u % 90) * interval '1 day' end,
              now() - ((u * 17 + k * 3 + j) % 2000) * interval '1 hour'
         from generate_series($1::int, $2::int) u, generate_series(0, ${PER_LEARNER - 1}) k,
              generate_series(1, ${LESSONS}) j`,
    );
    await bulk(
      `insert into public.lesson_progress (user_id, lesson_id, course_id, status, completed_at)
       select ${learnerId('u')}, ${lessonId('1', 'j')}, ${courseId('1')},
              case when j <= 3 then 'completed' else 'in_progress' end,
              case when j <= 3 then now() end
         from generate_series(1, $1::int) u, generate_series(1, ${LESSONS}) j`,
      [Math.min(BIG_COURSE_LEARNERS, LEARNERS)],
    );
    await inBatches(
      'attempts (one per learner)',
      LEARNERS,
      `insert into public.assessment_attempts
         (assessment_id, course_id, user_id, attempt_number, answers, verdicts, status, score)
       select ${courseId(courseOf('u', '0'))}, ${courseId(courseOf('u', '0'))}, ${learnerId('u')}, 1,
              '{}', '[]', 'graded', (u % 101)
         from generate_series($1::int, $2::int) u`,
    );
  });
  await timed('vacuum analyze', () => db.exec('vacuum analyze'));
  const { rows } = await db.query<{ enrolments: number; progress: number }>(
    `select (select count(*) from public.enrollments)::int as enrolments,
            (select count(*) from public.lesson_progress)::int as progress`,
  );
  log(`seeded: ${JSON.stringify(rows[0])}`);
}

/** realtime-js wants a global WebSocket, which Node 20 lacks; the bench opens no channel. */
class RealtimeUnused {
  constructor() {
    throw new Error('realtime is not used by this benchmark');
  }
}

async function clientFor(server: RunningServer, sub: string): Promise<SupabaseClient> {
  const key = server.deps.keys.current;
  const token = await new jose.SignJWT({ role: 'authenticated', sub, aud: 'authenticated' })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(key.privateKey);
  return createClient(server.url, server.deps.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
    realtime: { transport: RealtimeUnused as never },
  });
}

/** The plans of the instructor's and the learner's heaviest reads, run under their claims. */
async function explain(server: RunningServer, learner: string, instructor: string, course: string) {
  const { db } = server.deps;
  const plans: [string, string, string[]][] = [
    [instructor, 'select * from public.lesson_progress where course_id = $1', [course]],
    [instructor, 'select * from public.enrollments where course_id = $1', [course]],
    [learner, 'select * from public.enrollments where user_id = $1', [learner]],
    [
      learner,
      'select * from public.lesson_progress where user_id = $1 order by updated_at desc limit 5',
      [learner],
    ],
  ];
  for (const [sub, text, params] of plans) {
    const { rows } = await db.asRole({ role: 'authenticated', sub }, (tx) =>
      tx.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${text}`, params),
    );
    console.log(`\n${text}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
}

/** Fails the measurement (as an error) when the query errs or returns an unexpected size. */
function expectRows(min: number, max = Number.POSITIVE_INFINITY) {
  return ({ data, error }: { data: unknown[] | null; error: { message: string } | null }) => {
    if (error) throw new Error(error.message);
    const n = data?.length ?? 0;
    if (n < min || n > max) throw new Error(`expected ${min}–${max} rows, got ${n}`);
  };
}

async function main() {
  const cluster = await startPostgresCluster();
  try {
    const bench = await startBenchServer('postgres', cluster, 'learning', {
      NODE_ENV: 'production',
      DATABASE_POOL_SIZE: '10',
      API_RATE_LIMIT_PER_SECOND: '100000000',
    });
    const { server } = bench;
    try {
      log(
        `seeding ${LEARNERS.toLocaleString()} learners, ${COURSES.toLocaleString()} courses, ` +
          `${(LEARNERS * PER_LEARNER).toLocaleString()} enrolments, ` +
          `${(LEARNERS * PER_LEARNER * LESSONS).toLocaleString()} progress rows`,
      );
      await seed(server);
      const { rows: ids } = await server.deps.db.query<{
        learner: string;
        instructor: string;
        course: string;
      }>(
        `select ${learnerId('1')}::text as learner, ${instructorId('1')}::text as instructor,
                ${courseId('1')}::text as course`,
      );
      const { learner, instructor, course } = ids[0]!;
      if (EXPLAIN) {
        await explain(server, learner, instructor, course);
        return;
      }
      const asLearner = await clientFor(server, learner);
      const asInstructor = await clientFor(server, instructor);
      const { data: mine } = await asLearner
        .from('enrollments')
        .select('course_id')
        .eq('user_id', learner);
      const myCourses = (mine ?? []).map((e) => (e as { course_id: string }).course_id);

      const cases: { label: string; target: number; run: () => Promise<void> }[] = [
        {
          label: 'learner: my enrolments with course titles',
          target: 50,
          run: async () =>
            expectRows(PER_LEARNER)(
              await asLearner
                .from('enrollments')
                .select('course_id, status, progress_percent, enrolled_at, courses(title, subject)')
                .eq('user_id', learner)
                .order('enrolled_at', { ascending: false }),
            ),
        },
        {
          label: 'learner: continue where I left off',
          target: 50,
          run: async () =>
            expectRows(
              5,
              5,
            )(
              await asLearner
                .from('lesson_progress')
                .select('lesson_id, course_id, status, updated_at')
                .eq('user_id', learner)
                .order('updated_at', { ascending: false })
                .limit(5),
            ),
        },
        {
          label: 'learner: assignments due',
          target: 50,
          run: async () =>
            expectRows(1)(
              await asLearner
                .from('assignments')
                .select('id, title, due_at, course_id')
                .in('course_id', myCourses)
                .gte('due_at', new Date().toISOString())
                .order('due_at')
                .limit(10),
            ),
        },
        {
          label: 'learner: recent results',
          target: 50,
          run: async () =>
            expectRows(1)(
              await asLearner
                .from('assessment_attempts')
                .select('id, assessment_id, score, status, submitted_at')
                .eq('user_id', learner)
                .order('submitted_at', { ascending: false })
                .limit(5),
            ),
        },
        {
          label: `instructor: progress table (${BIG_COURSE_LEARNERS} learners x ${LESSONS} lessons)`,
          target: 100,
          run: async () =>
            expectRows(Math.min(BIG_COURSE_LEARNERS, LEARNERS) * LESSONS)(
              await asInstructor
                .from('lesson_progress')
                .select('user_id, lesson_id, status, time_spent_seconds, completed_at')
                .eq('course_id', course),
            ),
        },
        {
          label: `instructor: enrolments of the course`,
          target: 100,
          run: async () =>
            expectRows(Math.min(BIG_COURSE_LEARNERS, LEARNERS))(
              await asInstructor
                .from('enrollments')
                .select('user_id, status, progress_percent, enrolled_at')
                .eq('course_id', course),
            ),
        },
      ];

      const results = [];
      for (const c of cases) {
        await measureLoop(c.run, { connections: 1, seconds: 1 });
        results.push(
          row(c.label, await measureLoop(c.run, { connections: 1, seconds: SECONDS }), c.target),
        );
      }
      console.log(
        `Learning queries through supabase-js with RLS on PostgreSQL: ${LEARNERS.toLocaleString()} learners, ` +
          `${COURSES.toLocaleString()} courses, ${(LEARNERS * PER_LEARNER).toLocaleString()} enrolments, ` +
          `${(LEARNERS * PER_LEARNER * LESSONS).toLocaleString()} progress rows, one client`,
      );
      console.table(results);
      const missed = results.filter(
        (r) => r.errors > 0 || r['p99 ms'] >= Number(r.target.slice(2)),
      );
      for (const r of missed)
        console.log(`MISSED: ${r.case} (p99 ${r['p99 ms']} ms, ${r.errors} errors)`);
      if (missed.length > 0) process.exitCode = 1;
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
