/**
 * POST /functions/v1/simple-ai-chat: service role only, one-shot through the provider layer,
 * and a clear answer when no model is configured.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

async function chat(server: TestServer, token: string, body: unknown) {
  const response = await fetch(`${server.url}/functions/v1/simple-ai-chat`, {
    method: 'POST',
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(databaseKinds)('simple-ai-chat on %s', (kind) => {
  let offline: TestServer;
  let withModel: TestServer;
  let fake: FakeOpenAI;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    offline = await startTestServer(kind);
    withModel = await startTestServer(kind, { AI_B_BASE_URL: fake.url, AI_B_MODEL: 'small-b' });
  });
  afterAll(async () => {
    await offline?.stop();
    await withModel?.stop();
    await fake?.close();
  });

  it('says plainly that no model is configured', async () => {
    const answer = await chat(offline, offline.serviceRoleKey, { message: 'Hello?' });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'no_model' });
    expect(String(answer.body.error)).toContain('No AI model is configured');
  });

  it('answers one message through the configured model', async () => {
    fake.reply = (request) => `You said: ${fake.textOf(request).split('\n').at(-1)}`;
    const answer = await chat(withModel, withModel.serviceRoleKey, {
      message: 'Hello there',
      system: 'Be kind.',
    });
    expect(answer).toEqual({
      status: 200,
      body: {
        reply: 'You said: Hello there',
        engine: { kind: 'model', label: 'Provider B · small-b', provider: 'B', model: 'small-b' },
      },
    });
    expect(fake.requests.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'Hello there' },
    ]);
  });

  it('refuses users and empty messages', async () => {
    const user = await chat(withModel, await signUserToken(withModel, randomUUID()), {
      message: 'Hi',
    });
    expect(user).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    const empty = await chat(withModel, withModel.serviceRoleKey, { message: ' ' });
    expect(empty.status).toBe(400);
    expect(String(empty.body.error)).toContain('message is empty');
  });
});
