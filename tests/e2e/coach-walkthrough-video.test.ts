/**
 * The recorded walkthrough on /ai-study-coach (decision 0229) in headless Chromium: the page's
 * first load fetches nothing of it; the element is `<video controls preload="none">` without
 * autoplay, with MP4 and WebM sources; its poster and default English captions track are added
 * once it nears the viewport; the files answer from our origin with their types, and the video
 * in byte ranges; played, it loads with the captions' cues shown; the transcript link works;
 * axe finds nothing at 390 and 1280 px.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, seriousAxeViolations, viewports } from '../support/browser';

const baseUrl = inject('baseUrl');
const shotsDir = '/tmp/shots';
const media = '/media/coach-walkthrough';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function open(
  width: keyof typeof viewports,
): Promise<{ page: Page; mediaRequests: string[] }> {
  const context = await browser.newContext({ viewport: viewports[width], reducedMotion: 'reduce' });
  const page = await context.newPage();
  const mediaRequests: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/media/')) mediaRequests.push(pathname);
  });
  await page.goto(`${baseUrl}/ai-study-coach`, { waitUntil: 'networkidle' });
  await page.locator('main h1').waitFor();
  return { page, mediaRequests };
}

describe('the walkthrough video’s files', () => {
  it('answer from our origin with their types, the video in byte ranges', async () => {
    for (const [file, type] of [
      ['coach-walkthrough.mp4', 'video/mp4'],
      ['coach-walkthrough.webm', 'video/webm'],
    ] as const) {
      const whole = await fetch(`${baseUrl}${media}/${file}`);
      expect(whole.status, file).toBe(200);
      expect(whole.headers.get('content-type'), file).toBe(type);
      const size = Number(whole.headers.get('content-length'));
      await whole.arrayBuffer();
      expect(size, file).toBeGreaterThan(10_000);

      const part = await fetch(`${baseUrl}${media}/${file}`, {
        headers: { Range: 'bytes=100-1099' },
      });
      expect(part.status, file).toBe(206);
      expect(part.headers.get('content-type'), file).toBe(type);
      expect(part.headers.get('accept-ranges'), file).toBe('bytes');
      expect(part.headers.get('content-range'), file).toBe(`bytes 100-1099/${size}`);
      expect((await part.arrayBuffer()).byteLength, file).toBe(1000);

      const beyond = await fetch(`${baseUrl}${media}/${file}`, {
        headers: { Range: `bytes=${size + 10}-` },
      });
      expect(beyond.status, file).toBe(416);
      await beyond.arrayBuffer();
    }

    const captions = await fetch(`${baseUrl}${media}/captions.vtt`);
    expect(captions.status).toBe(200);
    expect(captions.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const vtt = await captions.text();
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(vtt).toContain('offers a refresher on the basics');

    const poster = await fetch(`${baseUrl}${media}/poster.jpg`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    await poster.arrayBuffer();

    const transcript = await fetch(`${baseUrl}${media}/transcript.txt`);
    expect(transcript.status).toBe(200);
    expect(transcript.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await transcript.text()).toContain('Would you like a short refresher');

    const missing = await fetch(`${baseUrl}${media}/no-such-file.mp4`);
    expect(missing.status).toBe(404);
    await missing.text();
  });
});

describe.each(['mobile', 'desktop'] as const)('the walkthrough video at %s width', (width) => {
  it('loads nothing before it is wanted, plays with captions and passes axe', async () => {
    const { page, mediaRequests } = await open(width);
    try {
      // The first load: no poster, no video, no captions.
      expect(mediaRequests).toEqual([]);
      const section = page.getByRole('region', { name: 'The coach in action' });
      const video = section.locator('video');
      expect(await video.count()).toBe(1);
      expect(await video.getAttribute('preload')).toBe('none');
      expect(await video.getAttribute('controls')).not.toBeNull();
      expect(await video.getAttribute('autoplay')).toBeNull();
      expect(await video.getAttribute('poster')).toBeNull();
      expect(
        await video
          .locator('source')
          .evaluateAll((sources) =>
            sources.map((source) => [source.getAttribute('src'), source.getAttribute('type')]),
          ),
      ).toEqual([
        [`${media}/coach-walkthrough.mp4`, 'video/mp4'],
        [`${media}/coach-walkthrough.webm`, 'video/webm'],
      ]);
      expect(await video.locator('track').count()).toBe(0);

      // Near the viewport, the poster and the captions track appear; the video itself still
      // waits for the visitor.
      await video.scrollIntoViewIfNeeded();
      await expect.poll(() => video.getAttribute('poster')).toBe(`${media}/poster.jpg`);
      const track = video.locator('track');
      expect(await track.getAttribute('kind')).toBe('captions');
      expect(await track.getAttribute('srclang')).toBe('en');
      expect(await track.getAttribute('label')).toBe('English');
      expect(await track.getAttribute('src')).toBe(`${media}/captions.vtt`);
      expect(await track.getAttribute('default')).not.toBeNull();
      await expect
        .poll(() => video.evaluate((element: HTMLVideoElement) => element.clientHeight))
        .toBeGreaterThan(100);
      expect(mediaRequests.filter((path) => /\.(mp4|webm)$/.test(path))).toEqual([]);
      await page.screenshot({ path: `${shotsDir}/coach-video-${width}.png` });

      expect(await seriousAxeViolations(page)).toEqual([]);
      const figure = await new AxeBuilder({ page }).include('figure:has(video)').analyze();
      expect(figure.violations.map((violation) => violation.id)).toEqual([]);

      // Played (as its play control does: headless Chromium's native controls take no
      // synthetic click), it loads from our origin and shows its captions' cues.
      await video.evaluate((element: HTMLVideoElement) => element.play());
      await expect
        .poll(() =>
          video.evaluate((element: HTMLVideoElement) =>
            element.currentSrc ? new URL(element.currentSrc).pathname : '',
          ),
        )
        .toMatch(/^\/media\/coach-walkthrough\/coach-walkthrough\.(mp4|webm)$/);
      await expect
        .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState))
        .toBeGreaterThanOrEqual(1);
      await expect
        .poll(() => video.evaluate((element: HTMLVideoElement) => element.duration))
        .toBeGreaterThan(30);
      await expect
        .poll(() =>
          video.evaluate((element: HTMLVideoElement) => {
            const captions = element.textTracks[0];
            return captions ? [captions.mode, captions.cues?.length ?? 0] : [];
          }),
        )
        .toEqual(['showing', 10]);
      expect(
        await video.evaluate(
          (element: HTMLVideoElement) =>
            (element.textTracks[0]?.cues?.[0] as VTTCue | undefined)?.text,
        ),
      ).toContain('opens the study coach');

      // For those who cannot watch: the summary in the page and the full transcript.
      expect(await section.getByText('What the video shows:').count()).toBe(1);
      const transcript = section.getByRole('link', { name: 'Read the full transcript' });
      expect(await transcript.getAttribute('href')).toBe(`${media}/transcript.txt`);
    } finally {
      await page.context().close();
    }
  });
});
