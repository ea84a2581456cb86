/**
 * Two universities for the public API's tests: each with an owner, an org admin, learners, a
 * published course with a lesson and a quiz, enrolments, lesson progress and a graded attempt.
 * Accounts are made with one SQL insert each and given signed access tokens, so building the
 * world costs no password hashing.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { signUserToken, testClient, type TestServer } from '../support/test-server';
import { insertRow, questionRow, unique } from './learning-fixture';

export interface Person {
  id: string;
  email: string;
  client: SupabaseClient;
}

export interface University {
  id: string;
  name: string;
  owner: Person;
  admin: Person;
  learner: Person;
  /** A member of the organization not enrolled in its course. */
  newcomer: Person;
  course: string;
  lesson: string;
  assessment: string;
  /** The learner's enrolment in the course. */
  enrolment: string;
  /** The learner's graded attempt at the quiz. */
  attempt: string;
}

export interface PublicApiWorld {
  a: University;
  b: University;
  /** An account in no organization. */
  outsider: Person;
}

export async function createPerson(server: TestServer, label: string): Promise<Person> {
  const email = `${unique(label)}@example.edu`;
  const { rows } = await server.deps.db.query<{ id: string }>(
    `insert into auth.users (email, email_confirmed_at, raw_user_meta_data)
     values ($1, now(), jsonb_build_object('full_name', $2::text)) returning id`,
    [email, `${label} ${email.split('@')[0]}`],
  );
  const id = rows[0]!.id;
  return { id, email, client: testClient(server, server.anonKey, await signUserToken(server, id)) };
}

async function createUniversity(server: TestServer, name: string): Promise<University> {
  const service = server.service();
  const [owner, admin, learner, newcomer] = [
    await createPerson(server, `${name} owner`),
    await createPerson(server, `${name} admin`),
    await createPerson(server, `${name} learner`),
    await createPerson(server, `${name} newcomer`),
  ];
  const org = await insertRow<{ id: string }>(service, 'organizations', {
    name,
    slug: unique(name.toLowerCase().replace(/\W+/g, '-')),
    owner_id: owner.id,
  });
  for (const [person, role] of [
    [admin, 'org_admin'],
    [learner, 'learner'],
    [newcomer, 'learner'],
  ] as const) {
    await insertRow(service, 'memberships', { user_id: person.id, organization_id: org.id, role });
  }
  const course = await insertRow<{ id: string }>(service, 'courses', {
    organization_id: org.id,
    title: `${name}: Cell biology`,
    subject: 'Biology',
    published: true,
    visibility: 'organization',
  });
  const module = await insertRow<{ id: string }>(service, 'modules', {
    course_id: course.id,
    position: 1,
    title: 'Cells',
  });
  const lesson = await insertRow<{ id: string }>(service, 'lessons', {
    module_id: module.id,
    course_id: course.id,
    position: 1,
    title: 'The cell membrane',
    kind: 'markdown',
    body: '# Membranes\n\nA lipid bilayer.',
    estimated_minutes: 5,
  });
  const question = await insertRow<{ id: string }>(
    service,
    'questions',
    questionRow(course.id, module.id, 'gas'),
  );
  const assessment = await insertRow<{ id: string }>(service, 'assessments', {
    course_id: course.id,
    module_id: module.id,
    title: 'Cells: quiz',
    published: true,
    max_attempts: 1,
  });
  await insertRow(service, 'assessment_questions', {
    assessment_id: assessment.id,
    question_id: question.id,
    course_id: course.id,
    position: 1,
  });
  const enrolment = await insertRow<{ id: string }>(service, 'enrollments', {
    user_id: learner.id,
    course_id: course.id,
  });
  const progress = await learner.client
    .from('lesson_progress')
    .insert({ lesson_id: lesson.id, course_id: course.id, status: 'in_progress' });
  if (progress.error) throw new Error(`world progress: ${progress.error.message}`);
  const attempt = await learner.client.rpc('submit_assessment_attempt', {
    assessment_id: assessment.id,
    answers: { [question.id]: { choice: 'a' } },
  });
  if (attempt.error) throw new Error(`world attempt: ${attempt.error.message}`);
  return {
    id: org.id,
    name,
    owner,
    admin,
    learner,
    newcomer,
    course: course.id,
    lesson: lesson.id,
    assessment: assessment.id,
    enrolment: enrolment.id,
    attempt: (attempt.data as { id: string }).id,
  };
}

export async function buildPublicApiWorld(server: TestServer): Promise<PublicApiWorld> {
  return {
    a: await createUniversity(server, 'Alpha University'),
    b: await createUniversity(server, 'Beta College'),
    outsider: await createPerson(server, 'Outsider'),
  };
}

interface Answer<T> {
  status: number;
  body: T & { code?: string; error?: string; message?: string; hint?: string };
}

/** Calls an edge function and returns the status and body, refusals included. */
export async function callFunction<T = Record<string, unknown>>(
  client: SupabaseClient,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const { data, error, response } = await client.functions.invoke(path, {
    method,
    body: body as Record<string, unknown> | string | undefined,
  });
  if (!error) return { status: response!.status, body: data as Answer<T>['body'] };
  const failed = (error as { context?: Response }).context;
  if (!failed) throw error;
  return { status: failed.status, body: (await failed.json()) as Answer<T>['body'] };
}
