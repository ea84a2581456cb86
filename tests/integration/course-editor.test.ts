/**
 * The course editor's calls through supabase-js (decision 0120): the list of taught courses
 * (taught_courses), a quiz's questions replaced in one step (set_assessment_questions), and
 * the writes the editor makes — each tried by someone who may and by people who may not
 * (another organization's admin with the first organization's ids, a learner, Personal mode),
 * checked afterwards with the service role. Markdown over 1 MB is refused with 413.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import {
  buildLearningFixture,
  insertRow,
  questionRow,
  unique,
  type LearningFixture,
} from './learning-fixture';

interface CourseRow {
  id: string;
  title: string;
  organization_id: string | null;
}

describe.each(databaseKinds)('course editor on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
  });
  afterAll(() => server?.stop());

  async function taught(actor: keyof LearningFixture['users'], search = '') {
    const { data, error } = await f.users[actor].client
      .rpc('taught_courses', { search })
      .order('title');
    expect(error).toBeNull();
    return (data as CourseRow[]).map((c) => c.id);
  }

  describe('taught courses', () => {
    it('lists exactly the courses the caller teaches', async () => {
      expect(await taught('instructor')).toEqual([f.course]);
      expect((await taught('org_admin')).sort()).toEqual([f.course, f.course2].sort());
      expect((await taught('owner')).sort()).toEqual([f.course, f.course2].sort());
      expect(await taught('personal')).toEqual([f.personalCourse]);
      // Enrolled in, or able to find in the catalogue, is not teaching.
      expect(await taught('learner')).toEqual([]);
      expect(await taught('board_admin')).toEqual([]);
      expect(await taught('compliance')).toEqual([]);
      expect(await taught('other_admin')).toEqual([]);
      expect(await taught('deactivated')).toEqual([]);
      const anon = await f.client('anon').rpc('taught_courses', { search: '' });
      expect(anon.error?.code).toBe('42501');
    });

    it('searches title and subject literally and pages with a total', async () => {
      expect(await taught('org_admin', 'ALGEBRA')).toEqual([f.course2]);
      expect(await taught('org_admin', 'respiratory')).toEqual([f.course]);
      expect(await taught('org_admin', '%')).toEqual([]);
      const page = await f.users.org_admin.client
        .rpc('taught_courses', { search: '' }, { count: 'exact' })
        .eq('organization_id', f.orgA)
        .order('title')
        .range(0, 0);
      expect(page.error).toBeNull();
      expect(page.count).toBe(2);
      expect((page.data as CourseRow[]).map((c) => c.title)).toEqual(['Linear equations']);
    });
  });

  describe('creating and editing courses', () => {
    it('lets an instructor create a course of their organization, which they then teach', async () => {
      const created = await f.users.instructor.client
        .from('courses')
        .insert({
          organization_id: f.orgA,
          title: 'Pulmonary physiology',
          subject: 'Human anatomy',
          visibility: 'organization',
          published: false,
        })
        .select('id')
        .single();
      expect(created.error).toBeNull();
      const id = (created.data as { id: string }).id;
      expect(await taught('instructor', 'pulmonary')).toEqual([id]);

      const edited = await f.users.instructor.client
        .from('courses')
        .update({ title: 'Pulmonary physiology II', published: true })
        .eq('id', id)
        .select('title, published')
        .single();
      expect(edited.error).toBeNull();
      expect(edited.data).toEqual({ title: 'Pulmonary physiology II', published: true });
    });

    it('lets a Personal-mode user create a personal course and nobody create in another organization', async () => {
      const mine = await f.users.personal.client
        .from('courses')
        .insert({ owner_id: f.users.personal.id, title: 'My own course', visibility: 'private' })
        .select('id')
        .single();
      expect(mine.error).toBeNull();
      expect(await taught('personal', 'my own')).toEqual([(mine.data as { id: string }).id]);

      for (const actor of ['other_admin', 'learner', 'personal', 'compliance'] as const) {
        const title = unique(`rogue-${actor}`);
        const rogue = await f.users[actor].client
          .from('courses')
          .insert({ organization_id: f.orgA, title });
        expect(rogue.error?.code, actor).toBe('42501');
        const written = await f.service.from('courses').select('id').eq('title', title);
        expect(written.data, actor).toEqual([]);
      }
      const renamed = await f.users.other_admin.client
        .from('courses')
        .update({ title: 'Taken over' })
        .eq('id', f.course)
        .select('id');
      expect(renamed.data).toEqual([]);
      const still = await f.service.from('courses').select('title').eq('id', f.course).single();
      expect(still.data).toEqual({ title: 'The respiratory system' });
    });
  });

  describe('content', () => {
    it("refuses modules, lessons and questions written into another organization's course", async () => {
      for (const actor of ['other_admin', 'learner', 'board_admin'] as const) {
        const client = f.users[actor].client;
        const title = unique(actor);
        const module = await client
          .from('modules')
          .insert({ course_id: f.course, position: 90, title });
        expect(module.error?.code, actor).toBe('42501');
        const lesson = await client.from('lessons').insert({
          course_id: f.course,
          module_id: f.module,
          position: 90,
          title,
          kind: 'markdown',
          body: 'x',
        });
        expect(lesson.error?.code, actor).toBe('42501');
        const question = await client
          .from('questions')
          .insert(questionRow(f.course, f.module, unique('rogue')));
        expect(question.error?.code, actor).toBe('42501');
        const edited = await client
          .from('lessons')
          .update({ title: 'Taken over' })
          .eq('id', f.lesson)
          .select('id');
        expect(edited.data ?? [], actor).toEqual([]);
      }
      const modules = await f.service.from('modules').select('id').gte('position', 90);
      expect(modules.data).toEqual([]);
      const lesson = await f.service.from('lessons').select('title').eq('id', f.lesson).single();
      expect(lesson.data).toEqual({ title: 'Lesson 1' });
      const reorder = await f.users.other_admin.client.rpc('reorder_modules', {
        course_id: f.course,
        module_ids: [f.module],
      });
      expect(reorder.error?.code).toBe('42501');
    });

    it('refuses Markdown over 1 MB with 413 on create and on edit, and keeps the lesson', async () => {
      const send = (method: 'POST' | 'PATCH', path: string, body: unknown) =>
        fetch(`${server.url}/rest/v1/${path}`, {
          method,
          headers: {
            apikey: server.anonKey,
            authorization: `Bearer ${f.users.instructor.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
        });
      const oversize = 'x'.repeat(1_048_577);
      const created = await send('POST', 'lessons', {
        module_id: f.module,
        course_id: f.course,
        position: 80,
        title: 'Too long',
        kind: 'markdown',
        body: oversize,
      });
      expect(created.status).toBe(413);
      expect(await created.json()).toMatchObject({ code: 'PGRST413' });
      const edited = await send('PATCH', `lessons?id=eq.${f.lesson2}`, { body: oversize });
      expect(edited.status).toBe(413);
      const kept = await f.service.from('lessons').select('body').eq('id', f.lesson2).single();
      expect((kept.data as { body: string }).body).toBe(
        '# Breathing\n\nAir enters through the trachea.',
      );

      // Just under the limit is a lesson like any other.
      const large = await f.users.instructor.client
        .from('lessons')
        .update({ body: 'y'.repeat(1_000_000) })
        .eq('id', f.lesson2)
        .select('id');
      expect(large.error).toBeNull();
      expect(large.data).toEqual([{ id: f.lesson2 }]);
    });
  });

  describe('question bank', () => {
    it('names the check a bad question fails, so the editor can show it under its field', async () => {
      const base = questionRow(f.course, f.module, unique('bad'));
      const cases: [string, Record<string, unknown>][] = [
        ['questions_hints_check', { hints: ['Only one hint'] }],
        ['questions_key_points_check', { key_points: ['one', ' '] }],
        ['questions_misconceptions_check', { misconceptions: [] }],
        ['questions_difficulty_check', { difficulty: 4 }],
        ['questions_answer_matches_type', { answer: { choice: 'z' } }],
        [
          'questions_prerequisite_check',
          { prerequisite: { concept: 'x', refresher: 'y', questions: [] } },
        ],
      ];
      for (const [constraint, change] of cases) {
        const slug = unique('bad');
        const { error } = await f.users.instructor.client
          .from('questions')
          .insert({ ...base, ...change, slug });
        expect(error?.code, constraint).toBe('23514');
        expect(error?.message, constraint).toContain(`constraint "${constraint}"`);
        const written = await f.service.from('questions').select('id').eq('slug', slug);
        expect(written.data, constraint).toEqual([]);
      }
    });
  });

  describe('quiz questions', () => {
    it('replaces a quiz’s questions in the given order, for its instructors only', async () => {
      const quiz = await insertRow<{ id: string }>(f.service, 'assessments', {
        course_id: f.course,
        module_id: f.module,
        title: unique('quiz'),
      });
      const set = (actor: keyof LearningFixture['users'], ids: string[]) =>
        f.users[actor].client.rpc('set_assessment_questions', {
          assessment_id: quiz.id,
          question_ids: ids,
        });
      const order = async () => {
        const { data } = await f.service
          .from('assessment_questions')
          .select('question_id, position')
          .eq('assessment_id', quiz.id)
          .order('position');
        return (data as { question_id: string }[]).map((r) => r.question_id);
      };

      expect((await set('instructor', [f.shortQuestion, f.question])).error).toBeNull();
      expect(await order()).toEqual([f.shortQuestion, f.question]);
      expect((await set('org_admin', [f.numericQuestion])).error).toBeNull();
      expect(await order()).toEqual([f.numericQuestion]);

      const otherCourseModule = await insertRow<{ id: string }>(f.service, 'modules', {
        course_id: f.course2,
        position: 1,
        title: 'Equations',
      });
      const foreign = await insertRow<{ id: string }>(
        f.service,
        'questions',
        questionRow(f.course2, otherCourseModule.id, unique('foreign')),
      );
      const mixed = await set('instructor', [f.question, foreign.id]);
      expect(mixed.error?.message).toBe("question_ids must name questions of this quiz's course");
      const twice = await set('instructor', [f.question, f.question]);
      expect(twice.error?.code).toBe('22023');
      for (const actor of ['other_admin', 'learner', 'board_admin', 'personal'] as const) {
        const refused = await set(actor, [f.question]);
        expect(refused.error?.code, actor).toBe('42501');
      }
      expect(await order()).toEqual([f.numericQuestion]);
    });
  });
});
