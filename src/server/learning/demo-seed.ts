/**
 * The demo organization of an embedded first start (decision 0101): "Lyceum University" with
 * its two faculties, one account of each role and the sample courses of content/courses/.
 * Each step is its own short transaction (the embedded database serves requests between
 * them) and can run again, so a start that fails half-way finishes on the next start.
 */
import type { Config } from '../config';
import { createUser } from '../auth/accounts';
import { hashPassword } from '../auth/passwords';
import { findUserByEmail } from '../auth/users';
import type { Database, Queryable } from '../db/types';
import type { Logger } from '../logger';
import {
  CourseContentError,
  defaultCoursesDir,
  listCourseDirectories,
  readCourseDirectory,
  type CourseContent,
} from './course-content';

/** Printed at first start and listed in the README; demo databases only. */
export const DEMO_PASSWORD = 'lyceum-demo-only';

export const demoOrganization = { name: 'Lyceum University', slug: 'lyceum-university' };

export const demoBoards = [
  { slug: 'arts', name: 'Faculty of Arts' },
  { slug: 'science', name: 'Faculty of Science' },
] as const;

type DemoRole =
  'owner' | 'board_admin' | 'instructor' | 'learner' | 'compliance_officer' | 'platform_admin';

export const demoAccounts: readonly {
  email: string;
  name: string;
  role: DemoRole;
  label: string;
}[] = [
  {
    email: 'owner@lyceum-university.example',
    name: 'Demo Owner',
    role: 'owner',
    label: 'Owner and org admin',
  },
  {
    email: 'arts-admin@lyceum-university.example',
    name: 'Demo Arts Admin',
    role: 'board_admin',
    label: 'Board admin of the Faculty of Arts',
  },
  {
    email: 'instructor@lyceum-university.example',
    name: 'Demo Instructor',
    role: 'instructor',
    label: 'Instructor',
  },
  {
    email: 'student@lyceum-university.example',
    name: 'Demo Student',
    role: 'learner',
    label: 'Student',
  },
  {
    email: 'compliance@lyceum-university.example',
    name: 'Demo Compliance Officer',
    role: 'compliance_officer',
    label: 'Compliance officer',
  },
  {
    email: 'platform-admin@lyceum-university.example',
    name: 'Demo Platform Admin',
    role: 'platform_admin',
    label: 'Platform admin (coupons)',
  },
];

const SEED_NAME = 'demo';

/** Start-up: seeds in embedded mode with DEMO_SEED on (never in production), once. */
export async function seedDemoOnFirstStart(
  config: Config,
  db: Database,
  log: Logger,
): Promise<DemoSeedResult> {
  if (!config.demoSeed || config.isProduction || db.kind !== 'pglite') {
    return { seeded: false, courses: [] };
  }
  return seedLearningDemo(db, log);
}

export interface DemoSeedResult {
  seeded: boolean;
  courses: string[];
}

export async function seedLearningDemo(
  db: Database,
  log: Logger,
  options: { coursesDir?: string } = {},
): Promise<DemoSeedResult> {
  const claimed = await db.query(
    `insert into learning.seed_runs (name, state) values ($1, 'running')
     on conflict (name) do nothing returning name`,
    [SEED_NAME],
  );
  if (claimed.rows.length === 0) return { seeded: false, courses: [] };

  try {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const people = await db.transaction((tx) => seedPeople(tx, passwordHash));

    const courses: string[] = [];
    for (const dir of listCourseDirectories(options.coursesDir ?? defaultCoursesDir())) {
      let content: CourseContent;
      try {
        content = readCourseDirectory(dir);
      } catch (error) {
        if (!(error instanceof CourseContentError)) throw error;
        log.warn('demo seed: course skipped, its content is invalid', {
          dir,
          problems: error.problems,
        });
        continue;
      }
      const added = await db.transaction((tx) => seedCourse(tx, people, content));
      if (added) courses.push(content.manifest.slug);
    }

    await db.transaction((tx) => seedLiveRoom(tx, people));

    await db.query(
      `update learning.seed_runs set state = 'done', updated_at = now() where name = $1`,
      [SEED_NAME],
    );
    log.info(
      `Demo organization "${demoOrganization.name}" seeded with ${courses.length} courses. ` +
        `Demo accounts (demo only; DEMO_SEED=false prevents this seed), password ${DEMO_PASSWORD} for ` +
        demoAccounts.map((a) => `${a.email} (${a.label})`).join(', '),
      { courses },
    );
    return { seeded: true, courses };
  } catch (error) {
    await db.query('delete from learning.seed_runs where name = $1', [SEED_NAME]);
    throw error;
  }
}

interface DemoPeople {
  organization: string;
  boards: Record<(typeof demoBoards)[number]['slug'], string>;
  users: Record<DemoRole, string>;
}

async function seedPeople(tx: Queryable, passwordHash: string): Promise<DemoPeople> {
  const users = {} as Record<DemoRole, string>;
  for (const account of demoAccounts) {
    const existing = await findUserByEmail(tx, account.email);
    const user =
      existing ??
      (await createUser(tx, {
        email: account.email,
        passwordHash,
        userMetadata: { display_name: account.name, full_name: account.name },
        confirmed: true,
      }));
    users[account.role] = user.id;
  }

  const { rows: orgs } = await tx.query<{ id: string }>(
    `insert into public.organizations (name, slug, tier, owner_id) values ($1, $2, 'enterprise', $3)
     on conflict (slug) do update set name = public.organizations.name
     returning id`,
    [demoOrganization.name, demoOrganization.slug, users.owner],
  );
  const organization = orgs[0]!.id;
  const { rows: boardRows } = await tx.query<{ id: string; slug: 'arts' | 'science' }>(
    `insert into public.boards (organization_id, slug, name)
     select $1, b.slug, b.name from jsonb_to_recordset($2::jsonb) as b(slug text, name text)
     on conflict (organization_id, slug) do update set name = public.boards.name
     returning id, slug`,
    [organization, JSON.stringify(demoBoards)],
  );
  const boards = Object.fromEntries(boardRows.map((b) => [b.slug, b.id])) as DemoPeople['boards'];

  // The student studies in both faculties; the Arts admin administers that faculty only (an
  // org_admin membership of the board); the others work across the organization.
  const memberships = [
    { user: users.board_admin, board: boards.arts, role: 'org_admin' },
    { user: users.instructor, board: null, role: 'instructor' },
    { user: users.learner, board: boards.arts, role: 'learner' },
    { user: users.learner, board: boards.science, role: 'learner' },
    { user: users.compliance_officer, board: null, role: 'compliance_officer' },
  ];
  await tx.query(
    `insert into public.memberships (user_id, organization_id, board_id, role, created_by)
     select m.user_id, $1, m.board_id, m.role, $2
       from jsonb_to_recordset($3::jsonb) as m(user_id uuid, board_id uuid, role text)
     on conflict do nothing`,
    [
      organization,
      users.owner,
      JSON.stringify(
        memberships.map((m) => ({ user_id: m.user, board_id: m.board, role: m.role })),
      ),
    ],
  );
  // The platform's operator (coupons for the beta gate, decision 0601), and the organization's
  // Enterprise tier as a subscription, so its members' plan and allowances say so (0600).
  await tx.query(
    `insert into public.user_roles (user_id, role) values ($1, 'admin') on conflict do nothing`,
    [users.platform_admin],
  );
  await tx.query(
    `insert into public.subscribers (organization_id, tier, status, source)
     values ($1, 'enterprise', 'active', 'coupon') on conflict do nothing`,
    [organization],
  );
  return { organization, boards, users };
}

/** One course with its modules, lessons, bank, a quiz per module, and the student enrolled. */
async function seedCourse(
  tx: Queryable,
  people: DemoPeople,
  { manifest, bodies, questions }: CourseContent,
): Promise<boolean> {
  const { rows: existing } = await tx.query(
    'select 1 from public.courses where organization_id = $1 and slug = $2',
    [people.organization, manifest.slug],
  );
  if (existing.length > 0) return false;

  const { rows: courseRows } = await tx.query<{ id: string }>(
    `insert into public.courses
       (organization_id, slug, title, subject, description, published, visibility, sample, owner_id)
     values ($1, $2, $3, $4, $5, true, 'organization', true, $6)
     returning id`,
    [
      people.organization,
      manifest.slug,
      manifest.title,
      manifest.subject,
      manifest.description,
      people.users.instructor,
    ],
  );
  const course = courseRows[0]!.id;
  await tx.query(
    `insert into public.course_boards (course_id, board_id, organization_id) values ($1, $2, $3)`,
    [course, people.boards[manifest.board], people.organization],
  );
  await tx.query(
    `insert into public.course_instructors (course_id, user_id, added_by) values ($1, $2, $3)`,
    [course, people.users.instructor, people.users.owner],
  );

  const { rows: moduleRows } = await tx.query<{ id: string; slug: string }>(
    `insert into public.modules (course_id, position, slug, title, summary)
     select $1, m.position, m.slug, m.title, m.summary
       from jsonb_to_recordset($2::jsonb) as m(position int, slug text, title text, summary text)
     returning id, slug`,
    [
      course,
      JSON.stringify(
        manifest.modules.map((m, i) => ({
          position: i + 1,
          slug: m.slug,
          title: m.title,
          summary: m.summary,
        })),
      ),
    ],
  );
  const moduleIds = new Map(moduleRows.map((m) => [m.slug, m.id]));

  const lessons = manifest.modules.flatMap((m) =>
    m.lessons.map((lesson, i) => ({
      module_id: moduleIds.get(m.slug),
      position: i + 1,
      slug: lesson.slug,
      title: lesson.title,
      body: bodies.get(`${m.slug}/${lesson.slug}`),
      estimated_minutes: lesson.estimated_minutes,
    })),
  );
  await tx.query(
    `insert into public.lessons
       (module_id, course_id, position, slug, title, kind, body, estimated_minutes)
     select l.module_id, $1, l.position, l.slug, l.title, 'markdown', l.body, l.estimated_minutes
       from jsonb_to_recordset($2::jsonb)
         as l(module_id uuid, position int, slug text, title text, body text, estimated_minutes int)`,
    [course, JSON.stringify(lessons)],
  );

  const { rows: questionRows } = await tx.query<{ id: string; module_id: string; slug: string }>(
    `insert into public.questions
       (course_id, module_id, slug, type, prompt, choices, answer, key_points, hints,
        worked_example, misconceptions, difficulty, prerequisite)
     select $1, q.module_id, q.slug, q.type, q.prompt, q.choices, q.answer, q.key_points, q.hints,
            q.worked_example, q.misconceptions, q.difficulty, q.prerequisite
       from jsonb_to_recordset($2::jsonb) as q(
         module_id uuid, slug text, type text, prompt text, choices jsonb, answer jsonb,
         key_points jsonb, hints jsonb, worked_example text, misconceptions jsonb,
         difficulty smallint, prerequisite jsonb)
     returning id, module_id, slug`,
    [
      course,
      JSON.stringify(
        questions.map((q) => ({
          module_id: moduleIds.get(q.module),
          slug: q.id,
          type: q.type,
          prompt: q.prompt,
          choices: q.type === 'multiple_choice' ? q.choices : null,
          answer: q.answer,
          key_points: q.key_points,
          hints: q.hints,
          worked_example: q.worked_example,
          misconceptions: q.misconceptions,
          difficulty: q.difficulty,
          prerequisite: q.prerequisite,
        })),
      ),
    ],
  );

  // A quiz per module drawn from that module's questions, in the file's order.
  const quizModules = manifest.modules.filter((m) =>
    questionRows.some((q) => q.module_id === moduleIds.get(m.slug)),
  );
  const { rows: quizRows } = await tx.query<{ id: string; module_id: string }>(
    `insert into public.assessments (course_id, module_id, title, published, max_attempts, created_by)
     select $1, a.module_id, a.title, true, 3, $3
       from jsonb_to_recordset($2::jsonb) as a(module_id uuid, title text)
     returning id, module_id`,
    [
      course,
      JSON.stringify(
        quizModules.map((m) => ({ module_id: moduleIds.get(m.slug), title: `Quiz: ${m.title}` })),
      ),
      people.users.instructor,
    ],
  );
  const quizByModule = new Map(quizRows.map((q) => [q.module_id, q.id]));
  const fileOrder = new Map(questions.map((q, i) => [q.id, i]));
  const byFileOrder = [...questionRows].sort(
    (a, b) => fileOrder.get(a.slug)! - fileOrder.get(b.slug)!,
  );
  const positions = new Map<string, number>();
  await tx.query(
    `insert into public.assessment_questions (assessment_id, question_id, course_id, position)
     select a.assessment_id, a.question_id, $1, a.position
       from jsonb_to_recordset($2::jsonb) as a(assessment_id uuid, question_id uuid, position int)`,
    [
      course,
      JSON.stringify(
        byFileOrder.map((q) => {
          const position = (positions.get(q.module_id) ?? 0) + 1;
          positions.set(q.module_id, position);
          return { assessment_id: quizByModule.get(q.module_id), question_id: q.id, position };
        }),
      ),
    ],
  );

  await tx.query(
    `insert into public.enrollments (user_id, course_id, enrolled_by) values ($1, $2, $3)
     on conflict do nothing`,
    [people.users.learner, course, people.users.owner],
  );
  return true;
}

/**
 * The respiratory-system course's live room opens with the instructor's welcome, marked as a
 * sample (decision 0310): how the room works and what the next session starts from.
 */
async function seedLiveRoom(tx: Queryable, people: DemoPeople): Promise<void> {
  await tx.query(
    `insert into public.live_messages (course_id, user_id, from_instructor, body, sample)
     select c.id, $2, true, $3, true
       from public.courses c
      where c.organization_id = $1 and c.slug = 'respiratory-system'
        and not exists (select 1 from public.live_messages m where m.course_id = c.id)`,
    [
      people.organization,
      people.users.instructor,
      'Welcome to the live room of The respiratory system. During a session, ask your questions ' +
        'here, raise your hand when you would like to speak, and answer the questions I open to ' +
        'the room. Before our next session, revise how the diaphragm and the external ' +
        'intercostal muscles enlarge the chest so that air flows in: we will start there.',
    ],
  );
}
