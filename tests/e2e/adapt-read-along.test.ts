/**
 * The exported HTML's read-along with its MP3, in Chromium: the lesson narrated for real (Flite,
 * installed by .ci/run), the page and the MP3 served as a learner's browser gets them (with
 * byte ranges, so the player can seek), and the highlight read at chosen moments of the audio.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccessible } from '../../src/server/adapt/accessible/accessible-stage';
import { adaptTestLesson } from '../../src/server/adapt/adapt-test-lesson';
import { lessonAudio, type LessonAudio } from '../../src/server/adapt/export/audio';
import { lessonHtml } from '../../src/server/adapt/export/html';
import { launchBrowser } from '../support/browser';

let server: http.Server;
let baseUrl: string;
let browser: Browser;
let audio: LessonAudio;

beforeAll(async () => {
  const lesson = (
    await makeAccessible(
      adaptTestLesson(),
      { profile: 'none', targetGrade: 8, translateTo: null },
      { ai: null },
    )
  ).lesson;
  audio = await lessonAudio(lesson);
  const html = lessonHtml(lesson, { audio: { src: 'lesson.mp3', sentences: audio.sentences } });
  server = http.createServer((req, res) => {
    if (req.url === '/lesson.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    if (req.url !== '/lesson.mp3') {
      res.writeHead(404).end();
      return;
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const from = range ? Number(range[1]) : 0;
    const to = range?.[2] ? Number(range[2]) : audio.mp3.length - 1;
    res.writeHead(range ? 206 : 200, {
      'content-type': 'audio/mpeg',
      'accept-ranges': 'bytes',
      'content-length': to - from + 1,
      ...(range ? { 'content-range': `bytes ${from}-${to}/${audio.mp3.length}` } : {}),
    });
    res.end(audio.mp3.subarray(from, to + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Seeks the player and says which sentence is highlighted once the seek is done. */
function highlightedAt(page: Page, seconds: number): Promise<string | null> {
  return page.locator('audio').evaluate(
    (player: HTMLAudioElement, t) =>
      new Promise<string | null>((resolve) => {
        // The seek's timeupdate (which moves the highlight) is fired before seeked.
        player.addEventListener(
          'seeked',
          () => resolve(document.querySelector('.s.speaking')?.getAttribute('data-s') ?? null),
          { once: true },
        );
        player.currentTime = t;
      }),
    seconds,
  );
}

describe('read-along of the exported HTML with its MP3', () => {
  it('highlights the sentence being heard, keeps it through the pause after it, and clears after the last', async () => {
    expect(audio.voice).toBe('Flite slt');
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/lesson.html`);
    await page
      .locator('audio')
      .evaluate((player: HTMLAudioElement) =>
        player.readyState >= 1
          ? undefined
          : new Promise((resolve) =>
              player.addEventListener('loadedmetadata', resolve, { once: true }),
            ),
      );
    const timings = audio.sentences;
    expect(await highlightedAt(page, timings[0]!.start / 2)).toBeNull();
    for (const i of [0, 1, 2, 3]) {
      const sentence = timings[i]!;
      const next = timings[i + 1]!;
      expect(await highlightedAt(page, (sentence.start + sentence.end) / 2)).toBe(String(i));
      expect(await highlightedAt(page, (sentence.end + next.start) / 2)).toBe(String(i));
      expect(await highlightedAt(page, next.start + 0.01)).toBe(String(i + 1));
    }
    expect(await highlightedAt(page, timings.at(-1)!.end + 0.05)).toBeNull();
    await page.close();
  }, 60_000);
});
