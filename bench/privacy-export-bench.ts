/**
 * The GDPR export of a heavy learner (issue 16: 1,000 notes, 10,000 reviews, 200 coach
 * sessions), on PostgreSQL and PGlite: how long `buildExport` (the privacy-export job) takes,
 * how big the zip is, and how much the process's memory grows while it runs, for one or more
 * sizes of the learner's data (decision 0429: the zip is streamed, so memory stays flat), and
 * how long the export's one snapshot of the records was held (decision 0437: on PGlite, the
 * database's one connection is the export's for that long).
 *
 * The learner's data is written in SQL with the audit triggers on, so their export also holds
 * the audit entries those writes made (about them, values included), as a real learner's would:
 * NOTES notes of ~1 KB, 2,000 flashcards in one deck, REVIEWS reviews, SESSIONS coach sessions
 * of 10 messages each, and FILES stored files of 200 KB.
 *
 *   node --expose-gc --import tsx bench/privacy-export-bench.ts [scale ...]   (e.g. 1 10)
 *   BENCH_ONLY=pglite|postgres limits it to one database.
 *
 * Memory is the peak over the export of the process's RSS and JS heap, above what they were
 * when it started (after a GC). On PGlite the database runs in this process, so its RSS also
 * holds the database's own pages as the export reads them; the JS heap is the export's.
 */
import os from 'node:os';
import { buildExport, personalData } from '../src/server/compliance/personal-data';
import type { PostgresCluster } from '../tests/support/postgres-cluster';
import { onBothDatabases, startBenchServer, type BenchDatabase } from './lib/bench-server';

const SCALES = process.argv.slice(2).map(Number);
if (SCALES.length === 0) SCALES.push(1);
const FILES = 20;
const FILE_BYTES = 200_000;

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const load = () =>
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

async function run(kind: BenchDatabase, cluster?: PostgresCluster) {
  for (const scale of SCALES) await runScale(kind, scale, cluster);
  return [];
}

async function runScale(kind: BenchDatabase, SCALE: number, cluster?: PostgresCluster) {
  const NOTES = 1000 * SCALE;
  const CARDS = 2000 * SCALE;
  const REVIEWS = 10_000 * SCALE;
  const SESSIONS = 200 * SCALE;
  const bench = await startBenchServer(kind, cluster, 'export');
  try {
    const { db, storage } = bench.server.deps;
    const { rows } = await db.query<{ id: string }>(
      `insert into auth.users (id, email, email_confirmed_at)
       values (gen_random_uuid(), 'heavy@export.bench', now()) returning id`,
    );
    const learner = rows[0]!.id;
    const seedStart = performance.now();
    await db.query(
      `insert into public.notes (user_id, title, body)
       select $1, 'Note ' || g, repeat('Photosynthesis turns light into chemical energy. ', 20)
         from generate_series(1, $2::int) g`,
      [learner, NOTES],
    );
    const { rows: deck } = await db.query<{ id: string }>(
      `insert into public.flashcard_decks (user_id, name) values ($1, 'Biology') returning id`,
      [learner],
    );
    await db.query(
      `insert into public.flashcards (user_id, deck_id, front, back)
       select $1, $2, 'What does chlorophyll absorb? (' || g || ')', 'Red and blue light.'
         from generate_series(1, $3::int) g`,
      [learner, deck[0]!.id, CARDS],
    );
    await db.query(
      `insert into public.flashcard_reviews
         (user_id, card_id, deck_id, rating, reviewed_at, state_before, state_after,
          stability_before, stability_after, difficulty_before, difficulty_after, due_before,
          due_after, elapsed_days, scheduled_days, card_before)
       select $1, c.id, c.deck_id, 1 + g % 4, now() - make_interval(hours => g), 2, 2,
              3.5, 7.1, 5.2, 5.0, now() - make_interval(hours => g), now() + interval '7 days',
              3, 7, jsonb_build_object('due', now(), 'stability', 3.5, 'difficulty', 5.2, 'reps', g % 9)
         from generate_series(1, $2::int) g
         join (select f.id, f.deck_id, row_number() over (order by f.id) - 1 as n
                 from public.flashcards f where f.user_id = $1) c on c.n = g % $3`,
      [learner, REVIEWS, CARDS],
    );
    await db.query(
      `with sessions as (
         insert into public.chat_sessions (user_id, mode, title)
         select $1, 'study', 'Session ' || g from generate_series(1, $2::int) g returning id)
       insert into public.chat_messages (session_id, user_id, sender, content)
       select s.id, $1, case when m % 2 = 0 then 'learner' else 'coach' end,
              repeat('Explain how the light reactions feed the Calvin cycle. ', 6)
         from sessions s cross join generate_series(1, 10) m`,
      [learner, SESSIONS],
    );
    const file = new Uint8Array(FILE_BYTES).map((_, i) => (i * 7919) % 251);
    for (let i = 0; i < FILES; i++) {
      await storage.putObject('kb_files', `${learner}/notes-${i}.pdf`, file, 'application/pdf', {
        owner: learner,
      });
    }
    const { rows: counts } = await db.query<{ entries: number }>(
      'select count(*)::int as entries from public.audit_log where subject_user_id = $1 or user_id = $1',
      [learner],
    );
    console.log(
      `${kind} ×${SCALE}: seeded ${NOTES} notes, ${CARDS} cards, ${REVIEWS} reviews, ${SESSIONS} sessions ` +
        `(${SESSIONS * 10} messages), ${FILES} files of ${FILE_BYTES / 1000} KB, ` +
        `${counts[0]!.entries} audit entries in ${((performance.now() - seedStart) / 1000).toFixed(0)} s`,
    );

    const { rows: queued } = await db.query<{ id: string }>(
      `insert into privacy.data_exports (user_id, requested_by) values ($1, $1) returning id`,
      [learner],
    );
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    let peakLive = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 20);
    // What the export still holds (heap right after a full GC, twice a second): garbage not
    // yet collected is left out, so this is what would grow with the data if anything did.
    const liveSampler = global.gc
      ? setInterval(() => {
          global.gc!();
          peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
        }, 500)
      : undefined;
    const start = performance.now();
    const built = await buildExport({ db, storage }, queued[0]!.id);
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    clearInterval(liveSampler);
    console.log(
      `${kind} ×${SCALE}: export ${seconds.toFixed(2)} s (snapshot held ${(built.snapshotMs / 1000).toFixed(2)} s), ` +
        `zip ${mb(built.sizeBytes)}, ${built.records} records in ` +
        `${built.tables} tables, ${built.files} files; process memory +${mb(peakRss - before.rss)} RSS, ` +
        `+${mb(peakHeap - before.heapUsed)} heap at the peak, +${mb(peakLive - before.heapUsed)} heap live after GC (${load()})`,
    );
    // What the whole registry query alone holds (the export before decision 0429 also built
    // the zip from it in memory).
    global.gc?.();
    const beforeQuery = process.memoryUsage();
    let queryPeak = beforeQuery.heapUsed;
    const querySampler = setInterval(() => {
      queryPeak = Math.max(queryPeak, process.memoryUsage().heapUsed);
    }, 20);
    const queryStart = performance.now();
    const tables = await personalData(db, learner);
    clearInterval(querySampler);
    console.log(
      `${kind} ×${SCALE}: registry query (all at once) ${((performance.now() - queryStart) / 1000).toFixed(2)} s for ` +
        `${tables.reduce((sum, t) => sum + t.rows.length, 0)} records, +${mb(queryPeak - beforeQuery.heapUsed)} heap at the peak (${load()})`,
    );
  } finally {
    await bench.close();
  }
}

await onBothDatabases(run, process.env.BENCH_ONLY as BenchDatabase | undefined);
process.exit(0);
