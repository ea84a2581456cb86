/**
 * The learning procedures (quiz submission and grading, board enrolment, reordering) and the
 * rules that policies alone cannot show: role changes that act at once, progress that clients
 * cannot forge, content limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, insertRow, type LearningFixture } from './learning-fixture';

describe.each(databaseKinds)('learning procedures on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
  });
  afterAll(() => server?.stop());

  async function quiz(options: { due_at?: string; questions: string[] }) {
    const created = await f.users.instructor.client
      .from('assessments')
      .insert({
        course_id: f.course,
        module_id: f.module,
        title: 'Breathing check',
        published: true,
        due_at: options.due_at ?? null,
      })
      .select('id')
      .single();
    expect(created.error).toBeNull();
    const id = (created.data as { id: string }).id;
    const linked = await f.users.instructor.client.from('assessment_questions').insert(
      options.questions.map((question_id, i) => ({
        assessment_id: id,
        question_id,
        course_id: f.course,
        position: i + 1,
      })),
    );
    expect(linked.error).toBeNull();
    return id;
  }

  describe('quizzes', () => {
    it('grades multiple choice and numeric answers at once and leaves short text to the instructor', async () => {
      const id = await quiz({ questions: [f.question, f.numericQuestion, f.shortQuestion] });
      const learner = f.users.learner.client;

      const shown = await learner.rpc('get_assessment_questions', { assessment_id: id });
      expect(shown.error).toBeNull();
      expect(shown.data).toHaveLength(3);
      expect(JSON.stringify(shown.data)).not.toMatch(/answer|misconception|hints/);
      const bank = await learner.from('questions').select('answer').eq('id', f.question);
      expect(bank.data).toEqual([]);

      const submitted = await learner.rpc('submit_assessment_attempt', {
        assessment_id: id,
        answers: {
          [f.question]: { choice: 'b' },
          [f.numericQuestion]: { value: 12.4 },
          [f.shortQuestion]: { text: 'Oxygen diffuses into the capillaries.' },
        },
      });
      expect(submitted.error).toBeNull();
      expect(submitted.data).toMatchObject({
        status: 'awaiting_grading',
        score: null,
        verdicts: [
          {
            question_id: f.question,
            verdict: 'incorrect',
            feedback: 'Nitrogen is inhaled but not absorbed in any useful amount.',
          },
          { question_id: f.numericQuestion, verdict: 'correct', feedback: null },
          { question_id: f.shortQuestion, verdict: 'pending', feedback: null },
        ],
      });
      const attemptId = (submitted.data as { id: string }).id;

      const byLearner = await learner.rpc('grade_assessment_attempt', {
        attempt_id: attemptId,
        verdicts: { [f.shortQuestion]: true },
      });
      expect(byLearner.error?.message).toBe(
        'Only an instructor of this course can grade this attempt',
      );

      const notShort = await f.users.instructor.client.rpc('grade_assessment_attempt', {
        attempt_id: attemptId,
        verdicts: { [f.question]: true },
      });
      expect(notShort.error?.message).toContain('Only short-text questions of this attempt');

      const graded = await f.users.instructor.client.rpc('grade_assessment_attempt', {
        attempt_id: attemptId,
        verdicts: { [f.shortQuestion]: true },
        feedback: 'Good: name the capillaries too.',
      });
      expect(graded.error).toBeNull();
      expect(graded.data).toMatchObject({
        status: 'graded',
        score: 66.67,
        feedback: 'Good: name the capillaries too.',
        graded_by: f.users.instructor.id,
      });
      const seen = await learner
        .from('assessment_attempts')
        .select('score, feedback')
        .eq('id', attemptId);
      expect(seen.data).toEqual([{ score: 66.67, feedback: 'Good: name the capillaries too.' }]);
    });

    it('refuses a second submission, a late one, and one from outside the course', async () => {
      const twice = await f.users.learner.client.rpc('submit_assessment_attempt', {
        assessment_id: f.assessment,
        answers: { [f.question]: { choice: 'a' } },
      });
      expect(twice.error).toMatchObject({
        message: 'This quiz has already been submitted',
        details: 'already_submitted',
      });

      const closed = await quiz({ due_at: '2020-01-01T00:00:00Z', questions: [f.question] });
      const late = await f.users.learner.client.rpc('submit_assessment_attempt', {
        assessment_id: closed,
        answers: { [f.question]: { choice: 'a' } },
      });
      expect(late.error?.message).toBe(
        'This quiz closed at 2020-01-01 00:00 UTC; answers are no longer accepted',
      );

      for (const outsider of ['other_learner', 'personal', 'deactivated', 'compliance'] as const) {
        const refused = await f.users[outsider].client.rpc('submit_assessment_attempt', {
          assessment_id: f.assessment,
          answers: {},
        });
        expect(refused.error?.message, outsider).toBe(
          'You can submit only quizzes of courses you are enrolled in',
        );
      }

      const open = await quiz({ questions: [f.question] });
      const stranger = await f.users.learner.client.rpc('submit_assessment_attempt', {
        assessment_id: open,
        answers: { [f.numericQuestion]: { value: 1 } },
      });
      expect(stranger.error?.message).toBe(
        `These answers name no question of this quiz: ${f.numericQuestion}`,
      );
      const badShape = await f.users.learner.client.rpc('submit_assessment_attempt', {
        assessment_id: open,
        answers: { [f.question]: { choice: 3 } },
      });
      expect(badShape.error?.message).toContain('must name a choice');
      const { data: attempts } = await f.service
        .from('assessment_attempts')
        .select('id')
        .eq('assessment_id', open);
      expect(attempts).toEqual([]);
    });
  });

  describe('enrolling a board', () => {
    it('enrols the active learners of a board in a course distributed to it, once', async () => {
      await insertRow(f.service, 'memberships', {
        user_id: f.users.spare.id,
        organization_id: f.orgA,
        board_id: f.boardArts,
        role: 'learner',
      });
      const first = await f.users.board_admin.client.rpc('enroll_board', {
        course_id: f.course,
        board_id: f.boardArts,
      });
      expect(first).toMatchObject({ data: 1, error: null });
      const again = await f.users.board_admin.client.rpc('enroll_board', {
        course_id: f.course,
        board_id: f.boardArts,
      });
      expect(again.data).toBe(0);
      const { data: enrolled } = await f.service
        .from('enrollments')
        .select('user_id, enrolled_by')
        .eq('course_id', f.course)
        .eq('user_id', f.users.spare.id);
      expect(enrolled).toEqual([
        { user_id: f.users.spare.id, enrolled_by: f.users.board_admin.id },
      ]);
      // The deactivated learner of the board was not brought back.
      const { data: deactivated } = await f.service
        .from('enrollments')
        .select('enrolled_by')
        .eq('user_id', f.users.deactivated.id);
      expect(deactivated).toEqual([{ enrolled_by: null }]);
    });

    it('refuses a course not distributed to the board and callers who do not administer it', async () => {
      const notDistributed = await f.users.org_admin.client.rpc('enroll_board', {
        course_id: f.course2,
        board_id: f.boardArts,
      });
      expect(notDistributed.error?.message).toBe('This course is not distributed to this board');
      for (const caller of ['learner', 'instructor', 'other_admin', 'compliance'] as const) {
        const refused = await f.users[caller].client.rpc('enroll_board', {
          course_id: f.course,
          board_id: f.boardArts,
        });
        expect(refused.error?.message, caller).toBe('Only an admin of this board can enrol it');
      }
    });
  });

  describe('enrolling one user', () => {
    it("lets an organization admin enrol its members, and nobody enrol another organization's", async () => {
      const enrol = (actor: 'org_admin' | 'other_admin' | 'instructor', userId: string) =>
        f.users[actor].client.from('enrollments').insert({ user_id: userId, course_id: f.course2 });
      const enrolled = async (userId: string) =>
        (
          await f.service
            .from('enrollments')
            .select('enrolled_by')
            .eq('course_id', f.course2)
            .eq('user_id', userId)
        ).data;

      expect((await enrol('org_admin', f.users.compliance.id)).error).not.toBeNull();
      expect((await enrol('org_admin', f.users.other_learner.id)).error).not.toBeNull();
      expect((await enrol('other_admin', f.users.other_learner.id)).error).not.toBeNull();
      expect((await enrol('instructor', f.users.learner.id)).error).not.toBeNull();
      expect(await enrolled(f.users.other_learner.id)).toEqual([]);
      expect(await enrolled(f.users.learner.id)).toEqual([]);

      expect((await enrol('org_admin', f.users.learner.id)).error).toBeNull();
      expect(await enrolled(f.users.learner.id)).toEqual([{ enrolled_by: f.users.org_admin.id }]);
      await f.service
        .from('enrollments')
        .delete()
        .eq('course_id', f.course2)
        .eq('user_id', f.users.learner.id);
    });
  });

  describe('ordering', () => {
    it('reorders modules and lessons for an instructor, and refuses lists that are not a permutation', async () => {
      const instructor = f.users.instructor.client;
      const added = await instructor
        .from('modules')
        .insert([
          { course_id: f.course, position: 2, title: 'The diaphragm' },
          { course_id: f.course, position: 3, title: 'Gas exchange' },
        ])
        .select('id');
      expect(added.error).toBeNull();
      const [second, third] = (added.data as { id: string }[]).map((m) => m.id);
      const order = [third!, f.module, second!];
      expect(
        (await instructor.rpc('reorder_modules', { course_id: f.course, module_ids: order })).error,
      ).toBeNull();
      const { data: modules } = await instructor
        .from('modules')
        .select('id')
        .eq('course_id', f.course)
        .order('position');
      expect(modules!.map((m) => m.id)).toEqual(order);

      const missing = await instructor.rpc('reorder_modules', {
        course_id: f.course,
        module_ids: [third!, f.module],
      });
      expect(missing.error?.message).toBe(
        'module_ids must list each module of the course exactly once',
      );
      const byLearner = await f.users.learner.client.rpc('reorder_modules', {
        course_id: f.course,
        module_ids: order,
      });
      expect(byLearner.error?.message).toBe(
        'Only an instructor of this course can reorder its modules',
      );

      // Lessons: swap the two, then move the first into the diaphragm module.
      expect(
        (
          await instructor.rpc('reorder_lessons', {
            module_id: f.module,
            lesson_ids: [f.lesson2, f.lesson],
          })
        ).error,
      ).toBeNull();
      const { data: lessons } = await instructor
        .from('lessons')
        .select('id')
        .eq('module_id', f.module)
        .order('position');
      expect(lessons!.map((l) => l.id)).toEqual([f.lesson2, f.lesson]);
      const moved = await instructor.rpc('reorder_lessons', {
        module_id: second!,
        lesson_ids: [f.lesson],
      });
      expect(moved.error).toBeNull();
      const { data: movedLesson } = await instructor
        .from('lessons')
        .select('module_id')
        .eq('id', f.lesson);
      expect(movedLesson).toEqual([{ module_id: second }]);
      const foreign = await instructor.rpc('reorder_lessons', {
        module_id: second!,
        lesson_ids: [f.lesson, f.users.spare.id],
      });
      expect(foreign.error?.message).toContain('only lessons of this course');
    });
  });

  describe('roles and progress', () => {
    it('applies a reactivation and a deactivation to the very next request, with the same token', async () => {
      // The fixture's deactivated learner is still active in B, so no ban ends their session
      // (decision 0130) and only A's policies decide what the token reaches.
      const person = f.users.deactivated;
      const visible = async () =>
        (await person.client.from('courses').select('id').eq('id', f.course)).data;
      const setActive = (active: boolean) =>
        f.service
          .from('memberships')
          .update({ active })
          .eq('user_id', person.id)
          .eq('organization_id', f.orgA);
      expect(await visible()).toEqual([]);
      await setActive(true);
      expect(await visible()).toEqual([{ id: f.course }]);
      await setActive(false);
      expect(await visible()).toEqual([]);
      const ownRows = await person.client.from('enrollments').select('id').eq('user_id', person.id);
      expect(ownRows.data).toEqual([]);
    });

    it("carries the user's active roles in the token's app_metadata from the next sign-in", async () => {
      const signIn = await server.anon().auth.signInWithPassword({
        email: f.users.instructor.email,
        password: f.users.instructor.password,
      });
      expect(signIn.data.user?.app_metadata.roles).toEqual(['instructor', 'learner']);
      const deactivated = await server.anon().auth.signInWithPassword({
        email: f.users.deactivated.email,
        password: f.users.deactivated.password,
      });
      expect(deactivated.data.user?.app_metadata.roles).toEqual(['learner']);
      const mine = await f.users.owner.client.rpc('has_role', {
        uid: f.users.owner.id,
        role_name: 'owner',
        scope: f.orgA,
      });
      expect(mine.data).toBe(true);
      const notB = await f.users.owner.client.rpc('has_role', {
        uid: f.users.owner.id,
        role_name: 'org_admin',
        scope: f.orgB,
      });
      expect(notB.data).toBe(false);
    });

    it('keeps enrolment progress in step with completed lessons; a learner cannot write it', async () => {
      const course = await insertRow<{ id: string }>(f.service, 'courses', {
        organization_id: f.orgA,
        title: 'Cell biology',
        published: true,
      });
      const module = await insertRow<{ id: string }>(f.service, 'modules', {
        course_id: course.id,
        position: 1,
        title: 'Cells',
      });
      const lessons = [];
      for (const position of [1, 2]) {
        lessons.push(
          await insertRow<{ id: string }>(f.service, 'lessons', {
            module_id: module.id,
            course_id: course.id,
            position,
            title: `Cells ${position}`,
            kind: 'markdown',
            body: 'Cells are the unit of life.',
          }),
        );
      }
      await insertRow(f.service, 'enrollments', {
        user_id: f.users.learner.id,
        course_id: course.id,
      });
      const learner = f.users.learner.client;
      const forged = await learner
        .from('enrollments')
        .update({ progress_percent: 100 })
        .eq('course_id', course.id);
      expect(forged.error).not.toBeNull();

      const complete = (lessonId: string) =>
        learner.from('lesson_progress').upsert({
          lesson_id: lessonId,
          course_id: course.id,
          status: 'completed',
          completed_at: new Date().toISOString(),
        });
      expect((await complete(lessons[0]!.id)).error).toBeNull();
      const enrolment = async () =>
        (
          await learner
            .from('enrollments')
            .select('progress_percent, status')
            .eq('course_id', course.id)
        ).data;
      expect(await enrolment()).toEqual([{ progress_percent: 50, status: 'active' }]);
      expect((await complete(lessons[1]!.id)).error).toBeNull();
      expect(await enrolment()).toEqual([{ progress_percent: 100, status: 'completed' }]);
    });
  });

  describe('content limits', () => {
    it('refuses Markdown over 1 MB with 413 and questions whose fields do not fit their type', async () => {
      const response = await fetch(`${server.url}/rest/v1/lessons`, {
        method: 'POST',
        headers: {
          apikey: server.anonKey,
          authorization: `Bearer ${f.users.instructor.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          module_id: f.module,
          course_id: f.course,
          position: 40,
          title: 'Too long',
          kind: 'markdown',
          body: 'x'.repeat(1_048_577),
        }),
      });
      expect(response.status).toBe(413);

      const twoChoices = await f.users.instructor.client.from('questions').insert({
        course_id: f.course,
        module_id: f.module,
        slug: 'two-choices',
        type: 'multiple_choice',
        prompt: 'Yes or no?',
        choices: [
          { id: 'y', text: 'Yes' },
          { id: 'n', text: 'No' },
        ],
        answer: { choice: 'y' },
        key_points: ['one', 'two'],
        hints: ['one', 'two'],
        worked_example: 'x',
        misconceptions: [{ misconception: 'x', feedback: 'y' }],
        difficulty: 1,
        prerequisite: { concept: 'x', refresher: 'y', questions: [] },
      });
      expect(twoChoices.error?.code).toBe('23514');

      const pdfOutsideCourse = await f.users.instructor.client.from('lessons').insert({
        module_id: f.module,
        course_id: f.course,
        position: 41,
        title: 'Reading',
        kind: 'pdf',
        file_path: `${f.course2}/reading.pdf`,
      });
      expect(pdfOutsideCourse.error?.code).toBe('23514');
    });
  });
});
