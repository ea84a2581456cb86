/**
 * The public site renders without tailwind-merge (decision 0190): `cn` only joins classes
 * there, so every class list the site renders before a visitor opens a dialog or a demo must
 * already be free of conflicts — what tailwind-merge would have made of it. Checked on every
 * prerendered page of the build, and in Chromium on a first visit (consent banner, "Choose"),
 * back-to-top and the phone's documentation sheet.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { twMerge } from 'tailwind-merge';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '@common/routes';
import { launchBrowser, scrollAndSettle, viewports } from '../support/browser';

const distDir = path.resolve(process.env.WEB_DIST_DIR ?? 'dist/web');
const baseUrl = inject('baseUrl');

/** The class lists that tailwind-merge would change, with what it would make of them. */
function conflicts(classLists: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const raw of classLists) {
    const classes = raw.trim().split(/\s+/).join(' ');
    const merged = twMerge(classes);
    if (merged !== classes) found.add(`"${classes}" → "${merged}"`);
  }
  return [...found];
}

function prerenderedFile(routePath: string): string {
  return path.join(distDir, routePath === '/' ? 'index.html' : `${routePath.slice(1)}/index.html`);
}

describe('prerendered pages', () => {
  const files = [
    ...routes.filter((route) => route.prerender).map((route) => prerenderedFile(route.path)),
    path.join(distDir, '404.html'),
  ];
  it.each(files.map((file) => path.relative(distDir, file)))(
    '%s has no conflicting classes',
    (file) => {
      const html = fs.readFileSync(path.join(distDir, file), 'utf8');
      const classLists = [...html.matchAll(/\sclass="([^"]*)"/g)].map((match) => match[1]!);
      expect(classLists.length).toBeGreaterThan(20);
      expect(conflicts(classLists)).toEqual([]);
    },
  );
});

describe('the public site in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ firstVisit: true });
  });
  afterAll(() => browser?.close());

  const classListsOn = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('[class]')].map((element) => element.getAttribute('class')!),
    );

  it.each([
    ['mobile', '/', false],
    ['mobile', '/data-encryption', true],
    ['desktop', '/ai-study-coach', false],
    ['desktop', '/data-encryption', false],
  ] as const)(
    'on a %s first visit to %s has no conflicting classes',
    async (viewport, at, sheet) => {
      const context = await browser.newContext({ viewport: viewports[viewport] });
      const page = await context.newPage();
      try {
        await page.goto(baseUrl + at, { waitUntil: 'networkidle' });
        const banner = page.getByRole('dialog', { name: 'Your privacy choices' });
        await banner.getByRole('button', { name: 'Choose' }).click();
        await banner.getByRole('switch').first().waitFor();
        const seen = await classListsOn(page);

        await scrollAndSettle(page, 400);
        await page.getByRole('button', { name: 'Back to top' }).waitFor();
        seen.push(...(await classListsOn(page)));

        if (sheet) {
          await page
            .getByRole('banner')
            .getByRole('button', { name: 'Toggle documentation sidebar' })
            .click();
          await page.getByRole('dialog', { name: 'Documentation' }).waitFor({ state: 'visible' });
          seen.push(...(await classListsOn(page)));
        }
        expect(conflicts(seen)).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
