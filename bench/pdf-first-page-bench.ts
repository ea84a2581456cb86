/**
 * Time to the first page shown in the PDF reader (issue 12, decision 0163): a generated
 * 300-page PDF (pdf-lib, `longPdf` in scripts/library-samples.ts) as a lesson file, opened by a
 * signed-in learner in headless Chromium against the built app. Measured from the navigation's
 * start to the first page's canvas painted (`section[data-drawn]`), so it includes the app,
 * the reader's chunk, the lesson and address reads, pdf.js and the worker. Each run is a fresh
 * browser context with a warm HTTP cache off (a new context) but the same session. Target:
 * median under 1.5 s.
 *
 *   npm run build && node --import tsx bench/pdf-first-page-bench.ts [runs]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { loadConfig } from '../src/server/config';
import { startServer } from '../src/server/start';
import { coursesDir, longPdf } from '../scripts/library-samples';
import { CHROMIUM_PATH, chromiumFlags, ensureChromium } from '../tests/support/browser';

const TARGET_MS = 1500;
const PAGES = 300;
const runs = Math.max(1, Number(process.argv[2] ?? 5) || 5);

/** The value at quantile q (nearest rank) of the runs. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function main() {
  ensureChromium();
  const base = loadConfig();
  if (!fs.existsSync(path.join(base.webDistDir, 'index.html'))) {
    throw new Error(`No build in ${base.webDistDir}: run \`npm run build\` first.`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-pdf-bench-'));
  const server = await startServer(
    loadConfig(
      {},
      {
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        DATA_ROOM_PIN: 'pdf-bench',
        BETA_GATE: 'false',
        WEB_DIST_DIR: base.webDistDir,
      },
    ),
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumFlags });
  try {
    const service = createClient(server.url, server.deps.keys.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      // Node 20 has no WebSocket of its own; realtime-js wants one even when unused.
      realtime: { transport: WebSocket as never },
    });
    const insert = async (table: string, row: Record<string, unknown>) => {
      const { data, error } = await service.from(table).insert(row).select('id').single();
      if (error) throw new Error(`${table}: ${error.message}`);
      return (data as { id: string }).id;
    };
    const email = `pdf-bench.${Date.now().toString(36)}@example.com`;
    const password = 'a long enough passphrase';
    const created = await service.auth.admin.createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: { full_name: 'Bench Reader' },
    });
    if (created.error) throw new Error(created.error.message);
    const userId = created.data.user.id;
    const org = await insert('organizations', {
      name: 'PDF Bench University',
      slug: `pdf-bench-${Date.now().toString(36)}`,
    });
    await service
      .from('memberships')
      .insert({ user_id: userId, organization_id: org, role: 'learner' });
    const course = await insert('courses', {
      organization_id: org,
      title: 'A long reader',
      published: true,
      visibility: 'organization',
    });
    const module = await insert('modules', { course_id: course, position: 1, title: 'All of it' });
    const bytes = await longPdf(PAGES, path.join(coursesDir, 'respiratory-system'));
    const filePath = `${course}/lessons/long-reader.pdf`;
    await server.deps.storage.putObject('course-files', filePath, bytes, 'application/pdf');
    const lesson = await insert('lessons', {
      module_id: module,
      course_id: course,
      position: 1,
      title: `A ${PAGES}-page reader`,
      kind: 'pdf',
      file_path: filePath,
    });
    await service.from('enrollments').insert({ user_id: userId, course_id: course });
    const readerUrl = `${server.url}/app/courses/${course}/lessons/${lesson}/read`;

    const signIn = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const login = await signIn.newPage();
    await login.goto(`${server.url}/login?next=${encodeURIComponent('/app')}`);
    await login.getByLabel('Email', { exact: true }).fill(email);
    await login.getByLabel('Password').fill(password);
    await login.getByRole('button', { name: 'Sign in' }).click();
    await login.waitForURL(`${server.url}/app`);
    const session = await signIn.storageState();
    await signIn.close();

    console.log(
      `First page of a ${PAGES}-page PDF (${(bytes.length / 1024).toFixed(0)} KB), ${runs} run(s), 1280×800, ${server.url}`,
    );
    const loadBefore = load();
    const times: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        storageState: session,
      });
      const page = await context.newPage();
      await page.goto(readerUrl);
      const handle = await page.waitForFunction(
        () => (document.querySelector('section[data-drawn]') ? performance.now() : null),
        undefined,
        { polling: 'raf', timeout: 30_000 },
      );
      const ms = (await handle.jsonValue()) as number;
      const drawn = await page.locator('section[data-page-number]').count();
      if (run === 1) {
        // Where the time goes, once: when each request of the page started and finished.
        const steps = await page.evaluate(() =>
          performance.getEntriesByType('resource').map((entry) => ({
            name: entry.name,
            start: entry.startTime,
            end: (entry as PerformanceResourceTiming).responseEnd,
          })),
        );
        for (const { name, start, end } of steps) {
          const short = new URL(name).pathname.replace(/^.*\//, '').slice(0, 48);
          console.log(
            `    ${start.toFixed(0).padStart(6)} – ${end.toFixed(0).padStart(6)} ms  ${short}`,
          );
        }
      }
      times.push(ms);
      console.log(`  run ${run}: ${ms.toFixed(0)} ms (${drawn} of ${PAGES} pages in the DOM)`);
      await context.close();
    }
    const p50 = quantile(times, 0.5);
    const p95 = quantile(times, 0.95);
    console.log(
      `  median ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, best ${Math.min(...times).toFixed(0)} ms, target median < ${TARGET_MS} ms`,
    );
    console.log(`  load average (1, 5, 15 min): ${loadBefore} before, ${load()} after`);
    if (p50 >= TARGET_MS) {
      console.error(`Missed the target: median ${p50.toFixed(0)} ms ≥ ${TARGET_MS} ms.`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
