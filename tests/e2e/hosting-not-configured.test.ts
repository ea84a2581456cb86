/**
 * The deployment panel on a server without VERCEL_TOKEN (the e2e server has none): visitors
 * read "not configured" without setup instructions, the function answers once and is not
 * asked again, and operators (the answer's `setup`) see how to configure it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, viewports } from '../support/browser';

const baseUrl = inject('baseUrl');
const shotsDir = '/tmp/shots';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function newPage(width: keyof typeof viewports): Promise<Page> {
  const context = await browser.newContext({ viewport: viewports[width], reducedMotion: 'reduce' });
  return context.newPage();
}

async function openPanels(page: Page) {
  await page.goto(`${baseUrl}/`);
  await page
    .locator('section[aria-labelledby="platform-analytics-heading"]')
    .scrollIntoViewIfNeeded();
  return page.getByTestId('deployment-analytics');
}

describe('deployment panel without a hosting token', () => {
  it.each(['mobile', 'desktop'] as const)(
    'tells a visitor "not configured" once, without setup steps, and stops asking (%s)',
    async (width) => {
      const page = await newPage(width);
      try {
        await page.clock.install();
        const answers: number[] = [];
        page.on('response', (response) => {
          if (response.url().includes('/functions/v1/vercel-analytics'))
            answers.push(response.status());
        });
        const deployment = await openPanels(page);
        await deployment.getByText('Hosting analytics is not configured.').waitFor();
        expect(await deployment.textContent()).not.toContain('VERCEL_TOKEN');
        await deployment.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${shotsDir}/deployment-not-configured-${width}.png` });

        // Three of the panel's 60-second polling periods, on Chromium's controlled clock.
        await page.clock.fastForward('03:00');
        await page.clock.runFor(1000);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        expect(answers).toEqual([200]);
      } finally {
        await page.context().close();
      }
    },
  );

  it('shows the setup steps when the server sends them (service role, signed-in admins)', async () => {
    const page = await newPage('desktop');
    try {
      await page.route('**/functions/v1/vercel-analytics', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({
            configured: false,
            message: 'Hosting analytics is not configured.',
            setup:
              'Set VERCEL_TOKEN (and VERCEL_TEAM_ID for a team account) in the server environment and restart the server.',
            projects: [],
          }),
        }),
      );
      const deployment = await openPanels(page);
      await deployment.getByText(/Set VERCEL_TOKEN/).waitFor();
      expect(await deployment.getByText('No Vercel projects found').count()).toBe(0);
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await page.context().close();
    }
  });
});
