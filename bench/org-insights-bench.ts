/**
 * Organization analytics benchmark (issue 11, decision 0135): seeds one organization on a
 * throwaway PostgreSQL cluster with triggers off, recounts the counters once with
 * `learning.rebuild_insights()` (timed), then measures through supabase-js with RLS on, one
 * client at a time, as the owner:
 *   - the analytics procedures (target p99 < 200 ms),
 *   - the report's first page, whole and filtered,
 *   - a learner's progress write, which now also moves the counters.
 *
 *   node --import tsx bench/org-insights-bench.ts [seconds-per-case] [learners] [courses]
 *
 * The issue's full scale is 100000 learners and 1000 courses (bench/learning-bench.ts seeds it);
 * the default here, 20000 learners and 1000 courses (200,000 enrolments, 2,000,000 progress
 * rows), keeps every per-course and per-board read at full size and seeds in a few minutes.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import type { RunningServer } from '../src/server/start';
import { startPostgresCluster } from '../tests/support/postgres-cluster';
import { startBenchServer } from './lib/bench-server';
import { measureLoop, type Measurement } from './lib/measure';

const SECONDS = Number(process.argv[2] ?? 5);
const LEARNERS = Number(process.argv[3] ?? 20_000);
const COURSES = Number(process.argv[4] ?? 1_000);
const PER_LEARNER = 10;
const LESSONS = 10;
const BOARDS = 10;
const BATCH = 5_000;

const learnerId = (n: string) => `md5('l' || (${n})::text)::uuid`;
const courseId = (n: string) => `md5('c' || (${n})::text)::uuid`;
const boardId = (n: string) => `md5('b' || (${n})::text)::uuid`;
const lessonId = (course: string, k: string) =>
  `md5('s' || (${course})::text || '-' || (${k})::text)::uuid`;
const ORG = `md5('org')::uuid`;
const OWNER = `md5('owner')::uuid`;
const courseOf = (u: string, k: string) => `((${u}) * 7 + (${k}) * 101) % ${COURSES} + 1`;

function log(message: string) {
  process.stderr.write(`[org-insights-bench] ${message}\n`);
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

async function seed(server: RunningServer) {
  const { db } = server.deps;
  // Triggers off while seeding, as bench/learning-bench.ts does; rebuild_insights() recounts.
  const bulk = (text: string, params: unknown[] = []) =>
    db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      await tx.query(text, params);
    });
  const inBatches = async (label: string, text: string) => {
    for (let from = 1; from <= LEARNERS; from += BATCH) {
      await bulk(text, [from, Math.min(LEARNERS, from + BATCH - 1)]);
    }
    log(`  ${label}`);
  };
  await timed('seed', async () => {
    await bulk(`insert into auth.users (id, email) values (${OWNER}, 'owner@bench.test')`);
    await inBatches(
      'learners',
      `insert into auth.users (id, email) select ${learnerId('g')}, 'l' || g || '@bench.test'
         from generate_series($1::int, $2::int) g`,
    );
    await bulk(`insert into public.organizations (id, name, slug, owner_id)
                values (${ORG}, 'Bench University', 'bench', ${OWNER})`);
    await bulk(`insert into public.memberships (user_id, organization_id, role)
                values (${OWNER}, ${ORG}, 'org_admin')`);
    await bulk(
      `insert into public.boards (id, organization_id, name, slug)
       select ${boardId('g')}, ${ORG}, 'Board ' || g, 'board-' || g from generate_series(1, ${BOARDS}) g`,
    );
    await inBatches(
      'memberships',
      `insert into public.memberships (user_id, organization_id, board_id, role)
       select ${learnerId('g')}, ${ORG}, ${boardId(`g % ${BOARDS} + 1`)}, 'learner'
         from generate_series($1::int, $2::int) g`,
    );
    await bulk(
      `insert into public.courses (id, organization_id, title, subject, published, visibility)
       select ${courseId('g')}, ${ORG}, 'Course ' || g, 'Subject ' || (g % 20), true, 'organization'
         from generate_series(1, ${COURSES}) g`,
    );
    await bulk(
      `insert into public.modules (id, course_id, position, title)
       select ${courseId('g')}, ${courseId('g')}, 1, 'Module' from generate_series(1, ${COURSES}) g`,
    );
    await bulk(
      `insert into public.lessons (id, module_id, course_id, position, title, kind, body)
       select ${lessonId('g', 'k')}, ${courseId('g')}, ${courseId('g')}, k, 'Lesson ' || k,
              'markdown', 'Text'
         from generate_series(1, ${COURSES}) g, generate_series(1, ${LESSONS}) k`,
    );
    await bulk(
      `insert into public.assessments (id, course_id, module_id, title, published)
       select ${courseId('g')}, ${courseId('g')}, ${courseId('g')}, 'Quiz', true
         from generate_series(1, ${COURSES}) g`,
    );
    await inBatches(
      'enrolments',
      `insert into public.enrollments (user_id, course_id, progress_percent, status, enrolled_at)
       select ${learnerId('u')}, ${courseId(courseOf('u', 'k'))},
              case when (u + k) % 4 = 0 then 100 else 50 end,
              case when (u + k) % 4 = 0 then 'completed' else 'active' end,
              now() - ((u + k) % 365) * interval '1 day'
         from generate_series($1::int, $2::int) u, generate_series(0, ${PER_LEARNER - 1}) k`,
    );
    await inBatches(
      'progress',
      `insert into public.lesson_progress
         (user_id, lesson_id, course_id, status, completed_at, updated_at)
       select ${learnerId('u')}, ${lessonId(courseOf('u', 'k'), 'j')}, ${courseId(courseOf('u', 'k'))},
              'completed', now(), now() - ((u * 17 + k * 3 + j) % 720) * interval '1 hour'
         from generate_series($1::int, $2::int) u, generate_series(0, ${PER_LEARNER - 1}) k,
              generate_series(1, ${LESSONS}) j`,
    );
    await inBatches(
      'attempts',
      `insert into public.assessment_attempts
         (assessment_id, course_id, user_id, attempt_number, answers, verdicts, status, score)
       select ${courseId(courseOf('u', '0'))}, ${courseId(courseOf('u', '0'))}, ${learnerId('u')}, 1,
              '{}', '[]', 'graded', (u % 101)
         from generate_series($1::int, $2::int) u`,
    );
  });
  await timed('learning.rebuild_insights()', () => db.exec('select learning.rebuild_insights()'));
  await timed('vacuum analyze', () => db.exec('vacuum analyze'));
}

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

function row(label: string, m: Measurement, target?: number) {
  return {
    case: label,
    'req/s': Math.round(m.requestsPerSecond),
    'p50 ms': Number(m.p50Ms.toFixed(2)),
    'p99 ms': Number(m.p99Ms.toFixed(2)),
    target: target ? `< ${target}` : '',
    errors: m.errors,
  };
}

function ok({ error }: { error: { message: string } | null }) {
  if (error) throw new Error(error.message);
}

async function main() {
  const cluster = await startPostgresCluster();
  try {
    const bench = await startBenchServer('postgres', cluster, 'insights', {
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
      const { rows } = await server.deps.db.query<{
        org: string;
        owner: string;
        learner: string;
        course: string;
        board: string;
        lesson: string;
      }>(
        `select ${ORG}::text as org, ${OWNER}::text as owner, ${learnerId('1')}::text as learner,
                ${courseId(courseOf('1', '0'))}::text as course, ${boardId('1')}::text as board,
                ${lessonId(courseOf('1', '0'), '1')}::text as lesson`,
      );
      const ids = rows[0]!;
      const owner = await clientFor(server, ids.owner);
      const learner = await clientFor(server, ids.learner);
      const org = { organization_id: ids.org };
      let tick = 0;

      const cases: { label: string; target?: number; run: () => Promise<void> }[] = [
        {
          label: 'get_organization_insights',
          target: 200,
          run: async () => ok(await owner.rpc('get_organization_insights', org)),
        },
        {
          label: 'get_course_insights (first page of 1,000 courses)',
          target: 200,
          run: async () => ok(await owner.rpc('get_course_insights', { ...org, page_size: 10 })),
        },
        {
          label: 'get_course_insights (search)',
          target: 200,
          run: async () =>
            ok(await owner.rpc('get_course_insights', { ...org, search: 'Course 12' })),
        },
        {
          label: 'get_board_insights (10 boards)',
          target: 200,
          run: async () => ok(await owner.rpc('get_board_insights', org)),
        },
        {
          label: 'get_organization_report (100 newest)',
          run: async () => ok(await owner.rpc('get_organization_report', org)),
        },
        {
          label: 'get_organization_report (one course)',
          run: async () =>
            ok(await owner.rpc('get_organization_report', { ...org, course_id: ids.course })),
        },
        {
          label: 'get_organization_report (one board, 30 days)',
          run: async () =>
            ok(
              await owner.rpc('get_organization_report', {
                ...org,
                board_id: ids.board,
                enrolled_from: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10),
              }),
            ),
        },
        {
          label: "learner's progress write (with counters)",
          run: async () => {
            tick += 1;
            ok(
              await learner.from('lesson_progress').upsert({
                lesson_id: ids.lesson,
                course_id: ids.course,
                status: 'completed',
                completed_at: new Date().toISOString(),
                time_spent_seconds: tick,
              }),
            );
          },
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
        `Organization analytics through supabase-js with RLS on PostgreSQL: ${LEARNERS.toLocaleString()} learners, ` +
          `${COURSES.toLocaleString()} courses, ${(LEARNERS * PER_LEARNER).toLocaleString()} enrolments, ` +
          `${(LEARNERS * PER_LEARNER * LESSONS).toLocaleString()} progress rows, one client`,
      );
      console.table(results);
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
