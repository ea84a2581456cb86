/**
 * POST /functions/v1/coach-evaluate through supabase-js: a signed-in user's answer is judged;
 * bad bodies and callers without a user's token are refused clearly.
 */
import { randomUUID } from 'node:crypto';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function evaluate(
  server: TestServer,
  token: string,
  body: Record<string, unknown>,
): Promise<Answer> {
  const { data, error } = await server
    .withToken(token)
    .functions.invoke('coach-evaluate', { body });
  if (error) {
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  return { status: 200, body: data as Record<string, unknown> };
}

const question = {
  question: 'Solve the system y = 2x − 5 and 3x + y = 15.',
  reference_answer: '(4, 3): x = 4 and y = 3.',
  key_points: ['x = 4', 'y = 3'],
};

describe.each(databaseKinds)('coach-evaluate function on %s', (kind) => {
  let server: TestServer;
  let userToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    userToken = await signUserToken(server, randomUUID());
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('judges a correct, a partial and a wrong answer', async () => {
    const correct = await evaluate(server, userToken, { ...question, answer: 'x = 4 and y = 3' });
    expect(correct).toMatchObject({
      status: 200,
      body: { verdict: 'correct', missing: [], engine: { kind: 'offline' } },
    });

    const partial = await evaluate(server, userToken, { ...question, answer: 'x = 4, y = 7' });
    expect(partial).toMatchObject({
      status: 200,
      body: { verdict: 'partially_correct', missing: ['y = 3'] },
    });
    expect(typeof partial.body.feedback).toBe('string');

    const wrong = await evaluate(server, userToken, { ...question, answer: 'x = 1 and y = 2' });
    expect(wrong).toMatchObject({ status: 200, body: { verdict: 'incorrect' } });
  });

  it('works without key points', async () => {
    const { key_points: _unused, ...withoutPoints } = question;
    const answer = await evaluate(server, userToken, {
      ...withoutPoints,
      answer: 'x = 4 and y = 3',
    });
    expect(answer).toMatchObject({ status: 200, body: { verdict: 'correct' } });
  });

  it('refuses an empty answer, a huge one and control characters, naming the field', async () => {
    const empty = await evaluate(server, userToken, { ...question, answer: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'invalid_request' });
    expect(String(empty.body.error)).toContain('answer is empty');

    const huge = await evaluate(server, userToken, {
      ...question,
      answer: 'x'.repeat(8 * 1024 + 1),
    });
    expect(huge.status).toBe(400);
    expect(String(huge.body.error)).toContain('answer is too long: at most 8 KB');

    const control = await evaluate(server, userToken, { ...question, answer: 'x = 4\u0000' });
    expect(control.status).toBe(400);
    expect(String(control.body.error)).toContain('answer contains control characters');

    const missing = await evaluate(server, userToken, { question: question.question });
    expect(missing.status).toBe(400);
    expect(String(missing.body.error)).toContain('reference_answer');
  });

  it('accepts an answer of exactly 8 KB with line breaks and tabs', async () => {
    const answer = `x = 4\n\ty = 3 ${'z'.repeat(8 * 1024 - 13)}`;
    expect(new TextEncoder().encode(answer).length).toBe(8 * 1024);
    const result = await evaluate(server, userToken, { ...question, answer });
    expect(result).toMatchObject({ status: 200, body: { verdict: 'correct' } });
  });

  it('refuses the anon key and the service role: it needs a user', async () => {
    const anon = await evaluate(server, server.anonKey, { ...question, answer: 'x = 4' });
    expect(anon).toMatchObject({ status: 401, body: { code: 'not_signed_in' } });
    const service = await evaluate(server, server.serviceRoleKey, { ...question, answer: 'x = 4' });
    expect(service).toMatchObject({ status: 401, body: { code: 'not_signed_in' } });
  });
});

describe.each(databaseKinds)('coach-evaluate with a configured model on %s', (kind) => {
  let server: TestServer;
  let fake: FakeOpenAI;
  let userToken: string;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer(kind, {
      AI_B_BASE_URL: fake.url,
      AI_B_MODEL: 'small-b',
      AI_B_FALLBACK_MODEL: 'large-b',
      AI_TIMEOUT_MS: '2000',
    });
    userToken = await signUserToken(server, randomUUID());
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("answers with the model's validated verdict, and offline when both models fail", async () => {
    fake.reply = () =>
      '{"verdict": "partially_correct", "missing": [2], "feedback": "Now find y."}';
    const judged = await evaluate(server, userToken, { ...question, answer: 'x = 4' });
    expect(judged).toEqual({
      status: 200,
      body: {
        verdict: 'partially_correct',
        missing: ['y = 3'],
        feedback: 'Now find y.',
        engine: { kind: 'model', label: 'Provider B · small-b', provider: 'B', model: 'small-b' },
      },
    });
    expect(fake.textOf(fake.requests.at(-1)!)).toContain('<answer>\nx = 4\n</answer>');

    fake.behave('small-b', { kind: 'error', status: 500 });
    fake.behave('large-b', { kind: 'hang' });
    const fallback = await evaluate(server, userToken, { ...question, answer: 'x = 4' });
    expect(fallback).toMatchObject({
      status: 200,
      body: { verdict: 'partially_correct', missing: ['y = 3'], engine: { kind: 'offline' } },
    });
  });
});
