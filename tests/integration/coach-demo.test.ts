/**
 * The public coach demo (decision 0224) through supabase-js with only the anon key: sample
 * questions marked as sample, answers judged offline, bad answers refused clearly, and a
 * per-address allowance; nothing is written to the database.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

interface Outcome {
  status: number;
  body: Record<string, unknown>;
}

async function check(server: TestServer, body: Record<string, unknown>): Promise<Outcome> {
  const { data, error } = await server.anon().functions.invoke('coach-demo', { body });
  if (error) {
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  return { status: 200, body: data as Record<string, unknown> };
}

describe.each(databaseKinds)('coach-demo function on %s', (kind) => {
  let server: TestServer;
  let questions: { id: string; course: string; prompt: string }[];

  beforeAll(async () => {
    server = await startTestServer(kind);
    const { data, error } = await server.anon().functions.invoke('coach-demo', { method: 'GET' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ sample: true });
    questions = (data as { questions: typeof questions }).questions;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists sample short-text questions without their answers', () => {
    expect(questions.length).toBeGreaterThanOrEqual(4);
    const parallel = questions.find((q) => q.id === 'linear-equations/parallel-lines-no-solution');
    expect(parallel).toEqual({
      id: 'linear-equations/parallel-lines-no-solution',
      course: 'Algebra: Linear Equations',
      prompt: expect.stringContaining('has **no solution**') as string,
    });
    for (const question of questions)
      expect(Object.keys(question).sort()).toEqual(['course', 'id', 'prompt']);
  });

  it('judges an answer offline without an account, and writes nothing', async () => {
    const before = await server.deps.db.query<{ n: number }>(
      'select count(*)::int as n from public.assessment_attempts',
    );
    const partial = await check(server, {
      question_id: 'linear-equations/parallel-lines-no-solution',
      answer: 'The lines are parallel because both have slope 3.',
    });
    expect(partial).toMatchObject({
      status: 200,
      body: {
        verdict: 'partially_correct',
        engine: { kind: 'offline', label: 'Built-in offline engine' },
      },
    });
    expect(partial.body.feedback).toMatch(/^Partly right: your answer makes 2 of 4 key points\./);
    const wrong = await check(server, {
      question_id: 'linear-equations/parallel-lines-no-solution',
      answer: 'The lines cross at one point, so there is exactly one solution.',
    });
    expect(wrong.body.verdict).toBe('incorrect');
    const after = await server.deps.db.query<{ n: number }>(
      'select count(*)::int as n from public.assessment_attempts',
    );
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('refuses an unknown question, an empty, an over-long and a non-text answer', async () => {
    expect(await check(server, { question_id: 'nope/none', answer: 'x' })).toEqual({
      status: 404,
      body: { error: 'There is no sample question with this id.', code: 'unknown_question' },
    });
    const empty = await check(server, { question_id: questions[0]!.id, answer: '  ' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('answer is empty: write something first.');
    const long = await check(server, { question_id: questions[0]!.id, answer: 'a'.repeat(9000) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('answer is too long: at most 8 KB.');
    const notText = await check(server, { question_id: questions[0]!.id, answer: 42 });
    expect(notText.status).toBe(400);
    expect(JSON.stringify(notText.body)).toContain('answer must be text.');
  });

  it('limits each address to 20 answers at once, then says when to try again', async () => {
    // The tests above used some of this address's allowance; use up the rest.
    let outcome: Outcome | undefined;
    for (let i = 0; i < 25; i += 1) {
      outcome = await check(server, { question_id: questions[0]!.id, answer: 'A try.' });
      if (outcome.status === 429) break;
    }
    expect(outcome!.status).toBe(429);
    expect(outcome!.body).toMatchObject({ code: 'rate_limited' });
    expect(outcome!.body.error).toMatch(
      /^The demo has checked many answers from your address; try again in \d+ seconds, or sign up to use the coach itself\.$/,
    );
  });
});
