/**
 * Study coach benchmark (issue 13): offline turn latency through POST
 * /functions/v1/ai-study-chat (p50/p99; goal p99 < 50 ms) for one learner talking alone, then 50
 * learners talking at once (requests per second and p99). Each learner's dialogue repeats
 * "start, a wrong answer, I'm stuck, the right answer", in a new session every 12 turns so
 * sessions stay a realistic length. The sample course "Algebra: Linear Equations" is the bank.
 *
 *   node --import tsx bench/coach-chat-bench.ts [seconds-per-case] [pglite|postgres]
 */
import { buildCoachWorld, chat, type CoachUser } from '../tests/integration/coach-world';
import { createClient } from '@supabase/supabase-js';
import type { TestServer } from '../tests/support/test-server';
import { onBothDatabases, startBenchServer, type BenchDatabase } from './lib/bench-server';
import type { PostgresCluster } from '../tests/support/postgres-cluster';

/** Node 20 has no WebSocket for realtime-js; nothing here uses realtime. */
class RealtimeUnused {
  constructor() {
    throw new Error('realtime is not used by this bench');
  }
}

const SECONDS = Number(process.argv[2] ?? 5);
const ONLY = process.argv[3] as BenchDatabase | undefined;
const LEARNERS = 50;
const P99_GOAL_MS = 50;

interface Row {
  database: string;
  name: string;
  turns: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** One learner's endless dialogue: each call sends the next message and records its latency. */
function dialogue(
  server: TestServer,
  who: CoachUser,
  course: string,
  answer: (q: string, right: boolean) => Promise<string>,
) {
  let session: string | undefined;
  let question: string | undefined;
  let step = 0;
  return async (latencies: number[]) => {
    const phase = step % 12;
    let message = "Let's start";
    if (phase > 0 && question) {
      const kind = phase % 3;
      message =
        kind === 1
          ? await answer(question, false)
          : kind === 2
            ? "I'm stuck"
            : await answer(question, true);
    }
    const started = performance.now();
    const { status, body } = await chat(server, who, {
      mode: 'study',
      message,
      ...(phase > 0 && session ? { session_id: session } : { course_id: course }),
    });
    latencies.push(performance.now() - started);
    if (status !== 200) throw new Error(`HTTP ${status}: ${JSON.stringify(body)}`);
    session = body.session_id;
    question = body.question_id ?? question;
    step += 1;
  };
}

async function bench(kind: BenchDatabase, cluster?: PostgresCluster): Promise<Row[]> {
  const bench = await startBenchServer(kind, cluster, 'coach', {
    API_RATE_LIMIT_PER_SECOND: '100000',
    AUTH_RATE_LIMIT_SIGN_IN: '100000',
  });
  const { server: running } = bench;
  const keys = running.deps.keys;
  // supabase-js clients as the tests make them (tests/support/test-server.ts imports vitest,
  // which a bench process cannot load).
  const testClient = (_: unknown, key: string, token?: string) =>
    createClient(running.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: RealtimeUnused as never },
      ...(token ? { global: { headers: { Authorization: `Bearer ${token}` } } } : {}),
    });
  const server = {
    ...running,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    anon: () => testClient(running, keys.anonKey),
    service: () => testClient(running, keys.serviceRoleKey),
    withToken: (token: string) => testClient(running, keys.anonKey, token),
  } as unknown as TestServer;
  try {
    const world = await buildCoachWorld(server);
    // Answers are read once per question, as a learner would know them, not timed.
    const known = new Map<string, string>();
    const answer = async (q: string, right: boolean) => {
      const key = `${q}:${right}`;
      if (!known.has(key)) known.set(key, await world.answer(q, right));
      return known.get(key)!;
    };
    const rows: Row[] = [];

    const alone = dialogue(server, world.learner, world.course, answer);
    for (let i = 0; i < 24; i += 1) await alone([]); // warm-up
    const latencies: number[] = [];
    const end = performance.now() + SECONDS * 1000;
    while (performance.now() < end) await alone(latencies);
    latencies.sort((a, b) => a - b);
    rows.push({
      database: kind,
      name: 'one learner, offline turn',
      turns: latencies.length,
      perSecond: latencies.length / SECONDS,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    });

    const learners: CoachUser[] = [];
    for (let i = 0; i < LEARNERS; i += 1) {
      const email = `bench-learner-${i}-${Date.now()}@example.com`;
      const password = 'a long enough passphrase';
      const created = await server
        .service()
        .auth.admin.createUser({ email, password, email_confirm: true });
      if (created.error) throw new Error(created.error.message);
      const id = created.data.user.id;
      await server
        .service()
        .from('memberships')
        .insert({ user_id: id, organization_id: world.org, role: 'learner' });
      await server.service().from('enrollments').insert({ user_id: id, course_id: world.course });
      const signIn = await server.anon().auth.signInWithPassword({ email, password });
      if (signIn.error) throw new Error(signIn.error.message);
      const token = signIn.data.session.access_token;
      learners.push({ id, token, client: testClient(running, keys.anonKey, token) });
    }
    // Every turn is metered (decision 0220); a long run must not meet the free tier's 500.
    const roomy = await server
      .service()
      .from('user_quotas')
      .update({ monthly_limit: 1_000_000 })
      .in(
        'user_id',
        learners.map((l) => l.id),
      );
    if (roomy.error) throw new Error(roomy.error.message);
    const crowd: number[] = [];
    const crowdEnd = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      learners.map(async (who) => {
        const talk = dialogue(server, who, world.course, answer);
        while (performance.now() < crowdEnd) await talk(crowd);
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    crowd.sort((a, b) => a - b);
    rows.push({
      database: kind,
      name: `${LEARNERS} learners at once`,
      turns: crowd.length,
      perSecond: crowd.length / elapsed,
      p50: percentile(crowd, 50),
      p99: percentile(crowd, 99),
    });
    return rows;
  } finally {
    await bench.close();
  }
}

const rows = await onBothDatabases(bench, ONLY);
console.log('\nStudy coach (ai-study-chat, offline engine)');
console.log('database  case                         turns   turns/s   p50 ms   p99 ms');
for (const r of rows) {
  console.log(
    `${r.database.padEnd(9)} ${r.name.padEnd(28)} ${String(r.turns).padStart(5)} ${r.perSecond.toFixed(1).padStart(9)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}`,
  );
}
const alone = rows.filter((r) => r.name.startsWith('one learner'));
const missed = alone.filter((r) => r.p99 >= P99_GOAL_MS);
for (const r of missed)
  console.log(`MISSED: ${r.database} offline turn p99 ${r.p99.toFixed(1)} ms ≥ ${P99_GOAL_MS} ms`);
