/**
 * Time to the first streamed token of the coach's answer (issue 13): POST
 * /functions/v1/ai-study-chat with `Accept: text/event-stream`, timed from sending the request
 * to the first `delta` event, and to the final `done` event, p50/p95/p99. Two engines:
 *
 * - the built-in offline engine (no model configured);
 * - a model through the AI SDK, provider A pointed at the loopback fake OpenAI-compatible server
 *   (tests/support/fake-openai.ts), which answers at once in chunks of eight characters: the
 *   figure is Lyceum's own overhead (sign-in check, session, state machine, the provider round
 *   trip through the SDK), not a real model's thinking time.
 *
 * Each request starts a Study Session on the sample course ("start"), which asks a bank question.
 *
 *   node --import tsx bench/coach-first-token-bench.ts [requests] [pglite|postgres]
 */
import { createClient } from '@supabase/supabase-js';
import { buildCoachWorld } from '../tests/integration/coach-world';
import { startFakeOpenAI } from '../tests/support/fake-openai';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import type { TestServer } from '../tests/support/test-server';
import { onBothDatabases, startBenchServer, type BenchDatabase } from './lib/bench-server';

/** Node 20 has no WebSocket for realtime-js; nothing here uses realtime. */
class RealtimeUnused {
  constructor() {
    throw new Error('realtime is not used by this bench');
  }
}

const REQUESTS = Number(process.argv[2] ?? 60);
const ONLY = process.argv[3] as BenchDatabase | undefined;
const WARM_UP = 5;

interface Row {
  database: string;
  engine: string;
  requests: number;
  first: number[];
  done: number[];
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** One streamed turn: milliseconds to the first `delta` event and to the `done` event. */
async function streamedTurn(
  server: TestServer,
  token: string,
  course: string,
): Promise<{ first: number; done: number; engine: string }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/functions/v1/ai-study-chat`, {
    method: 'POST',
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ mode: 'study', course_id: course, message: 'start' }),
  });
  if (response.status !== 200 || !response.body) {
    throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  }
  let first = NaN;
  let buffered = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    if (Number.isNaN(first) && /^event: delta$/m.test(buffered))
      first = performance.now() - started;
  }
  const done = performance.now() - started;
  const last = buffered
    .split('\n\n')
    .filter((block) => block.trim())
    .at(-1);
  if (!last || !/^event: done$/m.test(last)) throw new Error('the stream ended without `done`');
  const data = JSON.parse(/^data: (.*)$/m.exec(last)![1]!) as { engine?: { label?: string } };
  if (Number.isNaN(first)) throw new Error('the stream carried no `delta` event');
  return { first, done, engine: data.engine?.label ?? 'unknown' };
}

async function measure(
  kind: BenchDatabase,
  cluster: PostgresCluster | undefined,
  engine: 'offline' | 'model',
): Promise<Row> {
  const fake = engine === 'model' ? await startFakeOpenAI() : undefined;
  if (fake) fake.reply = () => 'Let us look at this question together. '.repeat(6);
  const bench = await startBenchServer(kind, cluster, `coach-ttft-${engine}`, {
    API_RATE_LIMIT_PER_SECOND: '100000',
    AUTH_RATE_LIMIT_SIGN_IN: '100000',
    ...(fake ? { AI_A_BASE_URL: fake.url, AI_A_MODEL: 'mid-a', AI_TIMEOUT_MS: '5000' } : {}),
  });
  const { server: running } = bench;
  const keys = running.deps.keys;
  const testClient = (key: string, token?: string) =>
    createClient(running.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: RealtimeUnused as never },
      ...(token ? { global: { headers: { Authorization: `Bearer ${token}` } } } : {}),
    });
  const server = {
    ...running,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    anon: () => testClient(keys.anonKey),
    service: () => testClient(keys.serviceRoleKey),
    withToken: (token: string) => testClient(keys.anonKey, token),
  } as unknown as TestServer;
  try {
    const world = await buildCoachWorld(server);
    const first: number[] = [];
    const done: number[] = [];
    let label = '';
    for (let i = 0; i < WARM_UP + REQUESTS; i += 1) {
      const turn = await streamedTurn(server, world.learner.token, world.course);
      label = turn.engine;
      if (i < WARM_UP) continue;
      first.push(turn.first);
      done.push(turn.done);
    }
    first.sort((a, b) => a - b);
    done.sort((a, b) => a - b);
    return { database: kind, engine: label, requests: REQUESTS, first, done };
  } finally {
    await bench.close();
    await fake?.close();
  }
}

const rows = await onBothDatabases(
  async (kind, cluster) => [
    await measure(kind, cluster, 'offline'),
    await measure(kind, cluster, 'model'),
  ],
  ONLY,
);
console.log('\nCoach: time to first streamed token (ai-study-chat, Accept: text/event-stream)');
console.log(
  'database  engine                         requests  first p50  first p95  first p99   done p50   done p95',
);
for (const r of rows) {
  const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);
  console.log(
    `${r.database.padEnd(9)} ${r.engine.padEnd(30)} ${String(r.requests).padStart(8)} ${ms(percentile(r.first, 50))} ${ms(percentile(r.first, 95))} ${ms(percentile(r.first, 99))} ${ms(percentile(r.done, 50))} ${ms(percentile(r.done, 95))}`,
  );
}
