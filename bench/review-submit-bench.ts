/**
 * Flashcard review submit benchmark (issue 12, decision 0160): one rating through the review
 * screen's own function (`rateCard` in src/web/lib/offline/rate-card.ts, online, run
 * unchanged by the web app's client: POST /functions/v1/flashcards/review, FSRS on the server,
 * the card and its review log written under RLS). Target: p99 < 30 ms.
 *
 * A learner with CARDS cards in one deck, imported through the same api (`importCards`), rates
 * them one after another (Good, then Again every fifth, so cards move between states as in a
 * real session); one rating at a time, as one learner gives them. The learner has studied
 * before: HISTORY_DAYS days of REVIEWS_PER_DAY reviews each, with the XP they earned (50 a day,
 * the daily cap), the badges they earned and a goal of reviewing cards every day, so the work that grows with a
 * learner's history (the daily XP cap, badges and streak, the goal's progress) is measured
 * as a regular learner meets it, not on an empty account.
 *
 *   node --import tsx bench/review-submit-bench.ts [pglite|postgres]   (default postgres)
 *
 * The web app's client is one per process, so each database is its own run.
 * Environment: REVIEW_BENCH_SECONDS       seconds measured (default 5)
 *              REVIEW_BENCH_HISTORY_DAYS  days of earlier reviews (default 365)
 *              REVIEW_BENCH_EXPLAIN       1: also print the plans of one rating's statements
 *                                         (PostgreSQL: auto_explain, ANALYZE, nested statements)
 */
import os from 'node:os';
import { createClient } from '@supabase/supabase-js';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import { startPostgresCluster } from '../tests/support/postgres-cluster';
import type { Database } from '../src/server/db/types';
import { explainAsUser } from './lib/explain-as-user';
import { startBenchServer, type BenchDatabase } from './lib/bench-server';
import { measureLoop } from './lib/measure';
import { RealtimeUnused, webAppSignIn } from './lib/web-client';

const SECONDS = Number(process.env.REVIEW_BENCH_SECONDS ?? 5);
const TARGET_MS = 30;
const CARDS = 2_000;
const HISTORY_DAYS = Number(process.env.REVIEW_BENCH_HISTORY_DAYS ?? 365);
const REVIEWS_PER_DAY = 100;
const EXPLAIN = process.env.REVIEW_BENCH_EXPLAIN === '1';
const PASSWORD = 'bench-password-not-secret';
const EMAIL = 'reviewer@bench.test';

/**
 * Earlier study, written as the product would have written it but in bulk: the reviews, the XP
 * they earned (at most 50 a day) and a daily review goal. Triggers are off for the load
 * (`session_replication_role`), as each row's effects are written here directly.
 */
async function seedHistory(db: Database, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `insert into public.flashcard_reviews (
         user_id, card_id, deck_id, rating, reviewed_at, state_before, state_after,
         stability_before, stability_after, difficulty_before, difficulty_after,
         due_before, due_after, elapsed_days, scheduled_days, card_before)
       select $1, c.id, c.deck_id, 3, r.at, 2, 2, 5, 6, 5, 5, r.at, r.at + interval '6 days',
              6, 6, '{}'::jsonb
         from (select d, n, now() - make_interval(days => d) + make_interval(secs => n * 20) as at,
                      row_number() over () as k
                 from generate_series(1, $2::int) d, generate_series(1, $3::int) n) r
         join (select id, deck_id, row_number() over (order by id) - 1 as k
                 from public.flashcards where user_id = $1) c
           on c.k = r.k % (select count(*) from public.flashcards where user_id = $1)`,
      [userId, HISTORY_DAYS, REVIEWS_PER_DAY],
    );
    await tx.query(
      `insert into public.xp_events (user_id, source, source_id, course_id, amount, earned_at, local_day)
       select user_id, 'cards_reviewed', id::text, null, 1, reviewed_at, (reviewed_at at time zone 'UTC')::date
         from (select r.*, row_number() over (partition by (reviewed_at at time zone 'UTC')::date
                                              order by reviewed_at) as n
                 from public.flashcard_reviews r where r.user_id = $1) r
        where n <= 50`,
      [userId],
    );
    await tx.query(
      `insert into public.goals (user_id, set_by, kind, title, target_count)
       values ($1, $1, 'review_cards_daily', 'Review cards every day', 1000)`,
      [userId],
    );
    // The badges that history earned, as the XP trigger would have awarded them.
    await tx.query(`select learning.award_badges($1)`, [userId]);
  });
  await db.exec('vacuum analyze');
}

/**
 * The plans of one rating's write as the flashcards function runs it (the procedure and every
 * trigger under it), rolled back.
 */
async function explainRating(databaseUrl: string, userId: string, cardId: string) {
  return explainAsUser(databaseUrl, userId, async (client) => {
    const now = new Date();
    const schedule = {
      state: 1,
      due: new Date(now.getTime() + 600_000).toISOString(),
      stability: 2.3,
      difficulty: 5,
      scheduled_days: 0,
      learning_steps: 1,
      reps: 1,
      lapses: 0,
      last_review: now.toISOString(),
    };
    await client.query(
      `select (learning.record_flashcard_review($1, 3::smallint, $2, 0, 0, $3::jsonb, $4)).id`,
      [cardId, now.toISOString(), JSON.stringify(schedule), crypto.randomUUID()],
    );
  });
}

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
    await seedHistory(bench.server.deps.db, userId);
    if (EXPLAIN && kind === 'postgres') {
      console.log(await explainRating(server.deps.config.databaseUrl!, userId, cards[0]!.id));
    }

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
      `Flashcard review submit (reviewCard through supabase-js) on ${kind}, ` +
        `after ${HISTORY_DAYS} days of ${REVIEWS_PER_DAY} reviews: ` +
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
