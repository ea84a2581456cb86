/**
 * Library search benchmark (issue 12, decision 0151): `search_library` through the library
 * screen's own api function (src/web/features/library/api/search-library.ts, run unchanged by
 * the web app's client, RLS on) on PostgreSQL, over 10,000 lessons and 1,000 extracted books.
 * Target: p99 < 100 ms for every query.
 *
 * Data: the learning bench's seed (bench/learning-seed.ts) with 1,000 courses of 10 lessons and
 * LEARNERS learners; then, with the product's triggers on, nine Markdown lessons per course get
 * a body of LESSON_WORDS words and the tenth becomes a file lesson (ePub or PDF, alternating)
 * whose book is stored as extraction would store it: a storage object, a course_documents row
 * and CHAPTERS pages of CHAPTER_WORDS words. Words are drawn from the demo courses' own lesson
 * texts with a skewed frequency, so some are in nearly every page and some in few.
 *
 * Searchers: a learner enrolled in 11 courses, an instructor teaching 5, and the organization's
 * admin, who reads all 1,000 courses (the widest RLS set).
 *
 *   node --import tsx bench/library-search-bench.ts
 *
 * Environment:
 *   LIBRARY_BENCH_SECONDS  seconds measured per case (default 5)
 *   LIBRARY_BENCH_SCALE    1 (default): 1,000 courses and books; 0.1 a tenth, for a quick look
 *   LIBRARY_BENCH_EXPLAIN  1: also print the plans of the admin's searches (auto_explain, ANALYZE)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import type { Queryable } from '../src/server/db/types';
import { startPostgresCluster } from '../tests/support/postgres-cluster';
import { benchIds, LESSONS_PER_COURSE, seedLearning } from './learning-seed';
import { explainAsUser } from './lib/explain-as-user';
import { startBenchServer } from './lib/bench-server';
import { measureLoop, type LoopMeasurement } from './lib/measure';
import { RealtimeUnused, webAppSignIn } from './lib/web-client';

const SECONDS = Number(process.env.LIBRARY_BENCH_SECONDS ?? 5);
const SCALE = Number(process.env.LIBRARY_BENCH_SCALE ?? 1);
const EXPLAIN = process.env.LIBRARY_BENCH_EXPLAIN === '1';
const PASSWORD = 'bench-password-not-secret';
const TARGET_MS = 100;
const LEARNERS = 2_000;
const LESSON_WORDS = 300;
const CHAPTERS = 10;
const CHAPTER_WORDS = 1_000;

function log(message: string) {
  process.stderr.write(`[library-search-bench] ${message}\n`);
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** Distinct words of the demo courses' lesson texts, most frequent first. */
function vocabulary(): string[] {
  const counts = new Map<string, number>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) {
        for (const word of fs
          .readFileSync(full, 'utf8')
          .toLowerCase()
          .match(/[a-z]{3,}/g) ?? []) {
          counts.set(word, (counts.get(word) ?? 0) + 1);
        }
      }
    }
  };
  walk(path.resolve('content/courses'));
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([word]) => word);
}

const PARAGRAPHS = 2_000;
const PARAGRAPH_WORDS = 100;

/**
 * `paragraphs` paragraphs drawn at random from bench_paragraphs. `row` names columns of the
 * outer row, so the subquery is run again for every row instead of once.
 */
const text = (paragraphs: number, row: string) =>
  `(select string_agg(p.body, ' ')
      from (select 1 + floor(random() * ${PARAGRAPHS})::int as n
              from generate_series(1, ${paragraphs}) where ${row} is not null) pick
      join bench_paragraphs p on p.n = pick.n)`;

async function seedLibrary(tx: Queryable, words: string[], courses: number): Promise<void> {
  await tx.query(`set local work_mem = '256MB'`);
  // Paragraphs of words drawn with a skewed frequency (the most frequent most often); texts are
  // made of paragraphs, which is much faster than drawing every word of 10 million.
  await tx.query(
    `create temporary table bench_paragraphs (n int primary key, body text not null) on commit drop`,
  );
  await tx.query(
    `insert into bench_paragraphs (n, body)
     select g, (select string_agg(w.word, ' ')
                  from (select 1 + floor(power(random(), 2.2) * array_length($1::text[], 1))::int as r
                          from generate_series(1, $3::int) where g is not null) pick
                  join unnest($1::text[]) with ordinality w(word, rank) on w.rank = pick.r)
       from generate_series(1, $2::int) g`,
    [words, PARAGRAPHS, PARAGRAPH_WORDS],
  );
  await tx.query(`analyze bench_paragraphs`);
  // Triggers on: the lessons' search vectors are written by the product's own trigger.
  await tx.query(
    `update public.lessons l set body = ${text(LESSON_WORDS / PARAGRAPH_WORDS, 'l.id')}
      where l.position < $1::int`,
    [LESSONS_PER_COURSE],
  );
  await tx.query(
    `update public.lessons l
        set kind = k.kind, body = null,
            file_path = l.course_id::text || '/reader.' || k.kind
       from (select c.id, case when row_number() over (order by c.id) % 2 = 0 then 'epub' else 'pdf' end as kind
               from public.courses c) k
      where k.id = l.course_id and l.position = $1::int`,
    [LESSONS_PER_COURSE],
  );
  await tx.query(
    `insert into storage.objects (bucket_id, name, file_id, metadata)
     select 'course-files', l.file_path, gen_random_uuid(), '{"size": 1}'::jsonb
       from public.lessons l where l.file_path is not null`,
  );
  await tx.query(
    `insert into public.course_documents
       (object_id, file_path, course_id, kind, title, section_count, outline, text_chars)
     select o.id, l.file_path, l.course_id, l.kind, l.title || ' reader', $1::int,
            (select jsonb_agg(jsonb_build_object('title', 'Chapter ' || g, 'position', g))
               from generate_series(1, $1::int) g), 0
       from public.lessons l join storage.objects o
         on o.bucket_id = 'course-files' and o.name = l.file_path`,
    [CHAPTERS],
  );
  await tx.query(
    `insert into public.course_document_pages (object_id, course_id, position, label, href, body)
     select d.object_id, d.course_id, g,
            case when d.kind = 'epub' then 'Chapter ' || g else '' end,
            case when d.kind = 'epub' then 'OEBPS/chapter-' || g || '.xhtml' end,
            ${text(CHAPTER_WORDS / PARAGRAPH_WORDS, '(d.object_id, g)')}
       from public.course_documents d, generate_series(1, $1::int) g`,
    [CHAPTERS],
  );
  const [count] = (
    await tx.query<{ lessons: number; books: number; pages: number }>(
      `select (select count(*) from public.lessons)::int as lessons,
              (select count(*) from public.course_documents)::int as books,
              (select count(*) from public.course_document_pages)::int as pages`,
    )
  ).rows;
  if (count!.lessons !== courses * LESSONS_PER_COURSE || count!.books !== courses) {
    throw new Error(`seeded ${JSON.stringify(count)}, expected ${courses} courses' worth`);
  }
}

/** The plans search_library's statements get for `userId`, as run. */
function explainSearch(databaseUrl: string, userId: string, query: string): Promise<string> {
  return explainAsUser(databaseUrl, userId, (client) =>
    client.query(`select count(*) from public.search_library($1, null, null, 20, 0)`, [query]),
  );
}

interface Case {
  actor: string;
  label: string;
  run: () => Promise<number>;
}

async function main() {
  if (!Number.isFinite(SCALE) || SCALE < 0.05 || SCALE > 1) {
    throw new Error(`LIBRARY_BENCH_SCALE must be from 0.05 to 1, not ${SCALE}`);
  }
  const courses = Math.round(1_000 * SCALE);
  const words = vocabulary();
  const cluster = await startPostgresCluster();
  try {
    const bench = await startBenchServer('postgres', cluster, 'library', {
      NODE_ENV: 'production',
      DATABASE_POOL_SIZE: '10',
      API_RATE_LIMIT_PER_SECOND: '100000000',
    });
    const { server } = bench;
    try {
      const { db } = server.deps;
      const started = performance.now();
      await db.transaction((tx) =>
        seedLearning(tx, { learners: LEARNERS, courses }, (label, work) =>
          timed(`  ${label}`, work),
        ),
      );
      await timed('  lesson texts and books', () =>
        db.transaction((tx) => seedLibrary(tx, words, courses)),
      );
      await timed('  vacuum analyze', () => db.exec('vacuum analyze'));
      const [size] = (
        await db.query<{ pages: number; bytes: string }>(
          `select (select count(*) from public.course_document_pages)::int as pages,
                  pg_size_pretty(pg_database_size(current_database())) as bytes`,
        )
      ).rows;
      console.log(
        `Seeded ${(courses * LESSONS_PER_COURSE).toLocaleString()} lessons and ${courses.toLocaleString()} books ` +
          `(${size!.pages.toLocaleString()} pages of ${CHAPTER_WORDS} words; lesson texts of ${LESSON_WORDS} words) ` +
          `in ${((performance.now() - started) / 1000).toFixed(0)} s; database ${size!.bytes}.`,
      );

      const [ids] = (
        await db.query<{ learner: string; instructor: string; admin: string }>(
          `select ${benchIds.learner('1')}::text as learner, ${benchIds.instructor('1')}::text as instructor,
                  ${benchIds.admin}::text as admin`,
        )
      ).rows;
      const service = createClient(server.url, server.deps.keys.serviceRoleKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        realtime: { transport: RealtimeUnused as never },
      });
      const actors = [
        { id: ids!.learner, email: 'l1@bench.test', label: 'learner (11 courses)' },
        { id: ids!.instructor, email: 'i1@bench.test', label: 'instructor (5 courses)' },
        {
          id: ids!.admin,
          email: 'admin@bench.test',
          label: `organization admin (${courses} courses)`,
        },
      ];
      for (const actor of actors) {
        const { error } = await service.auth.admin.updateUserById(actor.id, { password: PASSWORD });
        if (error) throw new Error(`set the password of ${actor.email}: ${error.message}`);
      }

      const { searchLibrary } = await import('../src/web/features/library/api/search-library');
      // Query words PostgreSQL indexes (stop words such as "the" find nothing), by frequency.
      const indexed = (
        await db.query<{ word: string }>(
          `select w.word from unnest($1::text[]) with ordinality w(word, rank)
            where to_tsvector('english', w.word) <> ''::tsvector order by w.rank`,
          [words],
        )
      ).rows.map((r) => r.word);
      const common = indexed[0]!;
      const middle = indexed[Math.floor(indexed.length / 20)]!;
      const rare = indexed[Math.floor(indexed.length * 0.9)]!;
      const queries: { label: string; query: string; kind?: 'epub' }[] = [
        { label: 'no query: browse, first page', query: '' },
        { label: `a word in nearly every text ("${common}")`, query: common },
        { label: `a middling word ("${middle}")`, query: middle },
        { label: `a rare word ("${rare}")`, query: rare },
        { label: `two words ("${middle} ${indexed[3]}")`, query: `${middle} ${indexed[3]}` },
        {
          label: `a phrase ("${indexed[1]} ${indexed[2]}" in quotes)`,
          query: `"${indexed[1]} ${indexed[2]}"`,
        },
        { label: 'a word in no text', query: 'zyzzogeton' },
        { label: `ePub files only ("${middle}")`, query: middle, kind: 'epub' },
      ];

      if (EXPLAIN) {
        for (const q of queries) {
          console.log(`\n===== admin: ${q.label}`);
          console.log(await explainSearch(server.deps.config.databaseUrl!, ids!.admin, q.query));
        }
      }

      const before = os.loadavg()[0]!;
      const results: { c: Case; m: LoopMeasurement; hits: number; firstError?: unknown }[] = [];
      for (const actor of actors) {
        await webAppSignIn(server, actor.email, PASSWORD);
        for (const q of queries) {
          const c: Case = {
            actor: actor.label,
            label: q.label,
            run: async () =>
              (
                await searchLibrary({
                  query: q.query,
                  courseId: null,
                  kind: q.kind ?? null,
                  page: 0,
                })
              ).total,
          };
          let firstError: unknown;
          const hits = await c.run();
          const run = () =>
            c.run().then(
              () => undefined,
              (error: unknown) => {
                firstError ??= error;
                throw error;
              },
            );
          await measureLoop(run, { connections: 1, seconds: 1 });
          const m = await measureLoop(run, { connections: 1, seconds: SECONDS });
          results.push({ c, m, hits, firstError });
        }
      }
      const after = os.loadavg()[0]!;

      const fmt = (ms: number) => ms.toFixed(1);
      const header = ['query', 'results', 'p50 ms', 'p95 ms', 'p99 ms', 'n', 'errors', ''];
      const lines: string[][] = [];
      let actorShown = '';
      for (const { c, m, hits } of results) {
        if (c.actor !== actorShown) {
          actorShown = c.actor;
          lines.push([`${c.actor}:`, '', '', '', '', '', '', '']);
        }
        lines.push([
          `  ${c.label}`,
          hits.toLocaleString(),
          fmt(m.p50Ms),
          fmt(m.p95Ms),
          fmt(m.p99Ms),
          String(m.total),
          String(m.errors),
          m.errors > 0 ? 'ERRORS' : m.p99Ms < TARGET_MS ? 'met' : 'MISSED',
        ]);
      }
      const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
      const row = (cells: string[]) =>
        cells
          .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
          .join('  ');
      console.log(
        `search_library through supabase-js with RLS on PostgreSQL (target p99 < ${TARGET_MS} ms); ` +
          `one client, ${SECONDS} s per case; ${os.cpus().length} CPUs, load average ` +
          `${before.toFixed(2)} before, ${after.toFixed(2)} after`,
      );
      console.log(row(header));
      for (const l of lines) console.log(row(l));
      const missed = results.filter((r) => r.m.p99Ms >= TARGET_MS);
      const worst = results.reduce((a, b) => (b.m.p99Ms > a.m.p99Ms ? b : a));
      const adminCommon = results.find(
        (r) =>
          r.c.actor.startsWith('organization admin') && r.c.label.startsWith('a word in nearly'),
      )!;
      // The one line to compare runs by: the case (an admin's common word) and the worst.
      console.log(
        `Library search summary: organization admin, common word p50 ${fmt(adminCommon.m.p50Ms)} / ` +
          `p99 ${fmt(adminCommon.m.p99Ms)} ms; worst p99 ${fmt(worst.m.p99Ms)} ms ` +
          `(${worst.c.actor}, ${worst.c.label}); ` +
          (missed.length === 0
            ? `every query met the target (p99 < ${TARGET_MS} ms)`
            : `target p99 < ${TARGET_MS} ms MISSED on ${missed.length} of ${results.length} queries`) +
          `; load average ${before.toFixed(2)} before, ${after.toFixed(2)} after`,
      );
      for (const r of results.filter((x) => x.firstError !== undefined)) {
        console.error(`${r.c.actor} / ${r.c.label}:`, r.firstError);
        process.exitCode = 1;
      }
    } finally {
      await bench.close();
    }
  } finally {
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
