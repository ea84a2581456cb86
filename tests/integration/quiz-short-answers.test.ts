/**
 * Short-text quiz answers graded by the answer evaluator (decision 0223), through
 * POST /functions/v1/submit-quiz and supabase-js: the verdict and its reason are stored with the
 * attempt and the learner reads them; an instructor's override wins and is kept; bad answers
 * are refused before anything is written. Offline (no model configured) and with a configured
 * model (a loopback fake OpenAI-compatible server), on PGlite and PostgreSQL.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVALUATION_SYSTEM_PROMPT } from '../../src/server/coach/evaluate-model';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { insertRow } from '../support/service-rows';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildCoachWorld, type CoachUser, type CoachWorld } from './coach-world';

interface Verdict {
  question_id: string;
  verdict: string;
  feedback: string | null;
  graded_by?: string;
  evaluation?: { verdict: string; missing: string[]; feedback: string; engine: string };
}

interface Attempt {
  id: string;
  status: string;
  score: number | null;
  verdicts: Verdict[];
}

interface Outcome {
  status: number;
  body: Record<string, unknown>;
}

async function submit(
  server: TestServer,
  user: CoachUser,
  body: Record<string, unknown>,
): Promise<Outcome> {
  const { data, error } = await server
    .withToken(user.token)
    .functions.invoke('submit-quiz', { body });
  if (error) {
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  return { status: 200, body: data as Record<string, unknown> };
}

/** The bank's questions of the sample course, by slug. */
async function questionIds(server: TestServer, courseId: string): Promise<Map<string, string>> {
  const { data, error } = await server
    .service()
    .from('questions')
    .select('id, slug')
    .eq('course_id', courseId);
  if (error) throw new Error(error.message);
  return new Map((data as { id: string; slug: string }[]).map((q) => [q.slug, q.id]));
}

/** A published quiz of the course drawing these questions, with room for several attempts. */
async function newQuiz(
  server: TestServer,
  w: CoachWorld,
  questions: string[],
  settings: { graded_by_person?: boolean } = {},
): Promise<string> {
  const service = server.service();
  const { data: module, error } = await service
    .from('modules')
    .select('id')
    .eq('course_id', w.course)
    .limit(1)
    .single();
  if (error) throw new Error(error.message);
  const quiz = await insertRow<{ id: string }>(service, 'assessments', {
    course_id: w.course,
    module_id: (module as { id: string }).id,
    title: 'Systems check',
    published: true,
    max_attempts: 5,
    ...settings,
  });
  for (const [i, question] of questions.entries()) {
    await insertRow(service, 'assessment_questions', {
      assessment_id: quiz.id,
      question_id: question,
      course_id: w.course,
      position: i + 1,
    });
  }
  return quiz.id;
}

/** The attempt as the learner reads it through the REST API. */
async function learnerSees(user: CoachUser, attemptId: string): Promise<Attempt> {
  const { data, error } = await user.client
    .from('assessment_attempts')
    .select('id, status, score, verdicts')
    .eq('id', attemptId)
    .single();
  if (error) throw new Error(error.message);
  return { ...(data as Attempt), score: data.score === null ? null : Number(data.score) };
}

const FULL_ANSWER =
  'Solving gives 1 = −4, which is false. The lines have the same slope 3 and their y-intercepts differ, 1 and −4, so they are parallel and distinct, and parallel lines never meet.';
const PARTIAL_ANSWER = 'The lines are parallel because both have slope 3.';
const WRONG_ANSWER = 'The lines cross at one point, so there is exactly one solution.';

describe.each(databaseKinds)('short-text quiz answers, offline evaluator, on %s', (kind) => {
  let server: TestServer;
  let w: CoachWorld;
  let ids: Map<string, string>;
  let parallel: string;
  let choiceQuestion: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    w = await buildCoachWorld(server);
    ids = await questionIds(server, w.course);
    parallel = ids.get('parallel-lines-no-solution')!;
    const { data, error } = await server
      .service()
      .from('questions')
      .select('id')
      .eq('course_id', w.course)
      .eq('type', 'multiple_choice')
      .limit(1)
      .single();
    if (error) throw new Error(error.message);
    choiceQuestion = (data as { id: string }).id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('grades a correct, a partly correct and a wrong answer, and the learner reads each reason', async () => {
    const quiz = await newQuiz(server, w, [parallel]);
    const cases = [
      {
        answer: FULL_ANSWER,
        verdict: 'correct',
        score: 100,
        reason: /^Correct: your answer makes all 4 key points\.$/,
      },
      {
        answer: PARTIAL_ANSWER,
        verdict: 'partially_correct',
        score: 50,
        reason:
          /^Partly right: your answer makes 2 of 4 key points\..*Still missing:\n- Solving gives a false statement \(1 = −4\)\./s,
      },
      {
        answer: WRONG_ANSWER,
        verdict: 'incorrect',
        score: 0,
        reason:
          /^Not yet: your answer does not make the key points of this question\..*A full answer would cover:/s,
      },
    ];
    for (const c of cases) {
      const submitted = await submit(server, w.learner, {
        assessment_id: quiz,
        answers: { [parallel]: { text: c.answer } },
      });
      expect(submitted.status).toBe(200);
      const attempt = await learnerSees(w.learner, submitted.body.id as string);
      expect(attempt).toMatchObject({ status: 'graded', score: c.score });
      const [entry] = attempt.verdicts;
      expect(entry).toMatchObject({
        question_id: parallel,
        verdict: c.verdict,
        graded_by: 'evaluator',
        evaluation: { verdict: c.verdict, engine: 'Built-in offline engine' },
      });
      expect(entry!.feedback).toMatch(c.reason);
      expect(entry!.evaluation!.feedback).toBe(entry!.feedback);
    }
  });

  it('grades the short answer alongside a multiple-choice question and leaves no attempt pending', async () => {
    const quiz = await newQuiz(server, w, [choiceQuestion, parallel]);
    const rightChoice = await w.answer(choiceQuestion, true);
    const submitted = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: {
        [choiceQuestion]: { choice: rightChoice },
        [parallel]: { text: PARTIAL_ANSWER },
      },
    });
    expect(submitted.status).toBe(200);
    // One correct and one half-credited answer of two.
    expect(submitted.body).toMatchObject({ status: 'graded', score: 75 });
    const queue = await w.teacher.client.rpc('grading_queue', { organization: w.org });
    expect(queue.error).toBeNull();
    expect((queue.data as { attempt_id: string }[]).map((r) => r.attempt_id)).not.toContain(
      submitted.body.id,
    );
  });

  it('marks an empty answer incorrect without asking the evaluator', async () => {
    const quiz = await newQuiz(server, w, [parallel]);
    const submitted = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: '   ' } },
    });
    expect(submitted.status).toBe(200);
    const attempt = await learnerSees(w.learner, submitted.body.id as string);
    expect(attempt).toMatchObject({ status: 'graded', score: 0 });
    expect(attempt.verdicts[0]).toMatchObject({ verdict: 'incorrect' });
    expect(attempt.verdicts[0]!.graded_by).toBeUndefined();
  });

  it('refuses an over-long, a control-character and a non-text answer, writing nothing', async () => {
    const quiz = await newQuiz(server, w, [parallel]);
    const tooLong = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: 'slope '.repeat(1500) } },
    });
    expect(tooLong).toEqual({
      status: 400,
      body: {
        error: `The answer to question ${parallel} is too long: at most 8 KB.`,
        code: 'invalid_answer',
      },
    });
    const control = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: 'parallel\u0007lines' } },
    });
    expect(control.status).toBe(400);
    expect(control.body.error).toBe(
      `The answer to question ${parallel} contains control characters; send plain text.`,
    );
    const notText = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: 42 } },
    });
    expect(notText.status).toBe(400);
    expect(notText.body.error).toBe(
      `The answer to question ${parallel} must be text: { "text": "…" }`,
    );
    const badBody = await submit(server, w.learner, { assessment_id: 'quiz-1', answers: [] });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error).toBe(
      'Send { assessment_id, answers } with answers keyed by question id.',
    );

    const { data } = await w.learner.client
      .from('assessment_attempts')
      .select('id')
      .eq('assessment_id', quiz);
    expect(data).toEqual([]);
  });

  it('keeps the submission rules: not enrolled is refused, and so is a sixth attempt', async () => {
    const quiz = await newQuiz(server, w, [parallel]);
    const outsider = await submit(server, w.outsider, {
      assessment_id: quiz,
      answers: { [parallel]: { text: PARTIAL_ANSWER } },
    });
    expect(outsider).toMatchObject({
      status: 403,
      body: { error: 'You can submit only quizzes of courses you are enrolled in' },
    });
    for (let i = 0; i < 5; i += 1) {
      const ok = await submit(server, w.learner, {
        assessment_id: quiz,
        answers: { [parallel]: { text: PARTIAL_ANSWER } },
      });
      expect(ok.status).toBe(200);
    }
    const sixth = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: PARTIAL_ANSWER } },
    });
    expect(sixth).toMatchObject({
      status: 409,
      body: { error: 'All 5 attempts at this quiz have been used', details: 'already_submitted' },
    });
  });

  it("lets the instructor override the evaluator's verdict once, and the override is kept", async () => {
    const quiz = await newQuiz(server, w, [parallel]);
    const submitted = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: PARTIAL_ANSWER } },
    });
    const attemptId = submitted.body.id as string;

    const byLearner = await w.learner.client.rpc('grade_assessment_attempt', {
      attempt_id: attemptId,
      verdicts: { [parallel]: true },
    });
    expect(byLearner.status).toBe(403);

    const forGrading = await w.teacher.client.rpc('get_attempt_for_grading', {
      attempt_id: attemptId,
    });
    expect(forGrading.error).toBeNull();
    expect((forGrading.data as { questions: unknown[] }).questions[0]).toMatchObject({
      verdict: 'partially_correct',
      graded_by: 'evaluator',
      evaluation: { verdict: 'partially_correct', engine: 'Built-in offline engine' },
    });

    const toReview = async () => {
      const { data, error } = await w.teacher.client.rpc('grading_queue', {
        organization: w.org,
        evaluated: true,
      });
      expect(error).toBeNull();
      return data as { attempt_id: string; pending: number }[];
    };
    expect(await toReview()).toContainEqual(
      expect.objectContaining({ attempt_id: attemptId, pending: 1 }),
    );

    const overridden = await w.teacher.client.rpc('grade_assessment_attempt', {
      attempt_id: attemptId,
      verdicts: { [parallel]: true },
      feedback: 'Your explanation is enough for this quiz.',
    });
    expect(overridden.error).toBeNull();
    expect(overridden.data).toMatchObject({
      status: 'graded',
      score: 100,
      graded_by: w.teacher.id,
    });

    const seen = await learnerSees(w.learner, attemptId);
    expect(seen).toMatchObject({ status: 'graded', score: 100 });
    expect(seen.verdicts[0]).toMatchObject({
      verdict: 'correct',
      feedback: null,
      graded_by: 'instructor',
      evaluation: { verdict: 'partially_correct' },
    });

    expect((await toReview()).map((row) => row.attempt_id)).not.toContain(attemptId);

    // A later evaluation (a retry, a second server) never replaces the person's verdict.
    await server.deps.db.query('select learning.record_answer_evaluations($1, $2::jsonb)', [
      attemptId,
      JSON.stringify({
        [parallel]: { verdict: 'incorrect', missing: [], feedback: 'No.', engine: 'x' },
      }),
    ]);
    expect((await learnerSees(w.learner, attemptId)).verdicts[0]).toMatchObject({
      verdict: 'correct',
      graded_by: 'instructor',
    });

    const again = await w.teacher.client.rpc('grade_assessment_attempt', {
      attempt_id: attemptId,
      verdicts: { [parallel]: false },
    });
    expect(again.status).toBe(409);
    expect(again.error).toMatchObject({
      message: 'This attempt has already been graded',
      details: 'already_graded',
    });
  });

  it('takes a partly-correct override and refuses a verdict that is not one', async () => {
    const quiz = await newQuiz(server, w, [parallel]);
    const submitted = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: WRONG_ANSWER } },
    });
    const attemptId = submitted.body.id as string;
    const bad = await w.teacher.client.rpc('grade_assessment_attempt', {
      attempt_id: attemptId,
      verdicts: { [parallel]: 'brilliant' },
    });
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toBe(
      `Only short-text questions of this attempt can be graded, with true, false, "correct", "partially_correct" or "incorrect": ${parallel}`,
    );
    const partly = await w.teacher.client.rpc('grade_assessment_attempt', {
      attempt_id: attemptId,
      verdicts: { [parallel]: 'partially_correct' },
    });
    expect(partly.error).toBeNull();
    expect(partly.data).toMatchObject({ status: 'graded', score: 50 });
  });

  it('sends every short answer of a quiz set to "always graded by a person" to the grading queue', async () => {
    const quiz = await newQuiz(server, w, [choiceQuestion, parallel]);

    // The quiz's instructor sets the option; a learner cannot.
    const byLearner = await w.learner.client
      .from('assessments')
      .update({ graded_by_person: true })
      .eq('id', quiz)
      .select('id');
    expect(byLearner.data ?? []).toEqual([]);
    const byTeacher = await w.teacher.client
      .from('assessments')
      .update({ graded_by_person: true })
      .eq('id', quiz)
      .select('graded_by_person')
      .single();
    expect(byTeacher.error).toBeNull();
    expect(byTeacher.data).toEqual({ graded_by_person: true });

    const rightChoice = await w.answer(choiceQuestion, true);
    const submitted = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [choiceQuestion]: { choice: rightChoice }, [parallel]: { text: FULL_ANSWER } },
    });
    expect(submitted.status).toBe(200);
    const attemptId = submitted.body.id as string;
    const seen = await learnerSees(w.learner, attemptId);
    expect(seen).toMatchObject({ status: 'awaiting_grading', score: null });
    const entry = seen.verdicts.find((v) => v.question_id === parallel)!;
    expect(entry).toMatchObject({ verdict: 'pending', feedback: null });
    expect(entry.graded_by).toBeUndefined();
    expect(entry.evaluation).toBeUndefined();
    // The multiple-choice answer is still marked at once.
    expect(seen.verdicts.find((v) => v.question_id === choiceQuestion)).toMatchObject({
      verdict: 'correct',
    });

    const queue = await w.teacher.client.rpc('grading_queue', { organization: w.org });
    expect(queue.error).toBeNull();
    expect(queue.data as { attempt_id: string }[]).toContainEqual(
      expect.objectContaining({ attempt_id: attemptId }),
    );

    // No path around the server's check: the procedure that records evaluations refuses too.
    await expect(
      server.deps.db.query('select learning.record_answer_evaluations($1, $2::jsonb)', [
        attemptId,
        JSON.stringify({
          [parallel]: { verdict: 'correct', missing: [], feedback: 'Yes.', engine: 'x' },
        }),
      ]),
    ).rejects.toThrow("This quiz's short answers are graded by a person, not by the evaluator");
    expect((await learnerSees(w.learner, attemptId)).verdicts).toContainEqual(
      expect.objectContaining({ question_id: parallel, verdict: 'pending' }),
    );

    const graded = await w.teacher.client.rpc('grade_assessment_attempt', {
      attempt_id: attemptId,
      verdicts: { [parallel]: 'partially_correct' },
      feedback: 'Say why the lines never meet.',
    });
    expect(graded.error).toBeNull();
    expect(graded.data).toMatchObject({ status: 'graded', score: 75 });

    // Turned off again, the next attempt is graded by the evaluator as before.
    const off = await w.teacher.client
      .from('assessments')
      .update({ graded_by_person: false })
      .eq('id', quiz);
    expect(off.error).toBeNull();
    const next = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [choiceQuestion]: { choice: rightChoice }, [parallel]: { text: FULL_ANSWER } },
    });
    expect(next.body).toMatchObject({ status: 'graded', score: 100 });
  });

  it('cannot be graded by the learner through the evaluation procedure', async () => {
    const call = await w.learner.client.schema('learning').rpc('record_answer_evaluations', {
      attempt_id: '00000000-0000-4000-8000-000000000000',
      evaluations: {},
    });
    expect(call.error).not.toBeNull();
  });
});

describe.each(databaseKinds)('short-text quiz answers with a configured model on %s', (kind) => {
  let server: TestServer;
  let fake: FakeOpenAI;
  let w: CoachWorld;
  let parallel: string;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer(kind, {
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AI_B_BASE_URL: fake.url,
      AI_B_MODEL: 'small-b',
      AI_TIMEOUT_MS: '2000',
    });
    w = await buildCoachWorld(server);
    parallel = (await questionIds(server, w.course)).get('parallel-lines-no-solution')!;
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.behave('small-b', { kind: 'answer' });
    fake.reply = () =>
      JSON.stringify({
        verdict: 'partially_correct',
        missing: [1, 3],
        feedback: 'You saw the equal slopes; say what solving the equations gives.',
      });
  });

  it("grades with the model's evaluation prompt, and the learner reads the model's reason", async () => {
    const quiz = await newQuiz(server, w, [parallel]);
    const submitted = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: PARTIAL_ANSWER } },
    });
    expect(submitted.status).toBe(200);
    const request = fake.requests.at(-1)!;
    expect(request.body.messages[0]).toMatchObject({
      role: 'system',
      content: EVALUATION_SYSTEM_PROMPT,
    });
    expect(fake.textOf(request)).toContain(PARTIAL_ANSWER);
    expect(fake.textOf(request)).toContain(
      'Parallel lines never meet, so there is no point on both.',
    );

    const attempt = await learnerSees(w.learner, submitted.body.id as string);
    expect(attempt).toMatchObject({ status: 'graded', score: 50 });
    expect(attempt.verdicts[0]).toMatchObject({
      verdict: 'partially_correct',
      feedback: 'You saw the equal slopes; say what solving the equations gives.',
      evaluation: {
        engine: 'Provider B · small-b',
        missing: [
          'Solving gives a false statement (1 = −4).',
          'Their y-intercepts differ (1 and −4), so the lines are parallel and distinct.',
        ],
      },
    });
  });

  it('never asks the model about a quiz set to "always graded by a person"', async () => {
    const quiz = await newQuiz(server, w, [parallel], { graded_by_person: true });
    const submitted = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: PARTIAL_ANSWER } },
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'awaiting_grading', score: null });
    expect(fake.requests).toEqual([]);
  });

  it('falls back to the offline evaluator when the model fails', async () => {
    fake.behave('small-b', { kind: 'error', status: 500 });
    const quiz = await newQuiz(server, w, [parallel]);
    const submitted = await submit(server, w.learner, {
      assessment_id: quiz,
      answers: { [parallel]: { text: WRONG_ANSWER } },
    });
    expect(submitted.status).toBe(200);
    expect(fake.requests.length).toBeGreaterThan(0);
    const attempt = await learnerSees(w.learner, submitted.body.id as string);
    expect(attempt.verdicts[0]).toMatchObject({
      verdict: 'incorrect',
      evaluation: { engine: 'Built-in offline engine' },
    });
  });
});
