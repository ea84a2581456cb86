/**
 * The public API's reference page (/api/reference, decision 0612) in headless Chromium against
 * the built app: reached from the API Access guide, used with the keyboard alone, axe-clean and
 * without sideways scrolling at 390 and 1280 px, and loading nothing but its own HTML
 * (screenshots in SCREENSHOTS_DIR/api-reference when set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppBrowser, type AppBrowser, type Viewport } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;

beforeAll(async () => {
  app = await startAppBrowser('api-reference');
}, 180_000);

afterAll(() => app?.close());

/** Presses Tab until the focused element's text is `name`; fails after `limit` presses. */
async function tabTo(page: Page, name: string, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim());
    if (focused === name) return;
  }
  throw new Error(`"${name}" was not reached with ${limit} presses of Tab`);
}

describe('the API reference page', () => {
  it('opens from the API Access guide as a page of its own', async () => {
    const page = await app.newPage('desktop');
    try {
      await page.goto(`${app.baseUrl}/api-access`, { waitUntil: 'networkidle' });
      await page.getByRole('link', { name: 'API reference' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Lyceum public API reference' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/api/reference');
      await page
        .getByRole('heading', { level: 3, name: 'List the organization’s users' })
        .waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('is used with the keyboard: skip link, contents, an operation', async () => {
    const page = await app.newPage('mobile');
    try {
      await page.goto(`${app.baseUrl}/api/reference`, { waitUntil: 'networkidle' });
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to the reference' });
      await expect(skip.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await expect(skip.isVisible()).resolves.toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');

      await page.goto(`${app.baseUrl}/api/reference`, { waitUntil: 'networkidle' });
      await tabTo(page, 'Enrol a member in a course');
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).hash).toBe('#op-post_enrollments');
      const heading = page.getByRole('heading', { level: 3, name: 'Enrol a member in a course' });
      await expect.poll(() => heading.isVisible()).toBe(true);
      const box = await heading.boundingBox();
      expect(box && box.y >= 0 && box.y < 844).toBe(true);
    } finally {
      await page.context().close();
    }
  });

  for (const viewport of ['mobile', 'desktop'] as Viewport[])
    it(`passes axe and fits the width at ${viewport === 'mobile' ? 390 : 1280} px`, async () => {
      const page = await app.newPage(viewport);
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (!request.url().endsWith('/api/reference')) elsewhere.push(request.url());
      });
      try {
        await page.goto(`${app.baseUrl}/api/reference`, { waitUntil: 'networkidle' });
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(elsewhere).toEqual([]);
        expect(await seriousAxeViolations(page)).toEqual([]);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await app.shot(page, `reference-${viewport}`);
      } finally {
        await page.context().close();
      }
      // axe checks every one of the page's ~3,000 elements: about a minute on a loaded machine.
    }, 180_000);
});
