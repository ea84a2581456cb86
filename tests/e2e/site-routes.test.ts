/**
 * Every route of the table in src/common/routes.ts, in headless Chromium against the built app:
 * title, heading, breadcrumb, meta description and canonical after JavaScript, the same in the
 * raw prerendered HTML before JavaScript, and the not-found page with a real 404 status.
 * Expectations come from the route table and the content modules, never from a second list.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routeDescription } from '@common/route-descriptions';
import { notFoundTitle, routes, type RouteEntry } from '@common/routes';
import type { DocPage } from '@/features/site/content/types';
import { launchBrowser, viewports } from '../support/browser';
import { gotoHydrated } from '../support/hydration';

const baseUrl = inject('baseUrl');
let browser: Browser;

const docModules = import.meta.glob<DocPage>(
  [
    '../../src/web/features/site/content/docs/*.ts',
    '!../../src/web/features/site/content/docs/*.test.ts',
  ],
  { eager: true, import: 'docPage' },
);
const docPages = new Map(Object.values(docModules).map((page) => [page.path, page]));

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Visit {
  page: Page;
  problems: string[];
  close: () => Promise<void>;
}

/** Opens a page and records script errors and React hydration errors while it runs. */
async function visit(
  path: string,
  viewport: { width: number; height: number } = viewports.desktop,
): Promise<Visit & { status: number }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /react|hydrat/i.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  // Hydrated before anything is pressed or the problems are read (hydration reports them).
  const response = await gotoHydrated(page, baseUrl + path, { waitUntil: 'networkidle' });
  return { page, problems, status: response?.status() ?? 0, close: () => context.close() };
}

/** The PIN that tests/support/global-e2e.ts configures for the test server. */
const E2E_DATA_ROOM_PIN = 'e2e-pin-4242';

/** The data room is gated: a visitor gets there through the header button and the PIN. */
async function enterDataRoom(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Data Room' }).click();
  await page.getByPlaceholder('Enter PIN').fill(E2E_DATA_ROOM_PIN);
  await page.getByRole('button', { name: 'Access Data Room' }).click();
  await page.waitForURL(`${baseUrl}/data-room`);
  await page.waitForLoadState('networkidle');
}

function decodeEntities(html: string): string {
  return html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The visible text of the prerendered #root, tags stripped, entities decoded. */
function rootText(html: string): string {
  const start = html.indexOf('<div id="root"');
  const end = html.lastIndexOf('</body>');
  return decodeEntities(html.slice(start, end).replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
}

function headTag(html: string, pattern: RegExp): string | undefined {
  const match = html.match(pattern);
  return match?.[1] === undefined ? undefined : decodeEntities(match[1]);
}

/** Home › section › page; a section's own page (Platform Overview) is named once. */
function breadcrumbFor(route: RouteEntry): string[] {
  return route.section === route.label
    ? ['Home', route.label]
    : ['Home', route.section, route.label];
}

async function breadcrumbLabels(page: Page): Promise<string[]> {
  return page
    .locator('nav[aria-label="Breadcrumb"] li[data-slot="breadcrumb-item"]')
    .allInnerTexts()
    .then((labels) => labels.map((label) => label.trim()));
}

// The signed-in app's routes (some with parameters) are covered by tests/e2e/learn-*.test.ts.
const siteRoutes = routes.filter((route) => route.kind !== 'app');

describe('every route in the browser', () => {
  it.each(siteRoutes.map((route) => [route.path, route] as const))(
    '%s has its title, heading, breadcrumb, description and canonical',
    async (path, route: RouteEntry) => {
      const gated = route.kind === 'data-room';
      const { page, problems, status, close } = await visit(gated ? '/' : path);
      try {
        expect(status).toBe(200);
        if (gated) await enterDataRoom(page);
        await expect.poll(() => page.title()).toBe(route.title);

        const headings = page.locator('h1:visible');
        await expect.poll(() => headings.count()).toBe(1);
        const heading = (await headings.innerText()).trim();
        expect(heading.length).toBeGreaterThan(0);
        const doc = docPages.get(path);
        if (route.kind === 'doc') expect(heading).toBe(doc?.heading);

        if (path === '/') {
          expect(await page.locator('nav[aria-label="Breadcrumb"]').count()).toBe(0);
        } else {
          expect(await breadcrumbLabels(page)).toEqual(breadcrumbFor(route));
          await expect
            .poll(() => page.locator('nav[aria-label="Breadcrumb"] a').first().getAttribute('href'))
            .toBe('/');
        }

        const canonical = page.locator('head link[rel="canonical"]');
        const description = page.locator('head meta[name="description"]');
        const expected = routeDescription(route.path);
        if (expected) {
          await expect.poll(() => canonical.getAttribute('href')).toBe(`${baseUrl}${path}`);
          await expect.poll(() => description.getAttribute('content')).toBe(expected);
        } else {
          await expect.poll(() => canonical.count()).toBe(0);
          await expect.poll(() => description.count()).toBe(0);
        }

        const backToHome = page.getByRole('link', { name: 'Back to Home' });
        expect(await backToHome.count()).toBe(route.kind === 'doc' ? 1 : 0);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    },
  );
});

describe('prerendered HTML (before any JavaScript runs)', () => {
  it.each(routes.filter((route) => route.prerender).map((route) => [route.path, route] as const))(
    '%s answers with its title, description, canonical and text',
    async (path, route: RouteEntry) => {
      const response = await fetch(baseUrl + path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      const html = await response.text();

      expect(headTag(html, /<title>([^<]*)<\/title>/)).toBe(route.title);
      const expected = routeDescription(route.path);
      expect(headTag(html, /<meta name="description" content="([^"]*)"/)).toBe(expected);
      const canonical = headTag(html, /<link rel="canonical" href="([^"]*)"/);
      if (expected) expect(canonical).toMatch(new RegExp(`(^|//[^/]+)${path}$`));
      else expect(canonical).toBeUndefined();

      const text = rootText(html);
      const doc = docPages.get(path);
      if (doc) {
        expect(text).toContain(doc.heading);
        for (const section of doc.sections) expect(text).toContain(section.heading);
      }
      expect(html).toMatch(/<div id="root" class="isolate"><.*<h1[ >]/s);
      if (path !== '/') expect(text).toContain(breadcrumbFor(route).join(' '));
    },
  );

  it('serves routes that render only in the browser with the empty app shell', async () => {
    for (const route of siteRoutes.filter((entry) => !entry.prerender)) {
      const response = await fetch(baseUrl + route.path);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<div id="root" class="isolate"></div>');
    }
  });

  it('accepts a trailing slash on a known route', async () => {
    const response = await fetch(`${baseUrl}/data-encryption/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Data Encryption | Lyceum</title>');
  });
});

describe('not-found page', () => {
  it.each([
    ['an unknown path', '/no-such-page'],
    ['a nested unknown path', '/data-encryption/extra'],
    ['a path in the wrong case', '/DATA-ENCRYPTION'],
    ['malformed percent-encoding', '/%E0%A4%A'],
    ['a built HTML file by name', '/app.html'],
  ])('answers %s with status 404 and the not-found page', async (_label, path) => {
    const raw = await fetch(baseUrl + path);
    expect(raw.status).toBe(404);
    const html = await raw.text();
    expect(headTag(html, /<title>([^<]*)<\/title>/)).toBe(notFoundTitle);
    expect(rootText(html)).toContain('Oops! Page not found');
    expect(html).toContain('<meta name="robots" content="noindex" />');
  });

  it('shows it for an address under /app that is not one of the app pages', async () => {
    const { page, problems, status, close } = await visit('/app/no-such-page');
    try {
      expect(status).toBe(404);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText())
        .toBe('Oops! Page not found');
      await expect.poll(() => page.title()).toBe(notFoundTitle);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows the page with a working Return to Home link at every width', async () => {
    for (const viewport of [viewports.mobile, viewports.desktop]) {
      const { page, problems, status, close } = await visit('/no-such-page', viewport);
      try {
        expect(status).toBe(404);
        expect(await page.title()).toBe(notFoundTitle);
        await expect
          .poll(() => page.getByRole('heading', { level: 1 }).innerText())
          .toBe('Oops! Page not found');
        expect(await page.locator('nav[aria-label="Breadcrumb"]').count()).toBe(0);
        await page.getByRole('link', { name: 'Return to Home' }).click();
        await page.waitForURL(`${baseUrl}/`);
        await expect.poll(() => page.title()).toBe(routes[0]!.title);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }
  });
});
