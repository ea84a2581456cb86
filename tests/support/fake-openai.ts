/**
 * A loopback fake of an OpenAI-compatible chat server (`POST /v1/chat/completions`), for tests
 * of the model-provider layer and everything above it. It records every request and answers
 * per model as the test says: normally (whole or streamed, as the request asks), with garbage,
 * with a 500, or never (a hang, for timeouts).
 *
 *   const fake = await startFakeOpenAI();
 *   fake.behave('small-model', { kind: 'error', status: 500 });
 *   fake.reply = (request) => 'Paris.';
 *   ... AI_B_BASE_URL: fake.url ...
 *   expect(fake.requests.at(-1)?.body.messages).toEqual(...);
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChatMessage {
  role: string;
  content: string | Array<{ type: string; text?: string }>;
}

export interface FakeRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: FakeChatMessage[];
    stream?: boolean;
    [key: string]: unknown;
  };
}

export type FakeBehaviour =
  /** A normal answer with `reply(request)` (streamed when the request asks for it). */
  | { kind: 'answer' }
  /** 200 with a body that is not a chat completion. */
  | { kind: 'garbage' }
  /** An HTTP error with an OpenAI-style error body. */
  | { kind: 'error'; status: number }
  /** Accepts the request and never answers (until the server closes). */
  | { kind: 'hang' };

export interface FakeOpenAI {
  /** Base URL to configure, ending in /v1. */
  url: string;
  requests: FakeRequest[];
  /** What a normal answer says; the default echoes nothing useful: "OK". */
  reply: (request: FakeRequest) => string;
  /** How to answer requests for one model (default: `{ kind: 'answer' }`). */
  behave(model: string, behaviour: FakeBehaviour): void;
  /** The text of a request's messages, joined, to look for a prompt's words. */
  textOf(request: FakeRequest): string;
  close(): Promise<void>;
}

function textOf(request: FakeRequest): string {
  return request.body.messages
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content.map((part) => part.text ?? '').join(''),
    )
    .join('\n');
}

/** Splits a reply into small chunks, so a client sees a real stream. */
function chunks(text: string): string[] {
  return text.match(/.{1,8}/gs) ?? [''];
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const behaviours = new Map<string, FakeBehaviour>();
  const hanging = new Set<http.ServerResponse>();
  const fake: Omit<FakeOpenAI, 'url' | 'close'> = {
    requests: [],
    reply: () => 'OK',
    behave: (model, behaviour) => behaviours.set(model, behaviour),
    textOf,
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
        return;
      }
      let body: FakeRequest['body'];
      try {
        body = JSON.parse(raw) as FakeRequest['body'];
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'invalid JSON' } }));
        return;
      }
      const request: FakeRequest = { path, headers: req.headers, body };
      fake.requests.push(request);
      const behaviour = behaviours.get(body.model) ?? { kind: 'answer' };
      switch (behaviour.kind) {
        case 'hang':
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        case 'error':
          res.writeHead(behaviour.status, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              error: { message: 'The fake server failed on purpose.', type: 'server_error' },
            }),
          );
          return;
        case 'garbage':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"this is": not a chat completion');
          return;
        case 'answer':
          break;
      }
      const text = fake.reply(request);
      const id = `chatcmpl-fake-${fake.requests.length}`;
      const created = Math.floor(Date.now() / 1000);
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created,
            model: body.model,
            choices: [
              { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const event = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
      const chunk = (delta: Record<string, unknown>, finish: string | null) =>
        event({
          id,
          object: 'chat.completion.chunk',
          created,
          model: body.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
      chunk({ role: 'assistant', content: '' }, null);
      for (const piece of chunks(text)) chunk({ content: piece }, null);
      chunk({}, 'stop');
      res.write('data: [DONE]\n\n');
      res.end();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    get reply() {
      return fake.reply;
    },
    set reply(value) {
      fake.reply = value;
    },
    url: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
