/**
 * axe-core on every route of the table (and the not-found page) at phone and desktop widths:
 * no serious or critical violations.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '@common/routes';
import { launchBrowser, seriousAxeViolations, viewports } from '../support/browser';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

// The signed-in app's screens are checked with a signed-in user in tests/e2e/learn-*.test.ts.
const paths = [
  ...routes.filter((route) => route.kind !== 'app').map((route) => route.path),
  '/no-such-page',
];

describe.each([
  ['390 px', viewports.mobile],
  ['1280 px', viewports.desktop],
])('accessibility at %s', (_label, viewport) => {
  it.each(paths)('%s has no serious or critical axe violations', async (path) => {
    const context = await browser.newContext({ viewport });
    try {
      const page = await context.newPage();
      await page.goto(baseUrl + path, { waitUntil: 'networkidle' });
      await page.locator('h1').first().waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
