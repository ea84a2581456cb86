/**
 * The coach demo on /ai-study-coach (decision 0224) in headless Chromium: the page's first load
 * neither fetches nor preloads the demo's chunk; the visitor's click loads it; a sample
 * question answered without an account gets the evaluator's verdict and reason; an empty answer
 * gets a clear message; axe finds nothing serious at 390 and 1280 px with the demo open.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, seriousAxeViolations, viewports } from '../support/browser';
import { gotoHydrated } from '../support/hydration';

const baseUrl = inject('baseUrl');
const shotsDir = '/tmp/shots';
const demoChunk = /\/assets\/coach-demo-[^/]*\.js$/;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function open(width: keyof typeof viewports): Promise<{ page: Page; scripts: string[] }> {
  const context = await browser.newContext({ viewport: viewports[width], reducedMotion: 'reduce' });
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await gotoHydrated(page, `${baseUrl}/ai-study-coach`, { waitUntil: 'networkidle' });
  await page.locator('main h1').waitFor();
  return { page, scripts };
}

describe.each(['mobile', 'desktop'] as const)('the coach demo at %s width', (width) => {
  it('loads on the visitor’s click only, judges a sample answer and passes axe', async () => {
    const { page, scripts } = await open(width);
    try {
      expect(scripts.filter((path) => demoChunk.test(path))).toEqual([]);
      const preloaded = await page
        .locator('link[rel="modulepreload"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      expect(preloaded.filter((href) => demoChunk.test(href))).toEqual([]);

      const demo = page.getByRole('region', { name: 'Try the answer evaluator' });
      await demo.getByRole('button', { name: 'Try a sample question' }).click();
      const question = demo.getByLabel('Sample question');
      await question.waitFor();
      expect(scripts.filter((path) => demoChunk.test(path))).toHaveLength(1);

      await question.selectOption('linear-equations/parallel-lines-no-solution');
      await demo
        .getByText('Sample question from the sample course “Algebra: Linear Equations”:')
        .waitFor();
      await demo.getByRole('button', { name: 'Check my answer' }).click();
      await demo.getByRole('alert').getByText('Write an answer first.').waitFor();

      await demo
        .getByLabel('Your answer')
        .fill('The lines are parallel because both have slope 3.');
      await demo.getByRole('button', { name: 'Check my answer' }).click();
      const result = demo.getByTestId('coach-demo-result');
      await result.getByText('Partly correct', { exact: true }).waitFor();
      expect(await result.innerText()).toContain(
        'Partly right: your answer makes 2 of 4 key points.',
      );
      expect(await result.innerText()).toContain('Judged by the built-in offline engine');
      expect(await demo.getByRole('alert').count()).toBe(0);

      await demo.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shotsDir}/coach-demo-${width}.png` });
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
