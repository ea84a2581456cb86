/**
 * A world for the study coach's tests: an organization, the sample course "Algebra: Linear
 * Equations" from content/courses with its lessons and question bank, a learner enrolled in
 * it, another learner who is not, and a second course nobody is enrolled in. Helpers send
 * messages through POST /functions/v1/ai-study-chat as a learner would.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { ChatResponse } from '../../src/common/coach-chat';
import { readCourseDirectory } from '../../src/server/learning/course-content';
import { insertRow, unique } from '../support/service-rows';
import type { TestServer } from '../support/test-server';

export interface CoachUser {
  id: string;
  token: string;
  client: SupabaseClient;
}

export interface CoachWorld {
  org: string;
  course: string;
  otherCourse: string;
  firstModule: string;
  learner: CoachUser;
  outsider: CoachUser;
  /** An instructor who teaches the course. */
  teacher: CoachUser;
  /** A right or a wrong answer to a bank question, read from the bank. */
  answer(questionId: string, right: boolean): Promise<string>;
  /** A right or a wrong answer to one of the question's basic (refresher) questions. */
  basicAnswer(questionId: string, index: number, right: boolean): Promise<string>;
  /** How many basic questions the question's refresher has. */
  basicCount(questionId: string): Promise<number>;
  /** A bank question's type. */
  questionType(questionId: string): Promise<string>;
  /** Another learner enrolled in the course, with the free tier's allowance. */
  newLearner(label: string): Promise<CoachUser>;
}

export interface ChatBody {
  session_id?: string;
  mode: 'study' | 'quiz' | 'general';
  course_id?: string;
  topic?: string;
  message: string;
}

async function user(server: TestServer, label: string): Promise<CoachUser> {
  const email = `${unique(label)}@example.com`;
  const password = `pass-${randomUUID()}`;
  const created = await server
    .service()
    .auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error) throw new Error(created.error.message);
  const signIn = await server.anon().auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(signIn.error.message);
  const token = signIn.data.session.access_token;
  return { id: created.data.user.id, token, client: server.withToken(token) };
}

interface KeyedQuestion {
  type: string;
  choices?: { id: string }[] | null;
  answer: { choice?: string; value?: number; text?: string };
}

function answerOf(q: KeyedQuestion, right: boolean): string {
  if (q.type === 'multiple_choice') {
    return right ? q.answer.choice! : q.choices!.find((c) => c.id !== q.answer.choice)!.id;
  }
  if (q.type === 'numeric') return String(right ? q.answer.value : q.answer.value! + 1000);
  return right ? q.answer.text! : 'Because of the weather in spring.';
}

export async function buildCoachWorld(server: TestServer): Promise<CoachWorld> {
  const service = server.service();
  const prerequisite = async (questionId: string) => {
    const { data, error } = await service
      .from('questions')
      .select('prerequisite')
      .eq('id', questionId)
      .single();
    if (error) throw new Error(error.message);
    return (data as { prerequisite: { questions: KeyedQuestion[] } }).prerequisite;
  };
  const content = readCourseDirectory(path.resolve('content/courses/linear-equations'));
  const learner = await user(server, 'coach-learner');
  const outsider = await user(server, 'coach-outsider');
  const teacher = await user(server, 'coach-teacher');
  const org = await insertRow<{ id: string }>(service, 'organizations', {
    name: 'Coach University',
    slug: unique('coach'),
  });
  for (const person of [learner, outsider]) {
    await insertRow(service, 'memberships', {
      user_id: person.id,
      organization_id: org.id,
      role: 'learner',
    });
  }
  const course = await insertRow<{ id: string }>(service, 'courses', {
    organization_id: org.id,
    title: content.manifest.title,
    subject: content.manifest.subject,
    published: true,
    visibility: 'organization',
  });
  const otherCourse = await insertRow<{ id: string }>(service, 'courses', {
    organization_id: org.id,
    title: 'Not enrolled',
    published: true,
    visibility: 'organization',
  });
  const moduleIds = new Map<string, string>();
  for (const [i, module] of content.manifest.modules.entries()) {
    const row = await insertRow<{ id: string }>(service, 'modules', {
      course_id: course.id,
      position: i + 1,
      slug: module.slug,
      title: module.title,
    });
    moduleIds.set(module.slug, row.id);
    for (const [j, lesson] of module.lessons.entries()) {
      await insertRow(service, 'lessons', {
        module_id: row.id,
        course_id: course.id,
        position: j + 1,
        slug: lesson.slug,
        title: lesson.title,
        kind: 'markdown',
        body: content.bodies.get(`${module.slug}/${lesson.slug}`),
      });
    }
  }
  const { error } = await service.from('questions').insert(
    content.questions.map((q) => ({
      course_id: course.id,
      module_id: moduleIds.get(q.module),
      slug: q.id,
      type: q.type,
      prompt: q.prompt,
      choices: 'choices' in q ? q.choices : null,
      answer: q.answer,
      key_points: q.key_points,
      hints: q.hints,
      worked_example: q.worked_example,
      misconceptions: q.misconceptions,
      difficulty: q.difficulty,
      prerequisite: q.prerequisite,
    })),
  );
  if (error) throw new Error(`questions: ${error.message}`);
  await insertRow(service, 'enrollments', { user_id: learner.id, course_id: course.id });
  await insertRow(service, 'memberships', {
    user_id: teacher.id,
    organization_id: org.id,
    role: 'instructor',
  });
  await insertRow(service, 'course_instructors', { user_id: teacher.id, course_id: course.id });
  // The dialogues send hundreds of messages; the free tier's 500 a month is tested on its own.
  const roomy = await service
    .from('user_quotas')
    .update({ monthly_limit: 1_000_000 })
    .in('user_id', [learner.id, outsider.id]);
  if (roomy.error) throw new Error(`user_quotas: ${roomy.error.message}`);

  return {
    org: org.id,
    course: course.id,
    otherCourse: otherCourse.id,
    firstModule: content.manifest.modules[0]!.slug,
    learner,
    outsider,
    teacher,
    async answer(questionId, right) {
      const { data, error: readError } = await service
        .from('questions')
        .select('type, choices, answer')
        .eq('id', questionId)
        .single();
      if (readError) throw new Error(readError.message);
      return answerOf(data as KeyedQuestion, right);
    },
    async basicAnswer(questionId, index, right) {
      return answerOf((await prerequisite(questionId)).questions[index]!, right);
    },
    async basicCount(questionId) {
      return (await prerequisite(questionId)).questions.length;
    },
    async questionType(questionId) {
      const { data, error: readError } = await service
        .from('questions')
        .select('type')
        .eq('id', questionId)
        .single();
      if (readError) throw new Error(readError.message);
      return (data as { type: string }).type;
    },
    async newLearner(label) {
      const person = await user(server, label);
      await insertRow(service, 'memberships', {
        user_id: person.id,
        organization_id: org.id,
        role: 'learner',
      });
      await insertRow(service, 'enrollments', { user_id: person.id, course_id: course.id });
      return person;
    },
  };
}

/** One message to the coach as `who`; the status and the parsed body. */
export async function chat(
  server: TestServer,
  who: CoachUser | undefined,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: ChatResponse & { error?: string; code?: string } }> {
  const response = await fetch(`${server.url}/functions/v1/ai-study-chat`, {
    method: 'POST',
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${who?.token ?? server.anonKey}`,
      'content-type': 'application/json',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as never };
}
