/**
 * LE Adapt's quiz builder (issue 14, decision 0517) through the server on PGlite and
 * PostgreSQL: a reviewer saves an edited quiz (reordered, edited, added to, deleted from) over
 * the version they read; stale versions, approved jobs, strangers and bad questions are refused
 * with a message naming the question; the grade preview grades a typed answer as the learning
 * app will (the answer key, or the shared answer evaluator: offline, or a configured model
 * first); and the approved lesson's exports and published bank questions are the edited quiz.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QuizSave } from '../../src/common/adapt-quiz';
import { makeAccessible } from '../../src/server/adapt/accessible/accessible-stage';
import { adaptTestLesson } from '../../src/server/adapt/adapt-test-lesson';
import type { QuizQuestion, ReviewedLesson } from '../../src/server/adapt/lesson';
import { runExportJob } from '../../src/server/adapt/outputs';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, type Actor, type LearningFixture } from './learning-fixture';

type Answer = { status: number; body: Record<string, unknown> };

async function reviewedLesson(): Promise<ReviewedLesson> {
  const { lesson } = await makeAccessible(
    adaptTestLesson(),
    { profile: 'none', targetGrade: 8, translateTo: null },
    { ai: null },
  );
  return { lesson, findings: [], fidelity: { passed: true, facts: [], lost: [] } };
}

/** A finished, unapproved job of the instructor's in organization A. */
async function finishedJob(server: TestServer, fx: LearningFixture, reviewed: ReviewedLesson) {
  const { rows } = await server.deps.db.query<{ id: string }>(
    `insert into public.adapt_jobs (owner_id, organization_id, title, source_format, source_name, status)
     values ($1, $2, 'Photosynthesis', 'txt', 'photosynthesis.txt', 'done') returning id`,
    [fx.users.instructor.id, fx.orgA],
  );
  await server.deps.db.query(
    `insert into public.adapt_job_stages (job_id, stage, name, status, output)
     values ($1, 4, 'review', 'done', $2::jsonb)`,
    [rows[0]!.id, JSON.stringify(reviewed)],
  );
  return rows[0]!.id;
}

function caller(server: TestServer, fx: LearningFixture) {
  return async (actor: Actor, route: string, method: string, body: unknown): Promise<Answer> => {
    const response = await fetch(`${server.url}/functions/v1/adapt/${route}`, {
      method,
      headers: {
        apikey: server.anonKey,
        Authorization: `Bearer ${actor === 'anon' ? server.anonKey : fx.users[actor].token}`,
        'Content-Type': 'application/json',
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

describe.each(databaseKinds)('LE Adapt quiz builder on %s', (kind) => {
  let server: TestServer;
  let fx: LearningFixture;
  let call: ReturnType<typeof caller>;
  let reviewed: ReviewedLesson;
  let generated: QuizQuestion[];

  beforeAll(async () => {
    server = await startTestServer(kind);
    fx = await buildLearningFixture(server);
    call = caller(server, fx);
    reviewed = await reviewedLesson();
    generated = reviewed.lesson.quiz;
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  const save = (actor: Actor, job: string, body: QuizSave | string) =>
    call(actor, `jobs/${job}/quiz`, 'PUT', body);

  /** The quiz as the review screen reads it: the saved edit, or nothing (the generated one). */
  async function savedQuiz(actor: Actor, job: string) {
    const { data, error } = await fx
      .client(actor)
      .from('adapt_quiz_reviews')
      .select('questions, version, edited_by')
      .eq('job_id', job);
    if (error) throw new Error(error.message);
    return data as Array<{ questions: QuizQuestion[]; version: number; edited_by: string }>;
  }

  describe('saving', () => {
    let job: string;
    beforeAll(async () => {
      job = await finishedJob(server, fx, reviewed);
    });

    it('saves an edited, reordered quiz with a new question and one deleted, versioned and audited', async () => {
      const [choice, cloze, open] = generated as [QuizQuestion, QuizQuestion, QuizQuestion];
      const edited: QuizQuestion[] = [
        { ...open, prompt: 'Why do plants need light?' } as QuizQuestion,
        {
          ...choice,
          choices: [
            { id: 'a', text: 'Oxygen' },
            { id: 'b', text: 'Carbon dioxide' },
            { id: 'c', text: 'Nitrogen' },
            { id: 'd', text: 'Helium' },
          ],
          explanation: 'Splitting water releases oxygen.',
        } as QuizQuestion,
        {
          kind: 'short_answer',
          id: 'what-stroma-holds',
          sectionId: 'chloroplasts',
          prompt: 'What does the stroma hold?',
          referenceAnswer: 'The stroma holds the enzymes of the Calvin cycle.',
          keyPoints: ['enzymes', 'Calvin cycle'],
          difficulty: 2,
        },
      ];
      expect(cloze.kind).toBe('cloze');
      const saved = await save('instructor', job, { version: 0, questions: edited });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ version: 1, edited_by: fx.users.instructor.id });
      // Another reviewer of the organization reads the same quiz, in the saved order.
      const [row] = await savedQuiz('org_admin', job);
      expect(row!.questions.map((q) => q.id)).toEqual([
        'why-light',
        'gas-released',
        'what-stroma-holds',
      ]);
      expect(row!.questions[1]).toMatchObject({ explanation: 'Splitting water releases oxygen.' });
      // Learners and other organizations read nothing.
      expect(await savedQuiz('learner', job)).toEqual([]);
      expect(await savedQuiz('other_admin', job)).toEqual([]);

      // A reviewer other than the creator moves a question up: version 2.
      const moved = await save('board_admin', job, {
        version: 1,
        questions: [edited[1]!, edited[0]!, edited[2]!],
      });
      expect(moved).toMatchObject({ status: 200, body: { version: 2 } });

      const { rows: audit } = await server.deps.db.query<{
        action: string;
        user_id: string;
        changed_fields: string[];
        job: string | null;
      }>(
        `select action, user_id, changed_fields, new_values ->> 'job_id' as job
           from public.audit_log where table_name = 'public.adapt_quiz_reviews' order by id`,
      );
      expect(audit).toEqual([
        expect.objectContaining({ action: 'insert', user_id: fx.users.instructor.id, job }),
        expect.objectContaining({
          action: 'update',
          user_id: fx.users.board_admin.id,
          changed_fields: ['edited_at', 'edited_by', 'questions', 'version'],
        }),
      ]);
    });

    it('refuses a save over a version someone else changed, and changes nothing', async () => {
      const stale = await save('instructor', job, { version: 1, questions: generated });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatch(/Someone saved this quiz since you opened it/);
      const [row] = await savedQuiz('instructor', job);
      expect(row).toMatchObject({ version: 2 });
      expect(row!.questions[0]!.id).toBe('gas-released');
    });

    it('says what is wrong with each bad question, and saves none of them', async () => {
      const choice = generated[0] as Extract<QuizQuestion, { kind: 'multiple_choice' }>;
      const cases: Array<[QuizQuestion[] | unknown, RegExp]> = [
        [[{ ...choice, prompt: '   ' }], /Question 1: the question is empty\./],
        [
          [generated[1], { ...choice, answer: 'z' }],
          /Question 2: choose which option is correct\./,
        ],
        [
          [{ ...choice, choices: [...choice.choices.slice(0, 2), { id: 'c', text: ' oxygen ' }] }],
          /Question 1: options 1 and 3 are the same \(“oxygen”\)\./,
        ],
        [
          [{ ...choice, prompt: 'Why? '.repeat(200) }],
          /Question 1: the question is over 600 characters \(it has 999\)\./,
        ],
        [[{ ...choice, choices: choice.choices.slice(0, 2) }], /needs 3 to 5 options \(it has 2\)/],
        [
          [{ ...generated[1], text: 'The green pigment is chlorophyll.' }],
          /Question 1: the sentence needs exactly one gap written ____ \(it has 0\)\./,
        ],
        [[{ ...generated[2], keyPoints: [] }], /at least one key point for the evaluator/],
        [[choice, { ...choice }], /Question 2: another question already has the id “gas-released”/],
        [[{ ...choice, explanation: 'x'.repeat(1001) }], /the explanation is over 1000 characters/],
        [[], /the quiz needs at least one question/],
        [Array.from({ length: 31 }, (_, i) => ({ ...choice, id: `q-${i}` })), /at most 30/],
        [[{ ...choice, kind: 'essay' }], /kind/],
      ];
      for (const [questions, message] of cases) {
        const refused = await save('instructor', job, {
          version: 2,
          questions: questions as QuizQuestion[],
        });
        expect(refused.status, String(message)).toBe(400);
        expect(refused.body).toMatchObject({ code: 'invalid_quiz' });
        expect(refused.body.error).toMatch(message);
      }
      expect((await save('instructor', job, '{"version": 2, "questions": [')).status).toBe(400);
      const [row] = await savedQuiz('instructor', job);
      expect(row).toMatchObject({ version: 2 });
    });

    it('follows the review rights: strangers, learners and signed-out callers are refused', async () => {
      const body = { version: 2, questions: generated };
      expect((await save('other_admin', job, body)).status).toBe(404);
      expect((await save('learner', job, body)).status).toBe(404);
      expect((await save('anon', job, body)).status).toBe(401);
      expect((await save('instructor', 'not-a-uuid', body)).status).toBe(404);
    });

    it('goes back to the generated quiz', async () => {
      expect(
        (await call('instructor', `jobs/${job}/quiz/reset`, 'POST', { version: 1 })).status,
      ).toBe(409);
      const reset = await call('instructor', `jobs/${job}/quiz/reset`, 'POST', { version: 2 });
      expect(reset).toMatchObject({ status: 200, body: { reset: true } });
      expect(await savedQuiz('instructor', job)).toEqual([]);
      // The next save starts again from the generated quiz's version 0.
      expect((await save('instructor', job, { version: 0, questions: generated })).status).toBe(
        200,
      );
    });
  });

  describe('grade preview (offline evaluator)', () => {
    let job: string;
    beforeAll(async () => {
      job = await finishedJob(server, fx, reviewed);
    });
    const preview = (actor: Actor, question: unknown, answer: unknown) =>
      call(actor, `jobs/${job}/quiz/preview`, 'POST', { question, answer });

    it('grades a choice by the answer key, with the distractor’s feedback', async () => {
      const choice = generated[0]!;
      expect(await preview('instructor', choice, { choice: 'a' })).toMatchObject({
        status: 200,
        body: { verdict: 'correct', engine: null, gradedAs: 'multiple_choice' },
      });
      const wrong = await preview('instructor', choice, { choice: 'b' });
      expect(wrong.body).toMatchObject({ verdict: 'incorrect' });
      expect(wrong.body.feedback).toContain('the answer is “Oxygen”');
      expect((await preview('instructor', choice, { choice: 'q' })).status).toBe(400);
      expect((await preview('instructor', choice, { text: 'Oxygen' })).status).toBe(400);
    });

    it('grades a short answer through the answer evaluator, saying what is missing', async () => {
      const open = generated[2]!;
      const good = await preview('instructor', open, {
        text: 'Light gives the plant energy to turn carbon dioxide and water into glucose.',
      });
      expect(good).toMatchObject({
        status: 200,
        body: {
          verdict: 'correct',
          gradedAs: 'short_text',
          engine: { kind: 'offline', label: 'Built-in offline engine' },
        },
      });
      const poor = await preview('instructor', open, { text: 'Plants are green.' });
      expect(poor.body).toMatchObject({ verdict: 'incorrect' });
      expect((poor.body.missing as string[]).length).toBeGreaterThan(0);
      // A gap is graded the same way, against the word and the question's key points.
      const gap = await preview('instructor', generated[1], {
        text: 'chlorophyll, which absorbs light',
      });
      expect(gap.body).toMatchObject({ verdict: 'correct', gradedAs: 'short_text' });
    });

    it('previews the question as edited, before it is saved', async () => {
      const open = {
        ...generated[2]!,
        referenceAnswer: 'The stroma holds the enzymes of the Calvin cycle.',
        keyPoints: ['the enzymes', 'the Calvin cycle'],
      };
      const graded = await preview('instructor', open, {
        text: 'It holds the enzymes of the Calvin cycle.',
      });
      expect(graded.body).toMatchObject({ verdict: 'correct' });
    });

    it('refuses bad questions and answers, and people who may not read the job', async () => {
      const open = generated[2]!;
      const empty = await preview('instructor', { ...open, prompt: '' }, { text: 'x' });
      expect(empty).toMatchObject({ status: 400 });
      expect(empty.body.error).toMatch(/The question is empty\./);
      expect((await preview('instructor', open, { text: '  ' })).body.error).toMatch(
        /type an answer/,
      );
      expect((await preview('instructor', open, { text: 'a\u0000b' })).status).toBe(400);
      expect((await preview('instructor', open, { text: 'x'.repeat(9000) })).status).toBe(400);
      expect((await preview('learner', open, { text: 'light' })).status).toBe(404);
      expect((await preview('other_admin', open, { text: 'light' })).status).toBe(404);
    });
  });

  describe('approval, exports and publishing', () => {
    let job: string;
    const edited = (): QuizQuestion[] => [
      {
        kind: 'multiple_choice',
        id: 'leaf-share',
        sectionId: 'what-it-is',
        prompt: 'About how much of the light reaching a leaf becomes chemical energy?',
        choices: [
          { id: 'a', text: '3 percent' },
          { id: 'b', text: '30 percent' },
          { id: 'c', text: '90 percent' },
        ],
        answer: 'a',
        keyPoints: ['about 3 percent'],
        difficulty: 2,
        explanation: 'The rest is reflected, transmitted or lost as heat.',
      },
      generated[2]!,
    ];

    beforeAll(async () => {
      job = await finishedJob(server, fx, reviewed);
      expect((await save('instructor', job, { version: 0, questions: edited() })).status).toBe(200);
      const approved = await call('org_admin', `jobs/${job}/approve`, 'POST', {});
      expect(approved.status).toBe(200);
    });

    it('closes the quiz once the job is approved', async () => {
      const refused = await save('org_admin', job, { version: 1, questions: generated });
      expect(refused).toMatchObject({ status: 409 });
      expect(refused.body.error).toMatch(/approved; its quiz can no longer change/);
    });

    it('exports and publishes the edited quiz', async () => {
      await server.deps.db.query(
        `insert into public.adapt_exports (job_id, requested_by) values ($1, $2)`,
        [job, fx.users.instructor.id],
      );
      await runExportJob(server.deps, job);
      const markdown = await server.deps.storage.getObject('adapt-exports', `${job}/lesson.md`);
      const text = new TextDecoder().decode(markdown!.bytes);
      expect(text).toContain(
        '1. About how much of the light reaching a leaf becomes chemical energy?',
      );
      expect(text).toContain('The rest is reflected, transmitted or lost as heat.');
      expect(text).not.toContain('Which gas do plants release');

      const published = await fetch(
        `${server.url}/functions/v1/adapt-outputs/jobs/${job}/publish`,
        {
          method: 'POST',
          headers: {
            apikey: server.anonKey,
            Authorization: `Bearer ${fx.users.instructor.token}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ courseId: fx.course }),
        },
      );
      expect(published.status).toBe(201);
      const { lesson_id, questions } = (await published.json()) as {
        lesson_id: string;
        questions: number;
      };
      expect(questions).toBe(2);
      const { data } = await fx
        .client('instructor')
        .from('questions')
        .select('slug, type, prompt, answer, worked_example')
        .eq('course_id', fx.course)
        .in('slug', ['photosynthesis-leaf-share', 'photosynthesis-why-light']);
      expect(data).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            slug: 'photosynthesis-leaf-share',
            type: 'multiple_choice',
            answer: { choice: 'a' },
            worked_example: expect.stringContaining('The rest is reflected, transmitted or lost'),
          }),
          expect.objectContaining({ slug: 'photosynthesis-why-light', type: 'short_text' }),
        ]),
      );
      expect(lesson_id).toBeTruthy();
    }, 120_000);
  });
});

describe.each(databaseKinds)('LE Adapt grade preview with a configured model on %s', (kind) => {
  let server: TestServer;
  let fake: FakeOpenAI;
  let fx: LearningFixture;
  let call: ReturnType<typeof caller>;
  let job: string;
  let open: QuizQuestion;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer(kind, {
      AI_B_BASE_URL: fake.url,
      AI_B_MODEL: 'small-b',
      AI_TIMEOUT_MS: '2000',
    });
    fx = await buildLearningFixture(server);
    call = caller(server, fx);
    const reviewed = await reviewedLesson();
    open = reviewed.lesson.quiz[2]!;
    job = await finishedJob(server, fx, reviewed);
  }, 180_000);
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
        missing: [2],
        feedback: 'You named the energy; say what it turns into glucose.',
      });
  });

  it('lets the model judge first, with the question’s reference answer and key points', async () => {
    const graded = await call('instructor', `jobs/${job}/quiz/preview`, 'POST', {
      question: open,
      answer: { text: 'Light is where the energy comes from.' },
    });
    expect(graded).toMatchObject({
      status: 200,
      body: {
        verdict: 'partially_correct',
        feedback: 'You named the energy; say what it turns into glucose.',
        engine: { kind: 'model', label: 'Provider B · small-b' },
      },
    });
    const asked = fake.textOf(fake.requests.at(-1)!);
    expect(asked).toContain('Light is where the energy comes from.');
    expect(asked).toContain('carbon dioxide and water become glucose');
  });

  it('falls back to the offline evaluator when the model fails', async () => {
    fake.behave('small-b', { kind: 'error', status: 500 });
    const graded = await call('instructor', `jobs/${job}/quiz/preview`, 'POST', {
      question: open,
      answer: { text: 'Plants are green.' },
    });
    expect(graded.body).toMatchObject({
      verdict: 'incorrect',
      engine: { kind: 'offline', label: 'Built-in offline engine' },
    });
    expect(fake.requests.length).toBeGreaterThan(0);
  });
});
