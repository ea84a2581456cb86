/**
 * The study coach with models configured (decisions 0201, 0220), against a loopback fake
 * OpenAI-compatible server that records requests: study turns are worded by provider A's model
 * from the state machine's plan, the evaluation prompt is sent in `awaiting_answer` for short
 * text, General Knowledge goes to B's small model with the passages found and falls back to B's
 * larger model on a 500 and on a timeout, replies stream as the model writes them, and when
 * every model fails the offline reply answers and the turn is kept.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatResponse } from '../../src/common/coach-chat';
import { EVALUATION_SYSTEM_PROMPT } from '../../src/server/coach/evaluate-model';
import { GENERAL_SYSTEM_PROMPT, TUTOR_SYSTEM_PROMPT } from '../../src/server/coach/model-replies';
import { startFakeOpenAI, type FakeOpenAI, type FakeRequest } from '../support/fake-openai';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildCoachWorld, chat, type CoachWorld } from './coach-world';

const system = (request: FakeRequest) =>
  request.body.messages.find((m) => m.role === 'system')?.content;

describe.each(databaseKinds)('ai-study-chat with models on %s', (kind) => {
  let server: TestServer;
  let fake: FakeOpenAI;
  let w: CoachWorld;
  let counter = 0;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer(kind, {
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AI_A_BASE_URL: fake.url,
      AI_A_MODEL: 'mid-a',
      AI_B_BASE_URL: fake.url,
      AI_B_MODEL: 'small-b',
      AI_B_FALLBACK_MODEL: 'large-b',
      // Generous against a loaded machine; only the hanging model ever waits for it.
      AI_TIMEOUT_MS: '2000',
    });
    w = await buildCoachWorld(server);
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    for (const model of ['mid-a', 'small-b', 'large-b']) fake.behave(model, { kind: 'answer' });
    fake.reply = (request) => {
      counter += 1;
      if (system(request) === EVALUATION_SYSTEM_PROMPT) {
        return JSON.stringify({
          verdict: 'incorrect',
          missing: [1],
          feedback: 'The model thinks this misses the method.',
        });
      }
      return `Model reply ${counter} from ${request.body.model}.`;
    };
  });

  async function say(body: Record<string, unknown>): Promise<ChatResponse> {
    const { status, body: answer } = await chat(server, w.learner, body);
    expect(status, JSON.stringify(answer)).toBe(200);
    return answer;
  }

  it("words a study turn with provider A's model from the plan, and stores its words", async () => {
    const first = await say({ mode: 'study', course_id: w.course, message: "Let's start" });
    expect(first.reply).toMatch(/^Model reply \d+ from mid-a\.$/);
    expect(first.engine).toEqual({ kind: 'model', label: 'Provider A · mid-a' });
    const request = fake.requests.at(-1)!;
    expect(request.body.model).toBe('mid-a');
    expect(system(request)).toBe(TUTOR_SYSTEM_PROMPT);
    const last = fake.textOf(request);
    expect(last).toContain("Let's start");
    expect(last).toMatch(/<plan>\n[\s\S]+\n<\/plan>/);

    const stored = await w.learner.client
      .from('chat_messages')
      .select('sender, content, engine')
      .eq('session_id', first.session_id)
      .order('id');
    expect(stored.data).toEqual([
      { sender: 'learner', content: "Let's start", engine: null },
      { sender: 'coach', content: first.reply, engine: 'Provider A · mid-a' },
    ]);
  });

  it('sends the evaluation prompt for a short-text answer in awaiting_answer', async () => {
    let turn = await say({ mode: 'study', course_id: w.course, message: 'start' });
    // Right answers and "another question" until the coach asks a short-text question.
    for (let i = 0; i < 12 && (await w.questionType(turn.question_id!)) !== 'short_text'; i += 1) {
      await say({
        mode: 'study',
        session_id: turn.session_id,
        message: await w.answer(turn.question_id!, true),
      });
      turn = await say({ mode: 'study', session_id: turn.session_id, message: 'yes' });
    }
    expect(await w.questionType(turn.question_id!)).toBe('short_text');
    expect(turn.state).toBe('awaiting_answer');
    fake.requests.length = 0;
    const judged = await say({
      mode: 'study',
      session_id: turn.session_id,
      message: 'I think you just guess a number and check it.',
    });
    const evaluation = fake.requests.find((r) => system(r) === EVALUATION_SYSTEM_PROMPT);
    expect(evaluation?.body.model).toBe('mid-a');
    expect(fake.textOf(evaluation!)).toContain(
      '<answer>\nI think you just guess a number and check it.\n</answer>',
    );
    // The model's verdict decided the turn: a miss, recorded in the teaching history.
    expect(judged.state).toBe('awaiting_answer');
    const log = await w.learner.client
      .from('coach_teaching_log')
      .select('verdict, learner_answer')
      .eq('session_id', turn.session_id)
      .not('verdict', 'is', null)
      .order('id', { ascending: false })
      .limit(1)
      .single();
    expect(log.data).toEqual({
      verdict: 'incorrect',
      learner_answer: 'I think you just guess a number and check it.',
    });
  });

  it("answers General Knowledge with B's small model from the passages found", async () => {
    const answer = await say({
      mode: 'general',
      message: 'How do I solve an equation by balancing both sides?',
    });
    expect(answer.reply).toMatch(/from small-b/);
    expect(answer.engine).toEqual({ kind: 'model', label: 'Provider B · small-b' });
    const request = fake.requests.at(-1)!;
    expect(system(request)).toBe(GENERAL_SYSTEM_PROMPT);
    expect(fake.textOf(request)).toMatch(
      /<material>\nSource: the (lesson|refresher) \[[^\]]+\]\(\/app\/courses\//,
    );
  });

  it.each([
    ['a 500', { kind: 'error', status: 500 } as const],
    ['a timeout', { kind: 'hang' } as const],
  ])("falls back to B's larger model on %s", async (_label, behaviour) => {
    fake.behave('small-b', behaviour);
    const answer = await say({ mode: 'general', message: 'What is the slope of a line?' });
    expect(answer.reply).toMatch(/from large-b/);
    expect(answer.engine).toEqual({ kind: 'model', label: 'Provider B · large-b' });
    expect(fake.requests.map((r) => r.body.model)).toEqual(['small-b', 'large-b']);
  });

  it('answers with the offline reply, and keeps the turn, when every model fails', async () => {
    for (const model of ['mid-a', 'small-b', 'large-b'])
      fake.behave(model, { kind: 'error', status: 500 });
    const general = await say({
      mode: 'general',
      message: 'How do I solve an equation by balancing both sides?',
    });
    expect(general.engine).toEqual({ kind: 'offline', label: 'Built-in offline coach' });
    expect(general.reply).toMatch(/Source: the (lesson|refresher) \[/);

    fake.behave('mid-a', { kind: 'garbage' });
    const study = await say({ mode: 'study', course_id: w.course, message: 'start' });
    expect(study.engine).toEqual({ kind: 'offline', label: 'Built-in offline coach' });
    expect(study).toMatchObject({ state: 'awaiting_answer' });
    expect(study.question_id).toBeDefined();
  });

  it("streams the model's words as server-sent events, the last carrying the stored answer", async () => {
    fake.reply = () => 'A streamed reply, written by the model in several small pieces.';
    const response = await fetch(`${server.url}/functions/v1/ai-study-chat`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${w.learner.token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ mode: 'study', course_id: w.course, message: 'start' }),
    });
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block.trim())
      .map((block) => ({
        event: /^event: (.*)$/m.exec(block)![1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as Record<string, unknown>,
      }));
    const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.text);
    // The fake sends eight characters a chunk: the reply arrives as the model writes it.
    expect(deltas.length).toBeGreaterThan(4);
    expect(deltas.join('')).toBe('A streamed reply, written by the model in several small pieces.');
    expect(events.at(-1)).toMatchObject({
      event: 'done',
      data: {
        reply: 'A streamed reply, written by the model in several small pieces.',
        engine: { kind: 'model', label: 'Provider A · mid-a' },
      },
    });
  });

  it('never sends a model reply the session has already heard: the plan answers instead', async () => {
    fake.reply = (request) =>
      system(request) === EVALUATION_SYSTEM_PROMPT
        ? '{"verdict":"incorrect","missing":[1],"feedback":"No."}'
        : 'Always the same words.';
    const first = await say({ mode: 'study', course_id: w.course, message: 'start' });
    expect(first.reply).toBe('Always the same words.');
    const second = await say({ mode: 'study', session_id: first.session_id, message: "I'm stuck" });
    expect(second.reply).not.toBe('Always the same words.');
    expect(second.engine).toEqual({ kind: 'offline', label: 'Built-in offline coach' });
  });
});
