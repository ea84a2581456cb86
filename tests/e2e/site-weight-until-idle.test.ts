/**
 * Issue 18's budget, as bench/page-weight.ts --until-idle measures it: every public page (home,
 * marketing and documentation pages) transfers at most 120 KB of JavaScript (gzip bodies and
 * response headers) until the network is idle, on a first visit at phone width (the consent
 * banner shows). Lazily loaded chunks count: what loads when the visitor scrolls does not.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '../../src/common/routes';
import { DOC_PAGE_BUDGET_KB } from '../../bench/page-weight';
import { launchBrowser, viewports } from '../support/browser';

const baseUrl = inject('baseUrl');
const publicPaths = routes
  .filter((route) => route.kind === 'home' || route.kind === 'marketing' || route.kind === 'doc')
  .map((route) => route.path);

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser({ firstVisit: true });
});

afterAll(async () => {
  await browser?.close();
});

async function scriptsUntilIdle(path: string): Promise<{ file: string; bytes: number }[]> {
  const context = await browser.newContext({ viewport: viewports.mobile });
  try {
    const page = await context.newPage();
    const scripts: Promise<{ file: string; bytes: number }>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push(
        request.sizes().then((sizes) => ({
          file: new URL(request.url()).pathname,
          bytes: sizes.responseBodySize + sizes.responseHeadersSize,
        })),
      );
    });
    await page.goto(baseUrl + path, { waitUntil: 'networkidle' });
    await page.locator('main h1').waitFor();
    return await Promise.all(scripts);
  } finally {
    await context.close();
  }
}

describe('JavaScript until idle, first visit', () => {
  it.each(publicPaths)(`%s transfers at most ${DOC_PAGE_BUDGET_KB} KB`, async (path) => {
    const scripts = await scriptsUntilIdle(path);
    const kb = scripts.reduce((sum, script) => sum + script.bytes, 0) / 1024;
    const files = scripts
      .sort((a, b) => b.bytes - a.bytes)
      .map((script) => `${(script.bytes / 1024).toFixed(1)} KB ${script.file}`);
    // The message lists the files, so a failure names what grew.
    expect(kb, files.join('\n')).toBeLessThanOrEqual(DOC_PAGE_BUDGET_KB);
    expect(scripts.length).toBeGreaterThan(0);
  });
});
