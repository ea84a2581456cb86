/**
 * Records the study coach's walkthrough video (issue 13): a scripted Study Session on the
 * sample course "Algebra: Linear Equations" — a question, three wrong answers each met with a
 * different approach, the refresher offer, the refresher and its basic questions, the return to
 * the original question and a right answer — driven in headless Chromium against the built app
 * and the real server (offline engine, PGlite in memory).
 *
 * Playwright's own video recorder needs Playwright's ffmpeg build, which is not installed, so
 * frames come from Chromium's screencast (CDP `Page.startScreencast`) and Debian's `ffmpeg`
 * encodes them (decision 0227). Writes to `src/web/public/media/coach-walkthrough/` (or the
 * first argument), the committed copy the landing page plays (decision 0229):
 * `coach-walkthrough.webm` (VP9), `coach-walkthrough.mp4` (H.264), `poster.jpg`, `captions.vtt`
 * (one cue per step) and `transcript.txt` (the captions and every message).
 *
 *   npm run build && npm run video:coach [-- out-dir]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import type { Page } from 'playwright-core';
import { loadConfig } from '../src/server/config';
import { openPglite } from '../src/server/db/pglite';
import { startServer } from '../src/server/start';
import { buildCoachWorld } from '../tests/integration/coach-world';
import { launchBrowser } from '../tests/support/browser';
import type { TestServer } from '../tests/support/test-server';

/** Node 20 has no WebSocket for realtime-js; nothing here uses realtime. */
class RealtimeUnused {
  constructor() {
    throw new Error('realtime is not used by this script');
  }
}

// The committed copy the /ai-study-coach page plays (decision 0229); another directory for a
// trial run.
const outDir = path.resolve(process.argv[2] ?? 'src/web/public/media/coach-walkthrough');
const distDir = path.resolve('dist/web');
const WIDTH = 1280;
const HEIGHT = 720;
/** How long each step's result stays on screen, so a viewer can read it. */
const HOLD_MS = 3500;
const password = 'a long enough passphrase for the video';

interface Frame {
  file: string;
  at: number;
}

interface Cue {
  start: number;
  end: number;
  text: string;
}

function requireFfmpeg(): void {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error('ffmpeg is not installed: apt-get install -y ffmpeg');
  }
}

function timestamp(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(
    Math.floor(ms / 1000) % 60,
  )}.${pad(ms % 1000, 3)}`;
}

async function main(): Promise<void> {
  requireFfmpeg();
  if (!fs.existsSync(path.join(distDir, 'app.html'))) {
    throw new Error('dist/web is not built: run npm run build first');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-video-'));
  const framesDir = path.join(dataDir, 'frames');
  fs.mkdirSync(framesDir);
  const running = await startServer(
    loadConfig(
      {},
      {
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        BETA_GATE: 'false',
        WEB_DIST_DIR: distDir,
      },
    ),
    { db: await openPglite('memory://') },
  );
  const keys = running.deps.keys;
  const client = (key: string, token?: string) =>
    createClient(running.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: RealtimeUnused as never },
      ...(token ? { global: { headers: { Authorization: `Bearer ${token}` } } } : {}),
    });
  const server = {
    ...running,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    anon: () => client(keys.anonKey),
    service: () => client(keys.serviceRoleKey),
    withToken: (token: string) => client(keys.anonKey, token),
  } as unknown as TestServer;
  const browser = await launchBrowser();
  try {
    const world = await buildCoachWorld(server);
    const service = server.service();
    const email = `video-learner-${Date.now().toString(36)}@example.com`;
    const created = await service.auth.admin.createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: { full_name: 'Sam Learner' },
    });
    if (created.error) throw new Error(created.error.message);
    const learnerId = created.data.user.id;
    for (const [table, row] of [
      ['memberships', { user_id: learnerId, organization_id: world.org, role: 'learner' }],
      ['enrollments', { user_id: learnerId, course_id: world.course }],
    ] as const) {
      const inserted = await service.from(table).insert(row);
      if (inserted.error) throw new Error(inserted.error.message);
    }

    const context = await browser.newContext({
      viewport: { width: WIDTH, height: HEIGHT },
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    await page.goto(`${running.url}/login?next=${encodeURIComponent('/app/coach')}`, {
      waitUntil: 'networkidle',
    });
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${running.url}/app/coach`);
    await page.getByRole('heading', { level: 1, name: 'Study coach' }).waitFor();
    await page.waitForFunction(() => {
      const course = document.querySelector<HTMLSelectElement>('select');
      return course !== null && course.value !== '';
    });

    // Frames from Chromium's screencast, each stamped with the time it was painted.
    const cdp = await context.newCDPSession(page);
    const frames: Frame[] = [];
    cdp.on(
      'Page.screencastFrame',
      (event: { data: string; sessionId: number; metadata: { timestamp?: number } }) => {
        const file = path.join(framesDir, `frame-${String(frames.length).padStart(5, '0')}.jpg`);
        fs.writeFileSync(file, Buffer.from(event.data, 'base64'));
        frames.push({ file, at: event.metadata.timestamp ?? Date.now() / 1000 });
        void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId });
      },
    );
    const recordingStarted = Date.now() / 1000;
    await cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality: 85,
      maxWidth: WIDTH,
      maxHeight: HEIGHT,
    });

    const cues: Cue[] = [];
    const now = () => Date.now() / 1000 - recordingStarted;
    const step = async (caption: string, action: () => Promise<void>) => {
      const start = now();
      await action();
      await page.waitForTimeout(HOLD_MS);
      cues.push({ start, end: now(), text: caption });
    };
    const question = async (): Promise<string> => {
      const { data, error } = await service
        .from('chat_sessions')
        .select('question_id')
        .eq('user_id', learnerId)
        .order('updated_at', { ascending: false })
        .limit(1)
        .single();
      if (error) throw new Error(error.message);
      return (data as { question_id: string }).question_id;
    };

    await step('Sam opens the study coach. The course is chosen; Study Session is the mode.', () =>
      page.waitForTimeout(500),
    );
    await step('Sam asks to start. The coach asks a question from the course’s bank.', () =>
      say(page, "Let's start"),
    );
    const original = await question();
    const wrong = await world.answer(original, false);
    await step('A wrong answer. The coach does not repeat itself: it tries a new approach.', () =>
      say(page, wrong),
    );
    await step('Wrong again. Another approach, from the bank’s hints and worked examples.', () =>
      say(page, wrong),
    );
    await step(
      'A third wrong answer in a row: the coach pauses and offers a refresher on the basics.',
      async () => {
        await say(page, wrong);
        await page.getByRole('group', { name: 'The coach’s offer' }).waitFor();
      },
    );
    const posterAt = path.join(dataDir, 'poster.jpg');
    await page.screenshot({ path: posterAt, type: 'jpeg', quality: 85 });
    await step('Sam accepts. The coach teaches the prerequisite and asks a basic question.', () =>
      press(page, 'Yes, show me the refresher'),
    );
    const basics = await world.basicCount(original);
    for (let index = 0; index < basics; index += 1) {
      const answer = await world.basicAnswer(original, index, true);
      await step(
        index === basics - 1
          ? 'The basics are right, so the coach returns to the original question.'
          : 'A right answer to a basic question; the coach asks the next one.',
        () => say(page, answer),
      );
    }
    const right = await world.answer(original, true);
    await step('Now Sam answers the original question correctly, and the coach says why.', () =>
      say(page, right),
    );
    await cdp.send('Page.stopScreencast');

    const messages = await page
      .getByRole('list', { name: 'Messages' })
      .locator('> li')
      .allInnerTexts();
    await context.close();
    if (frames.length < 2) throw new Error('the screencast produced no frames');

    // Each frame lasts until the next one; the last holds until the final cue ends, so the
    // closing caption is on screen with the answer it describes (a screencast sends a frame
    // only when the page changes).
    const finalCueEnd = recordingStarted + (cues.at(-1)?.end ?? 0);
    const lines = ['ffconcat version 1.0'];
    frames.forEach((frame, index) => {
      const next = frames[index + 1]?.at ?? Math.max(frame.at + 1, finalCueEnd);
      lines.push(`file '${frame.file}'`, `duration ${Math.max(0.001, next - frame.at).toFixed(3)}`);
    });
    lines.push(`file '${frames.at(-1)!.file}'`);
    const list = path.join(dataDir, 'frames.ffconcat');
    fs.writeFileSync(list, `${lines.join('\n')}\n`);
    // Cue times are measured from the recording's start, frames from the first frame's paint.
    const offset = frames[0]!.at - recordingStarted;

    fs.mkdirSync(outDir, { recursive: true });
    const input = ['-y', '-loglevel', 'error', '-f', 'concat', '-safe', '0', '-i', list];
    // A screencast changes a few times a second at most: 10 frames a second keep it smooth.
    const video = ['-vf', `fps=10,scale=${WIDTH}:${HEIGHT},format=yuv420p`, '-an'];
    execFileSync('ffmpeg', [
      ...input,
      ...video,
      '-c:v',
      'libvpx-vp9',
      '-b:v',
      '0',
      '-crf',
      '40',
      // The realtime deadline: minutes instead of an hour on a shared machine, and for text on
      // flat colours the quality is the same.
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-row-mt',
      '1',
      path.join(outDir, 'coach-walkthrough.webm'),
    ]);
    execFileSync('ffmpeg', [
      ...input,
      ...video,
      '-c:v',
      'libx264',
      '-crf',
      '26',
      '-preset',
      'veryfast',
      '-movflags',
      '+faststart',
      path.join(outDir, 'coach-walkthrough.mp4'),
    ]);
    fs.copyFileSync(posterAt, path.join(outDir, 'poster.jpg'));

    const vtt = ['WEBVTT', ''];
    cues.forEach((cue, index) => {
      vtt.push(
        String(index + 1),
        `${timestamp(cue.start - offset)} --> ${timestamp(cue.end - offset)}`,
        cue.text,
        '',
      );
    });
    fs.writeFileSync(path.join(outDir, 'captions.vtt'), vtt.join('\n'));
    const transcript = [
      'Lyceum study coach: a Study Session walkthrough (offline engine, sample course “Algebra: Linear Equations”)',
      '',
      'What the video shows:',
      ...cues.map((cue) => `- ${cue.text}`),
      '',
      'The conversation, as shown on screen:',
      ...messages.map((message) => message.replace(/\s+\n/g, '\n').trim()),
      '',
    ];
    fs.writeFileSync(path.join(outDir, 'transcript.txt'), transcript.join('\n'));
    const sizes = fs
      .readdirSync(outDir)
      .map((file) => `${file} ${(fs.statSync(path.join(outDir, file)).size / 1024).toFixed(0)} KB`);
    console.log(
      `Recorded ${frames.length} frames, ${(frames.at(-1)!.at - frames[0]!.at).toFixed(1)} s, into ${outDir}:\n  ${sizes.join('\n  ')}`,
    );
  } finally {
    await browser.close();
    await running.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Types into the message box and sends with Enter, then waits for the reply to finish. */
async function say(page: Page, text: string): Promise<void> {
  const messages = page.getByRole('list', { name: 'Messages' }).locator('> li');
  const before = await messages.count();
  const box = page.getByRole('textbox', { name: /Your (message|answer|question)/ });
  await box.focus();
  await page.keyboard.type(text, { delay: 25 });
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    ({ count }) => document.querySelectorAll('[aria-label="Messages"] > li').length >= count,
    { count: before + 2 },
  );
  await page.getByRole('button', { name: 'Send' }).waitFor();
}

/** Presses a button by focusing it and pressing Enter, as a keyboard user would. */
async function press(page: Page, name: string): Promise<void> {
  const button = page.getByRole('button', { name });
  await button.focus();
  await page.keyboard.press('Enter');
  await button.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Send' }).waitFor();
}

await main();
