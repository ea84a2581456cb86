/**
 * The learning bench's data, written in SQL on one connection (issue 11's scale at SCALE = 1):
 * one organization with LEARNERS learners, COURSES courses of 10 lessons taught by one
 * instructor per five courses, ten enrolments per learner with a progress row on every lesson
 * of each, a quiz attempt for every enrolment at least half done, and course 1 with exactly
 * 500 learners (the instructor's progress table).
 *
 * Ids are md5 of a name ('l7' is learner 7), so rows name each other without lookups and the
 * bench finds its actors again. Triggers stay off (session_replication_role = replica): each
 * would redo per row what these statements write directly (profiles, role rows, progress
 * percentages), and foreign keys are not re-checked, since the ids are built to match. The big
 * tables' indexes are dropped before the load and built after it, which is several times
 * faster than maintaining them row by row.
 */
import type { Queryable } from '../src/server/db/types';

export interface SeedSize {
  learners: number;
  courses: number;
}

export const ENROLMENTS_PER_LEARNER = 10;
export const LESSONS_PER_COURSE = 10;
export const BIG_COURSE_LEARNERS = 500;
const COURSES_PER_INSTRUCTOR = 5;

export function instructorsFor(size: SeedSize): number {
  return Math.max(1, Math.floor(size.courses / COURSES_PER_INSTRUCTOR));
}

/** The ids the bench signs in as and reads. */
export const benchIds = {
  organization: `md5('org')::uuid`,
  admin: `md5('admin')::uuid`,
  learner: (n: string) => `md5('l' || (${n})::text)::uuid`,
  instructor: (n: string) => `md5('i' || (${n})::text)::uuid`,
  course: (n: string) => `md5('c' || (${n})::text)::uuid`,
  module: (n: string) => `md5('m' || (${n})::text)::uuid`,
  lesson: (course: string, k: string) =>
    `md5('s' || (${course})::text || '-' || (${k})::text)::uuid`,
};

/** Tables whose indexes are rebuilt after the load (every one of them gets 100,000+ rows). */
const BULK_TABLES = [
  'public.profiles',
  'public.user_roles',
  'public.memberships',
  'public.enrollments',
  'public.lesson_progress',
  'public.assessment_attempts',
];

export type IndexToRebuild = {
  table: string;
  index: string;
  /** The primary key or unique constraint the index backs, if any. */
  constraint: string | null;
  definition: string;
};

/**
 * Drops the indexes of `tables` that no foreign key depends on, and returns what rebuilds them
 * (as the migrations made them, read back from the catalogue).
 */
export async function dropIndexes(tx: Queryable, tables: string[]): Promise<IndexToRebuild[]> {
  const { rows } = await tx.query<IndexToRebuild>(
    `select i.indrelid::regclass::text as "table",
            i.indexrelid::regclass::text as index,
            c.conname as "constraint",
            case when c.oid is null then pg_get_indexdef(i.indexrelid)
                 else pg_get_constraintdef(c.oid) end as definition
       from pg_index i
       left join pg_constraint c on c.conindid = i.indexrelid and c.contype in ('p', 'u')
                                and c.conrelid = i.indrelid
      where i.indrelid = any ($1::regclass[])
        and not exists (
          select 1 from pg_constraint f where f.contype = 'f' and f.conindid = i.indexrelid
        )`,
    [tables],
  );
  for (const r of rows) {
    await tx.query(
      r.constraint
        ? `alter table ${r.table} drop constraint ${quoteIdent(r.constraint)}`
        : `drop index ${r.index}`,
    );
  }
  return rows;
}

export async function rebuildIndexes(tx: Queryable, indexes: IndexToRebuild[]): Promise<void> {
  for (const r of indexes) {
    await tx.query(
      r.constraint
        ? `alter table ${r.table} add constraint ${quoteIdent(r.constraint)} ${r.definition}`
        : r.definition,
    );
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Runs the whole load in one transaction; `step` times and reports each part. */
export async function seedLearning(
  tx: Queryable,
  size: SeedSize,
  step: <T>(label: string, work: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const { learners, courses } = size;
  const instructors = instructorsFor(size);
  const bigCourse = Math.min(BIG_COURSE_LEARNERS, learners);
  const id = benchIds;
  // The k-th course (0-based) of learner u: never course 1, distinct for k < 10.
  const courseOf = (u: string, k: string) => `((${u}) * 7 + (${k}) * 101) % ($2::int - 1) + 2`;

  await tx.query('set local session_replication_role = replica');
  await tx.query(`set local maintenance_work_mem = '512MB'`);
  await tx.query(`set local work_mem = '256MB'`);
  const indexes = await step('drop the big tables’ indexes', () => dropIndexes(tx, BULK_TABLES));

  await step('accounts, profiles, roles', async () => {
    await tx.query(
      `insert into auth.users (id, email, email_confirmed_at)
       select ${id.learner('g')}, 'l' || g || '@bench.test', now() from generate_series(1, $1::int) g
       union all
       select ${id.instructor('g')}, 'i' || g || '@bench.test', now() from generate_series(1, $2::int) g
       union all
       select ${id.admin}, 'admin@bench.test', now()`,
      [learners, instructors],
    );
    // What handle_new_user would have written for each account.
    await tx.query(
      `insert into public.profiles (id, display_name, full_name)
       select u.id, split_part(u.email, '@', 1), 'Bench ' || split_part(u.email, '@', 1)
         from auth.users u where u.email like '%@bench.test'`,
    );
    await tx.query(
      `insert into public.user_roles (user_id, role)
       select u.id, 'learner' from auth.users u where u.email like '%@bench.test'`,
    );
  });

  await step('organization, memberships', async () => {
    await tx.query(
      `insert into public.organizations (id, name, slug, owner_id)
       values (${id.organization}, 'Bench University', 'bench', ${id.admin})`,
    );
    await tx.query(
      `insert into public.memberships (user_id, organization_id, role)
       select ${id.admin}, ${id.organization}, 'org_admin'
       union all
       select ${id.learner('g')}, ${id.organization}, 'learner' from generate_series(1, $1::int) g
       union all
       select ${id.instructor('g')}, ${id.organization}, 'instructor' from generate_series(1, $2::int) g`,
      [learners, instructors],
    );
    // What the memberships triggers would have written: one role row per active membership.
    await tx.query(
      `insert into public.user_roles (user_id, role, organization_id)
       select m.user_id, m.role, m.organization_id from public.memberships m`,
    );
  });

  await step('courses, modules, lessons, quizzes, assignments', async () => {
    await tx.query(
      `insert into public.courses (id, organization_id, owner_id, title, subject, published, visibility)
       select ${id.course('g')}, ${id.organization}, ${id.instructor('(g - 1) % $2::int + 1')},
              'Course ' || g, 'Subject ' || (g % 20), true, 'organization'
         from generate_series(1, $1::int) g`,
      [courses, instructors],
    );
    await tx.query(
      `insert into public.course_instructors (course_id, user_id)
       select ${id.course('g')}, ${id.instructor('(g - 1) % $2::int + 1')}
         from generate_series(1, $1::int) g`,
      [courses, instructors],
    );
    await tx.query(
      `insert into public.modules (id, course_id, position, title)
       select ${id.module('g')}, ${id.course('g')}, 1, 'Module ' || g
         from generate_series(1, $1::int) g`,
      [courses],
    );
    await tx.query(
      `insert into public.lessons (id, module_id, course_id, position, title, kind, body)
       select ${id.lesson('g', 'k')}, ${id.module('g')}, ${id.course('g')}, k, 'Lesson ' || k,
              'markdown', 'Lesson body.'
         from generate_series(1, $1::int) g, generate_series(1, $2::int) k`,
      [courses, LESSONS_PER_COURSE],
    );
    await tx.query(
      `insert into public.assessments (id, course_id, module_id, title, published)
       select ${id.course('g')}, ${id.course('g')}, ${id.module('g')}, 'Quiz ' || g, true
         from generate_series(1, $1::int) g`,
      [courses],
    );
    // Two per course: a lesson to read, due within a month, and the quiz, due in the past.
    await tx.query(
      `insert into public.assignments (course_id, lesson_id, assessment_id, title, due_at)
       select ${id.course('g')}, ${id.lesson('g', '1')}, null, 'Read lesson 1',
              now() + (1 + g % 30) * interval '1 day'
         from generate_series(1, $1::int) g
       union all
       select ${id.course('g')}, null, ${id.course('g')}, 'Take the quiz',
              now() - (1 + g % 30) * interval '1 day'
         from generate_series(1, $1::int) g`,
      [courses],
    );
  });

  await step(
    `enrolments (${(learners * ENROLMENTS_PER_LEARNER + bigCourse).toLocaleString()})`,
    () =>
      // Stored in a scrambled order, as years of sign-ups would leave them, so no screen gets
      // its rows side by side on disk by luck of the load order.
      tx.query(
        `insert into public.enrollments
         (user_id, course_id, progress_percent, status, enrolled_at, completed_at, updated_at)
       select e.user_id, e.course_id, e.percent,
              case when e.percent = 100 then 'completed' else 'active' end,
              e.enrolled_at, case when e.percent = 100 then e.enrolled_at + interval '30 days' end,
              e.enrolled_at
         from (
           select ${id.learner('u')} as user_id, ${id.course(courseOf('u', 'k'))} as course_id,
                  (((u + k) % 11) * 10)::smallint as percent,
                  now() - ((u * 13 + k * 37) % 730) * interval '1 day' as enrolled_at,
                  hashint4(u * 16 + k) as scramble
             from generate_series(1, $1::int) u, generate_series(0, $3::int - 1) k
           union all
           select ${id.learner('u')}, ${id.course('1')}, 30::smallint,
                  now() - (u % 60) * interval '1 day', hashint4(-u)
             from generate_series(1, $4::int) u
         ) e
        order by e.scramble`,
        [learners, courses, ENROLMENTS_PER_LEARNER, bigCourse],
      ),
  );

  // Lessons below the enrolment's percentage are completed, the next one is in progress, the
  // rest not started: progress_percent agrees with the rows, as the trigger would keep it.
  // One pass per lesson position, each in the enrolments' scrambled order, so one learner's or
  // one course's rows lie all over the table.
  await step(
    `lesson progress (${(learners * ENROLMENTS_PER_LEARNER * LESSONS_PER_COURSE + bigCourse * LESSONS_PER_COURSE).toLocaleString()})`,
    async () => {
      for (let position = 1; position <= LESSONS_PER_COURSE; position++) {
        await tx.query(
          `insert into public.lesson_progress
           (user_id, lesson_id, course_id, status, time_spent_seconds, completed_at, updated_at)
         select e.user_id, l.id, e.course_id,
                case when l.position * 10 <= e.progress_percent then 'completed'
                     when (l.position - 1) * 10 = e.progress_percent then 'in_progress'
                     else 'not_started' end,
                case when (l.position - 1) * 10 <= e.progress_percent then 300 + 60 * l.position else 0 end,
                case when l.position * 10 <= e.progress_percent
                     then e.enrolled_at + l.position * interval '1 day' end,
                e.enrolled_at + l.position * interval '1 day'
                  + (hashtext(e.user_id::text) & 1023) * interval '1 minute'
           from public.enrollments e
           join public.lessons l on l.course_id = e.course_id and l.position = $1::int`,
          [position],
        );
      }
    },
  );

  await step('quiz attempts (one per enrolment at least half done)', () =>
    tx.query(
      `insert into public.assessment_attempts
         (assessment_id, course_id, user_id, attempt_number, answers, verdicts, status, score,
          started_at, submitted_at, graded_at)
       select e.course_id, e.course_id, e.user_id, 1, '{}', '[]', 'graded',
              (abs(hashtext(e.user_id::text || e.course_id::text)) % 101)::numeric,
              e.enrolled_at + interval '10 days', e.enrolled_at + interval '10 days',
              e.enrolled_at + interval '10 days'
         from public.enrollments e
        where e.progress_percent >= 50`,
    ),
  );

  await step(`indexes (${indexes.length}, built after the load)`, () =>
    rebuildIndexes(tx, indexes),
  );
  // The analytics counters (decision 0135) from the rows, as their triggers would have kept them.
  await step('analytics counters (learning.rebuild_insights)', () =>
    tx.query('select learning.rebuild_insights()'),
  );
}
