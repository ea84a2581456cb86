/**
 * The site frame in headless Chromium: back-to-top after 300 px, the documentation sidebar
 * (Ctrl/Cmd+B, the 7-day cookie surviving a reload, 16rem/3rem/18rem widths, the sheet under
 * 768 px) and the scroll reset on navigation.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findRoute, routesInGroup } from '@common/routes';
import { launchBrowser, scrollAndSettle, viewports } from '../support/browser';
import { gotoHydrated, waitForHydration } from '../support/hydration';

const baseUrl = inject('baseUrl');
const docPath = '/data-encryption';
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function open(
  path: string,
  viewport: { width: number; height: number } = viewports.desktop,
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await gotoHydrated(page, baseUrl + path, { waitUntil: 'networkidle' });
  return { page, context };
}

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);
const sidebar = (page: Page) => page.locator('[data-slot="sidebar"]').first();
const sidebarWidth = (page: Page) =>
  page
    .locator('[data-slot="sidebar-container"]')
    .evaluate((element) => element.getBoundingClientRect().width);

async function sidebarCookie(context: BrowserContext) {
  return (await context.cookies(baseUrl)).find((cookie) => cookie.name === 'sidebar_state');
}

describe('back to top', () => {
  it('appears only after 300 px of scrolling and returns to the top', async () => {
    const { page, context } = await open(docPath);
    try {
      const button = page.getByRole('button', { name: 'Back to top' });
      expect(await button.count()).toBe(0);

      // Exactly 300 px is not "more than 300 px"; 301 is.
      await scrollAndSettle(page, 300);
      expect(await button.count()).toBe(0);

      await scrollAndSettle(page, 301);
      await button.waitFor({ state: 'visible' });
      await button.click();
      await expect.poll(() => scrollY(page), { timeout: 5000 }).toBe(0);
      await button.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});

describe('documentation sidebar', () => {
  it('lists every page of the three groups with the current one marked', async () => {
    const { page, context } = await open(docPath);
    try {
      const nav = page.getByRole('navigation', { name: 'Documentation', exact: true });
      for (const group of [
        'Platform Overview',
        'Technical Documentation',
        'Security & Compliance',
      ] as const) {
        for (const route of routesInGroup(group)) {
          expect(await nav.getByRole('link', { name: route.label, exact: true }).count()).toBe(1);
        }
      }
      const current = nav.locator('a[aria-current="page"]');
      expect(await current.innerText()).toBe(findRoute(docPath)!.label);
    } finally {
      await context.close();
    }
  });

  it('toggles with Ctrl+B and Cmd+B, and the cookie keeps the state across a reload', async () => {
    const { page, context } = await open(docPath);
    try {
      expect(await sidebar(page).getAttribute('data-state')).toBe('expanded');
      expect(await sidebarWidth(page)).toBe(256);

      await page.keyboard.press('Control+b');
      await expect.poll(() => sidebar(page).getAttribute('data-state')).toBe('collapsed');
      await expect.poll(() => sidebarWidth(page)).toBe(48);
      const cookie = await sidebarCookie(context);
      expect(cookie?.value).toBe('false');
      expect(cookie?.path).toBe('/');
      const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);

      // Collapsed to icons, each page still has an accessible name and a tooltip.
      const link = page
        .getByRole('navigation', { name: 'Documentation', exact: true })
        .getByRole('link', { name: 'Data Hosting', exact: true });
      // The tooltip code loads when the sidebar collapses; a hover before it arrives shows
      // nothing (as for a person), so move away and hover again until it is there.
      await expect
        .poll(async () => {
          await page.mouse.move(600, 400);
          await link.hover();
          return page
            .getByRole('tooltip')
            .innerText({ timeout: 1_000 })
            .catch(() => '');
        })
        .toContain('Data Hosting');

      await page.reload({ waitUntil: 'networkidle' });
      await waitForHydration(page);
      expect(await sidebar(page).getAttribute('data-state')).toBe('collapsed');
      expect(await sidebarWidth(page)).toBe(48);

      await page.keyboard.press('Meta+b');
      await expect.poll(() => sidebar(page).getAttribute('data-state')).toBe('expanded');
      await expect.poll(() => sidebarWidth(page)).toBe(256);
      expect((await sidebarCookie(context))?.value).toBe('true');
    } finally {
      await context.close();
    }
  });

  it('shows the stored collapsed state before the app bundle runs', async () => {
    // The app's JavaScript is blocked: what the visitor sees is the prerendered HTML, the CSS
    // and the inline head script that reads the cookie.
    const context = await browser.newContext({ viewport: viewports.desktop });
    try {
      await context.addCookies([{ name: 'sidebar_state', value: 'false', url: baseUrl }]);
      await context.route('**/assets/*.js', (route) => route.abort());
      const page = await context.newPage();
      await page.goto(baseUrl + docPath);
      expect(await page.locator('html').getAttribute('data-sidebar-state')).toBe('collapsed');
      expect(await sidebarWidth(page)).toBe(48);
      expect(await page.locator('h1').innerText()).toBe('Data Encryption');
    } finally {
      await context.close();
    }
  });

  it('is a slide-in sheet of 18rem under 768 px', async () => {
    const { page, context } = await open(docPath, viewports.mobile);
    try {
      expect(await page.locator('[data-slot="sidebar-container"]').isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Toggle documentation sidebar' }).click();
      const sheet = page.getByRole('dialog', { name: 'Documentation' });
      await sheet.waitFor({ state: 'visible' });
      await expect
        .poll(() => sheet.evaluate((element) => element.getBoundingClientRect().width))
        .toBe(288);

      await sheet.getByRole('link', { name: 'Data Hosting', exact: true }).click();
      await page.waitForURL(`${baseUrl}/data-hosting`);
      await sheet.waitFor({ state: 'detached' });
      await expect.poll(() => page.title()).toBe(findRoute('/data-hosting')!.title);

      // Ctrl+B opens the sheet on a phone too.
      await page.keyboard.press('Control+b');
      await page.getByRole('dialog', { name: 'Documentation' }).waitFor({ state: 'visible' });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Documentation' }).waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});

describe('navigation', () => {
  it('starts every new page at the top and updates title and breadcrumb', async () => {
    const { page, context } = await open(docPath);
    try {
      await page.evaluate(() => window.scrollTo(0, 1200));
      await expect.poll(() => scrollY(page)).toBeGreaterThan(500);

      const target = findRoute('/security-audits')!;
      await page
        .getByRole('navigation', { name: 'Documentation', exact: true })
        .getByRole('link', { name: target.label, exact: true })
        .click();
      await page.waitForURL(baseUrl + target.path);
      await expect.poll(() => page.title()).toBe(target.title);
      // The new page has rendered (its breadcrumb shows) before the scroll position is read.
      await expect
        .poll(() => page.locator('nav[aria-label="Breadcrumb"] [aria-current="page"]').innerText())
        .toBe(target.label);
      expect(await scrollY(page)).toBe(0);
      await expect
        .poll(() => page.locator('nav[aria-label="Breadcrumb"] [aria-current="page"]').innerText())
        .toBe(target.label);

      // Back to Home goes home, also from the top.
      await page.evaluate(() => window.scrollTo(0, 900));
      await page.getByRole('link', { name: 'Back to Home' }).click();
      await page.waitForURL(`${baseUrl}/`);
      await expect.poll(() => page.locator('nav[aria-label="Breadcrumb"]').count()).toBe(0);
      expect(await scrollY(page)).toBe(0);

      // The browser's back button restores the previous page's title.
      await page.goBack();
      await expect.poll(() => page.title()).toBe(target.title);
    } finally {
      await context.close();
    }
  });

  it('keeps a jump to a section of the same page', async () => {
    const { page, context } = await open(docPath);
    try {
      const toc = page.getByRole('navigation', { name: 'On this page' });
      const link = toc.getByRole('link').nth(2);
      const id = (await link.getAttribute('href'))!.slice(1);
      await link.click();
      await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#${id}`);
      await expect.poll(() => scrollY(page)).toBeGreaterThan(200);
    } finally {
      await context.close();
    }
  });
});
