/**
 * The instructor's teaching procedures (decision 0125) through supabase-js: the courses one
 * teaches, a course's progress table (sorting, filtering, paging, refusals), the grading queue,
 * an attempt opened and graded (twice, or one that does not exist, refused clearly), and goals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, insertRow, unique, type LearningFixture } from './learning-fixture';

interface ProgressRow {
  user_id: string;
  full_name: string;
  email: string;
  progress_status: string;
  lessons_completed: number;
  lessons_total: number;
  percent: number;
  time_spent_seconds: number;
  last_activity: string | null;
  average_score: number | null;
  awaiting_grading: number;
  total_count: number;
}

const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

describe.each(databaseKinds)('teaching procedures on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  /** Learners added to the fixture's course, by first name. */
  const added: Record<string, { id: string; email: string }> = {};
  let shortQuiz: string;
  let waitingAttempt: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
    const service = f.service;
    for (const name of [
      'Bea Completed',
      'Carl Struggling',
      'Dora Idle',
      'Evan Waiting',
      'Finn Away',
    ]) {
      const email = `${unique(name.split(' ')[0]!.toLowerCase())}@example.com`;
      const created = await service.auth.admin.createUser({
        email,
        email_confirm: true,
        user_metadata: { full_name: name },
      });
      if (created.error) throw new Error(created.error.message);
      const id = created.data.user.id;
      added[name.split(' ')[0]!] = { id, email };
      await insertRow(service, 'memberships', {
        user_id: id,
        organization_id: f.orgA,
        role: 'learner',
      });
      await insertRow(service, 'enrollments', { user_id: id, course_id: f.course });
    }
    const progress = (
      who: string,
      lesson: string,
      status: 'completed' | 'in_progress',
      seconds: number,
      at: string,
    ) =>
      insertRow(service, 'lesson_progress', {
        user_id: added[who]!.id,
        lesson_id: lesson,
        course_id: f.course,
        status,
        time_spent_seconds: seconds,
        completed_at: status === 'completed' ? at : null,
        updated_at: at,
      });
    // Last activity, newest first: Evan, Bea, Carl, Finn (30 days ago); Dora has none.
    await progress('Bea', f.lesson, 'completed', 600, days(0.2));
    await progress('Bea', f.lesson2, 'completed', 300, days(0.1));
    await progress('Carl', f.lesson, 'completed', 120, days(0.3));
    await progress('Evan', f.lesson, 'in_progress', 60, days(0.05));
    await progress('Finn', f.lesson, 'in_progress', 30, days(30));
    await insertRow(service, 'assessment_attempts', {
      assessment_id: f.assessment,
      course_id: f.course,
      user_id: added.Carl!.id,
      attempt_number: 1,
      answers: { [f.question]: { choice: 'b' } },
      verdicts: [{ question_id: f.question, verdict: 'incorrect', feedback: null }],
      status: 'graded',
      score: 40,
      submitted_at: days(1),
    });

    // A quiz with a short answer: Evan's attempt (made by the service role, two days old)
    // and, in the grading tests, the fixture learner's own submission.
    const quiz = await insertRow<{ id: string }>(service, 'assessments', {
      course_id: f.course,
      module_id: f.module,
      title: 'Explain gas exchange',
      published: true,
    });
    shortQuiz = quiz.id;
    for (const [i, question] of [f.question, f.shortQuestion].entries()) {
      await insertRow(service, 'assessment_questions', {
        assessment_id: quiz.id,
        question_id: question,
        course_id: f.course,
        position: i + 1,
      });
    }
    const waiting = await insertRow<{ id: string }>(service, 'assessment_attempts', {
      assessment_id: quiz.id,
      course_id: f.course,
      user_id: added.Evan!.id,
      attempt_number: 1,
      answers: { [f.question]: { choice: 'a' }, [f.shortQuestion]: { text: 'Diffusion.' } },
      verdicts: [
        { question_id: f.question, verdict: 'correct', feedback: null },
        { question_id: f.shortQuestion, verdict: 'pending', feedback: null },
      ],
      status: 'awaiting_grading',
      submitted_at: days(2),
    });
    waitingAttempt = waiting.id;
  });
  afterAll(() => server?.stop());

  const progressOf = (actor: Parameters<LearningFixture['client']>[0], args: object) =>
    f.client(actor).rpc('course_progress', { course_id: f.course, ...args });

  describe('the progress table', () => {
    it('gives one row per enrolled learner with their progress, scores and grading', async () => {
      const { data, error } = await progressOf('instructor', { row_limit: null });
      expect(error).toBeNull();
      const rows = data as ProgressRow[];
      // Five added learners, the fixture's learner and its deactivated (still enrolled) one.
      expect(rows).toHaveLength(7);
      expect(rows.every((r) => r.total_count === 7 && r.lessons_total === 2)).toBe(true);
      const byName = Object.fromEntries(rows.map((r) => [r.full_name, r]));
      expect(byName['Bea Completed']).toMatchObject({
        email: added.Bea!.email,
        progress_status: 'completed',
        lessons_completed: 2,
        percent: 100,
        time_spent_seconds: 900,
        average_score: null,
        awaiting_grading: 0,
      });
      expect(byName['Carl Struggling']).toMatchObject({
        progress_status: 'struggling',
        lessons_completed: 1,
        percent: 50,
        average_score: 40,
      });
      expect(byName['Dora Idle']).toMatchObject({
        progress_status: 'not_started',
        lessons_completed: 0,
        time_spent_seconds: 0,
        last_activity: null,
      });
      expect(byName['Evan Waiting']).toMatchObject({
        progress_status: 'in_progress',
        awaiting_grading: 1,
        average_score: null,
      });
      // Nothing done for 30 days: struggling, though no quiz says so.
      expect(byName['Finn Away']).toMatchObject({ progress_status: 'struggling' });
      expect(new Date(byName['Finn Away']!.last_activity!).getTime()).toBeLessThan(
        Date.now() - 29 * 86_400_000,
      );
    });

    it('sorts by each column either way, ties by name', async () => {
      const names = async (sort: string, descending = false) => {
        const { data, error } = await progressOf('instructor', {
          sort,
          descending,
          search: 'e',
          row_limit: null,
        });
        expect(error).toBeNull();
        return (data as ProgressRow[])
          .map((r) => r.full_name)
          .filter((n) => /^[A-Z]/.test(n))
          .join(', ');
      };
      expect(await names('name')).toBe(
        'Bea Completed, Carl Struggling, Dora Idle, Evan Waiting, Finn Away',
      );
      expect(await names('name', true)).toBe(
        'Finn Away, Evan Waiting, Dora Idle, Carl Struggling, Bea Completed',
      );
      expect(await names('percent', true)).toBe(
        'Bea Completed, Carl Struggling, Dora Idle, Evan Waiting, Finn Away',
      );
      expect(await names('time_spent', true)).toBe(
        'Bea Completed, Carl Struggling, Evan Waiting, Finn Away, Dora Idle',
      );
      // Learners without a graded quiz come last whichever way the column is sorted.
      expect(await names('average_score')).toBe(
        'Carl Struggling, Bea Completed, Dora Idle, Evan Waiting, Finn Away',
      );
      expect(await names('awaiting_grading', true)).toBe(
        'Evan Waiting, Bea Completed, Carl Struggling, Dora Idle, Finn Away',
      );
      expect(await names('status')).toBe(
        'Dora Idle, Carl Struggling, Finn Away, Evan Waiting, Bea Completed',
      );
      expect(await names('last_activity', true)).toBe(
        'Evan Waiting, Bea Completed, Carl Struggling, Finn Away, Dora Idle',
      );
      expect(await names('email')).toBe(
        'Bea Completed, Carl Struggling, Dora Idle, Evan Waiting, Finn Away',
      );
    });

    it('filters by name or e-mail and by status, and pages on the server', async () => {
      const search = await progressOf('instructor', { search: '  STRUGGLING ' });
      expect((search.data as ProgressRow[]).map((r) => r.full_name)).toEqual(['Carl Struggling']);
      const byEmail = await progressOf('instructor', { search: added.Dora!.email });
      expect((byEmail.data as ProgressRow[]).map((r) => r.full_name)).toEqual(['Dora Idle']);
      // A pattern character is text, not a wildcard.
      const wildcard = await progressOf('instructor', { search: '%' });
      expect(wildcard.data).toEqual([]);
      const hostile = await progressOf('instructor', { search: "'); drop table goals; --" });
      expect(hostile.error).toBeNull();
      expect(hostile.data).toEqual([]);

      const struggling = await progressOf('instructor', { status: 'struggling' });
      expect((struggling.data as ProgressRow[]).map((r) => r.full_name)).toEqual([
        'Carl Struggling',
        'Finn Away',
      ]);
      const notStarted = await progressOf('instructor', { status: 'not_started' });
      expect((notStarted.data as ProgressRow[]).map((r) => r.full_name)).toContain('Dora Idle');
      expect((notStarted.data as ProgressRow[]).every((r) => r.lessons_completed === 0)).toBe(true);

      const page1 = await progressOf('instructor', { row_limit: 3, row_offset: 0 });
      const page3 = await progressOf('instructor', { row_limit: 3, row_offset: 6 });
      expect(page1.data).toHaveLength(3);
      expect(page3.data).toHaveLength(1);
      expect((page1.data as ProgressRow[])[0]!.total_count).toBe(7);
      expect((page3.data as ProgressRow[])[0]!.total_count).toBe(7);
      const all = await progressOf('instructor', { row_limit: null });
      expect([...(page1.data as ProgressRow[]), ...(page3.data as ProgressRow[])]).toEqual(
        expect.arrayContaining([(all.data as ProgressRow[])[0], (all.data as ProgressRow[])[6]]),
      );
    });

    it('is open to the organization admins and the owner as well', async () => {
      for (const actor of ['org_admin', 'owner'] as const) {
        const { data, error } = await progressOf(actor, { row_limit: null });
        expect(error, actor).toBeNull();
        expect(data, actor).toHaveLength(7);
      }
    });

    it('refuses a learner, a board admin, a compliance officer and another organization', async () => {
      for (const actor of [
        'learner',
        'board_admin',
        'compliance',
        'other_admin',
        'other_learner',
        'personal',
      ] as const) {
        const { data, error, status } = await progressOf(actor, {});
        expect(data, actor).toBeNull();
        expect(status, actor).toBe(403);
        expect(error?.message, actor).toBe(
          'Only an instructor of this course can see its progress',
        );
      }
      const anon = await progressOf('anon', {});
      expect(anon.status).toBe(401);
    });

    it('says which argument is wrong', async () => {
      const cases: [object, string][] = [
        [{ sort: 'password' }, 'sort must be one of name, email, status'],
        [{ status: 'asleep' }, 'status must be one of not_started, in_progress, completed'],
        [{ row_limit: 0 }, 'row_limit must be between 1 and 500'],
        [{ row_limit: 501 }, 'row_limit must be between 1 and 500'],
        [{ row_offset: -1 }, 'row_offset must be 0 or more'],
        [{ search: 'x'.repeat(201) }, 'search is limited to 200 characters'],
      ];
      for (const [args, message] of cases) {
        const { error, status } = await progressOf('instructor', args);
        expect(status, JSON.stringify(args)).toBe(400);
        expect(error?.message).toContain(message);
      }
    });
  });

  describe('the courses one teaches', () => {
    it('lists the taught courses of the organization with learners and attempts to grade', async () => {
      const mine = await f.users.instructor.client.rpc('teaching_courses', {
        organization: f.orgA,
      });
      expect(mine.error).toBeNull();
      expect(mine.data).toEqual([
        expect.objectContaining({
          course_id: f.course,
          title: 'The respiratory system',
          learners: 7,
          awaiting_grading: 1,
        }),
      ]);
      // An organization admin teaches every course of the organization.
      const admin = await f.users.org_admin.client.rpc('teaching_courses', {
        organization: f.orgA,
      });
      expect((admin.data as { course_id: string }[]).map((c) => c.course_id).sort()).toEqual(
        [f.course, f.course2].sort(),
      );
      for (const actor of ['learner', 'compliance', 'other_admin'] as const) {
        const none = await f.client(actor).rpc('teaching_courses', { organization: f.orgA });
        expect(none.data, actor).toEqual([]);
      }
      const personal = await f.users.personal.client.rpc('teaching_courses', {});
      expect((personal.data as { course_id: string }[]).map((c) => c.course_id)).toEqual([
        f.personalCourse,
      ]);
    });
  });

  describe('grading', () => {
    let learnerAttempt: string;

    beforeAll(async () => {
      const submitted = await f.users.learner.client.rpc('submit_assessment_attempt', {
        assessment_id: shortQuiz,
        answers: {
          [f.question]: { choice: 'a' },
          [f.shortQuestion]: { text: 'Oxygen diffuses through the thin alveolar wall.' },
        },
      });
      if (submitted.error) throw new Error(submitted.error.message);
      learnerAttempt = (submitted.data as { id: string }).id;
    });

    it('queues attempts awaiting grading in the taught courses, oldest first', async () => {
      const { data, error } = await f.users.instructor.client.rpc('grading_queue', {
        organization: f.orgA,
      });
      expect(error).toBeNull();
      expect(data).toEqual([
        expect.objectContaining({
          attempt_id: waitingAttempt,
          full_name: 'Evan Waiting',
          email: added.Evan!.email,
          assessment_title: 'Explain gas exchange',
          course_title: 'The respiratory system',
          pending: 1,
          total_count: 2,
        }),
        expect.objectContaining({ attempt_id: learnerAttempt, pending: 1, total_count: 2 }),
      ]);
      const paged = await f.users.instructor.client.rpc('grading_queue', {
        organization: f.orgA,
        row_limit: 1,
        row_offset: 1,
      });
      expect((paged.data as { attempt_id: string }[]).map((r) => r.attempt_id)).toEqual([
        learnerAttempt,
      ]);
      for (const actor of ['learner', 'board_admin', 'compliance', 'other_admin'] as const) {
        const none = await f.client(actor).rpc('grading_queue', { organization: f.orgA });
        expect(none.data, actor).toEqual([]);
      }
      const bad = await f.users.instructor.client.rpc('grading_queue', { row_limit: 1000 });
      expect(bad.error?.message).toBe('row_limit must be between 1 and 100');
    });

    it('opens an attempt with the question, reference answer, key points and the answer', async () => {
      const { data, error } = await f.users.instructor.client.rpc('get_attempt_for_grading', {
        attempt_id: learnerAttempt,
      });
      expect(error).toBeNull();
      expect(data).toMatchObject({
        id: learnerAttempt,
        status: 'awaiting_grading',
        assessment: { id: shortQuiz, title: 'Explain gas exchange' },
        learner: { id: f.users.learner.id, email: f.users.learner.email },
        questions: [
          { id: f.question, type: 'multiple_choice', verdict: 'correct', given: { choice: 'a' } },
          {
            id: f.shortQuestion,
            type: 'short_text',
            verdict: 'pending',
            answer: { text: 'Gas exchange across the alveolar wall.' },
            key_points: [
              'Alveoli are thin-walled',
              'Gases move down their partial-pressure gradient',
            ],
            given: { text: 'Oxygen diffuses through the thin alveolar wall.' },
          },
        ],
      });
      for (const actor of ['learner', 'other_admin', 'compliance'] as const) {
        const refused = await f.client(actor).rpc('get_attempt_for_grading', {
          attempt_id: learnerAttempt,
        });
        expect(refused.status, actor).toBe(403);
        expect(refused.error?.message).toBe(
          'Only an instructor of this course can grade this attempt',
        );
      }
      const missing = await f.users.instructor.client.rpc('get_attempt_for_grading', {
        attempt_id: '00000000-0000-4000-8000-000000000000',
      });
      expect(missing.status).toBe(404);
      expect(missing.error?.message).toBe('No quiz attempt has this id');
    });

    it('grades once: the learner sees the score and feedback; a second grading is refused', async () => {
      const grade = (attempt: string, client = f.users.instructor.client) =>
        client.rpc('grade_assessment_attempt', {
          attempt_id: attempt,
          verdicts: { [f.shortQuestion]: true },
          feedback: 'Well put: name the capillaries next time.',
        });
      const byOther = await grade(learnerAttempt, f.users.other_admin.client);
      expect(byOther.status).toBe(403);

      const graded = await grade(learnerAttempt);
      expect(graded.error).toBeNull();
      expect(graded.data).toMatchObject({ status: 'graded', score: 100 });

      const seen = await f.users.learner.client
        .from('assessment_attempts')
        .select('status, score, feedback, verdicts')
        .eq('id', learnerAttempt)
        .single();
      expect(seen.data).toMatchObject({
        status: 'graded',
        score: 100,
        feedback: 'Well put: name the capillaries next time.',
        verdicts: [
          { question_id: f.question, verdict: 'correct' },
          { question_id: f.shortQuestion, verdict: 'correct' },
        ],
      });

      const again = await grade(learnerAttempt);
      expect(again.status).toBe(409);
      expect(again.error).toMatchObject({
        message: 'This attempt has already been graded',
        details: 'already_graded',
      });
      const missing = await grade('00000000-0000-4000-8000-000000000000');
      expect(missing.status).toBe(404);
      expect(missing.error?.message).toBe('No quiz attempt has this id');
      const notAnId = await grade('not-an-id');
      expect(notAnId.status).toBe(400);

      const queue = await f.users.instructor.client.rpc('grading_queue', { organization: f.orgA });
      expect((queue.data as { attempt_id: string }[]).map((r) => r.attempt_id)).toEqual([
        waitingAttempt,
      ]);
    });
  });

  describe('goals', () => {
    it('lets whoever teaches set a goal for an enrolled learner, with a target that fits its kind', async () => {
      const instructor = f.users.instructor.client;
      const set = await instructor
        .from('goals')
        .insert({
          user_id: added.Carl!.id,
          course_id: f.course,
          kind: 'reach_score',
          assessment_id: f.assessment,
          target_score: 70,
          title: 'Reach 70% on the lungs quiz',
          due_on: '2030-06-01',
        })
        .select('set_by, kind, target_score, due_on')
        .single();
      expect(set.error).toBeNull();
      expect(set.data).toEqual({
        set_by: f.users.instructor.id,
        kind: 'reach_score',
        target_score: 70,
        due_on: '2030-06-01',
      });
      const noTarget = await instructor.from('goals').insert({
        user_id: added.Carl!.id,
        course_id: f.course,
        kind: 'reach_score',
        assessment_id: f.assessment,
        title: 'Reach a score',
      });
      expect(noTarget.error?.message).toContain('goals_target_matches_kind');
      // Not enrolled in course2: nobody sets a goal for them there.
      const notEnrolled = await f.users.org_admin.client.from('goals').insert({
        user_id: added.Carl!.id,
        course_id: f.course2,
        kind: 'complete_course',
        title: 'Finish algebra',
      });
      expect(notEnrolled.error?.code).toBe('42501');
      const forged = await instructor.from('goals').insert({
        user_id: added.Carl!.id,
        course_id: f.course,
        set_by: added.Carl!.id,
        kind: 'complete_course',
        title: 'Signed as someone else',
      });
      expect(forged.error?.code).toBe('42501');
    });
  });
});
