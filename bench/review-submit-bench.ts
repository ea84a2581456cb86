/**
 * Flashcard review submit benchmark (issue 12, decision 0160): one rating through the review
 * screen's own function (`rateCard` in src/web/lib/offline/rate-card.ts, online, run
 * unchanged by the web app's client: POST /functions/v1/flashcards/review, FSRS on the server,
 * the card and its review log written under RLS). Target: p99 < 30 ms.
 *
 * A learner with CARDS cards in one deck, imported through the same api (`importCards`), rates
 * them one after another (Good, then Again every fifth, so cards move between states as in a
 * real session); one rating at a time, as one learner gives them.
 *
 *   node --import tsx bench/review-submit-bench.ts [pglite|postgres]   (default postgres)
 *
 * The web app's client is one per process, so each database is its own run.
 * Environment: REVIEW_BENCH_SECONDS  seconds measured (default 5)
 */
import os from 'node:os';
import { createClient } from '@supabase/supabase-js';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import { startPostgresCluster } from '../tests/support/postgres-cluster';
import { startBenchServer, type BenchDatabase } from './lib/bench-server';
import { measureLoop } from './lib/measure';
import { RealtimeUnused, webAppSignIn } from './lib/web-client';

const SECONDS = Number(process.env.REVIEW_BENCH_SECONDS ?? 5);
const TARGET_MS = 30;
const CARDS = 2_000;
const PASSWORD = 'bench-password-not-secret';
const EMAIL = 'reviewer@bench.test';

async function run(kind: BenchDatabase, cluster?: PostgresCluster) {
  const bench = await startBenchServer(kind, cluster, 'review', {
    NODE_ENV: 'production',
    API_RATE_LIMIT_PER_SECOND: '100000000',
  });
  try {
    const { server } = bench;
    const service = createClient(server.url, server.deps.keys.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: RealtimeUnused as never },
    });
    const created = await service.auth.admin.createUser({
      email: EMAIL,
      password: PASSWORD,
      email_confirm: true,
    });
    if (created.error) throw new Error(`create the learner: ${created.error.message}`);
    await webAppSignIn(server, EMAIL, PASSWORD);
    const userId = created.data.user!.id;

    const { createDeck } = await import('../src/web/features/flashcards/api/decks');
    const { importCards } = await import('../src/web/features/flashcards/api/cards');
    const { cardColumns } = await import('../src/web/features/flashcards/api/cards');
    const { rateCard } = await import('../src/web/lib/offline/rate-card');
    const deckId = await createDeck({
      name: 'Bench deck',
      description: '',
      courseId: null,
      desiredRetention: 0.9,
    });
    const imported = await importCards(
      deckId,
      Array.from({ length: CARDS }, (_, i) => ({
        front: `Question ${i + 1}`,
        back: `Answer ${i + 1}`,
      })),
    );
    if (imported !== CARDS) throw new Error(`imported ${imported} cards, not ${CARDS}`);
    const client = await (await import('../src/web/lib/supabase')).getSupabase();
    const { data, error } = await client
      .from('flashcards')
      .select(cardColumns)
      .eq('deck_id', deckId);
    if (error) throw new Error(error.message);
    const cards = data as unknown as Parameters<typeof rateCard>[1][];

    let next = 0;
    let firstError: unknown;
    const rate = async () => {
      const n = next++;
      try {
        const answer = await rateCard(userId, cards[n % cards.length]!, n % 5 === 4 ? 1 : 3, 0.9);
        if (!answer.reviewId) throw new Error('no review id in the answer');
      } catch (error) {
        firstError ??= error;
        throw error;
      }
    };
    await measureLoop(rate, { connections: 1, seconds: 1 });
    const before = os.loadavg()[0]!;
    const m = await measureLoop(rate, { connections: 1, seconds: SECONDS });
    const after = os.loadavg()[0]!;
    console.log(
      `Flashcard review submit (reviewCard through supabase-js) on ${kind}: ` +
        `p50 ${m.p50Ms.toFixed(1)} ms, p95 ${m.p95Ms.toFixed(1)} ms, p99 ${m.p99Ms.toFixed(1)} ms ` +
        `(target < ${TARGET_MS} ms: ${m.p99Ms < TARGET_MS ? 'met' : 'MISSED'}); ` +
        `${m.total} ratings in ${m.seconds.toFixed(1)} s, ${m.errors} errors; ` +
        `${os.cpus().length} CPUs, load average ${before.toFixed(2)} before, ${after.toFixed(2)} after`,
    );
    if (firstError !== undefined) {
      console.error(firstError);
      process.exitCode = 1;
    }
  } finally {
    await bench.close();
  }
}

async function main() {
  const kind = (process.argv[2] ?? 'postgres') as BenchDatabase;
  if (kind !== 'pglite' && kind !== 'postgres') {
    throw new Error(`The database is pglite or postgres, not "${kind}".`);
  }
  if (kind === 'pglite') return run('pglite');
  const cluster = await startPostgresCluster();
  try {
    await run('postgres', cluster);
  } finally {
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
