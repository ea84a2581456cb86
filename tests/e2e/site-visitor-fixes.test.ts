/**
 * What a visitor trips on (issue 10): the coach page's second footer, the platform overview's
 * breadcrumb repeating its name, the documentation sidebar that does not show the current
 * page, and the home hero's "at a glance" figures missing on a phone.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { brand } from '@common/brand';
import { docGroups, routesInGroup } from '@common/routes';
import { launchBrowser, viewports } from '../support/browser';
import { gotoHydrated } from '../support/hydration';

const baseUrl = inject('baseUrl');
const shotsDir = '/tmp/shots';
const widths = ['mobile', 'desktop'] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function open(path: string, width: (typeof widths)[number]): Promise<Page> {
  const context = await browser.newContext({ viewport: viewports[width], reducedMotion: 'reduce' });
  const page = await context.newPage();
  await gotoHydrated(page, `${baseUrl}${path}`, { waitUntil: 'networkidle' });
  return page;
}

/** Whether the element's box lies inside its scroll container's visible box. */
async function shownInScrollBox(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((link) => {
    let box: HTMLElement | null = link.parentElement;
    while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
    if (!box) return false;
    const outer = box.getBoundingClientRect();
    const inner = link.getBoundingClientRect();
    return inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1 && inner.height > 0;
  });
}

describe.each(widths)('at %s width', (width) => {
  it('the coach page has one footer, the site footer with the copyright', async () => {
    const page = await open('/ai-study-coach', width);
    try {
      expect(await page.locator('footer').count()).toBe(1);
      const footer = page.getByRole('contentinfo');
      expect(await footer.innerText()).toContain(
        `© ${brand.copyrightYear} ${brand.company}. All rights reserved.`,
      );
      await page.screenshot({ path: `${shotsDir}/coach-${width}.png`, fullPage: true });
    } finally {
      await page.context().close();
    }
  });

  it('the platform overview breadcrumb names the page once', async () => {
    const page = await open('/platform-overview', width);
    try {
      const items = await page
        .getByRole('navigation', { name: 'breadcrumb' })
        .getByRole('listitem')
        .allInnerTexts();
      expect(items.map((item) => item.trim()).filter(Boolean)).toEqual([
        'Home',
        'Platform Overview',
      ]);
      await page.screenshot({ path: `${shotsDir}/platform-overview-${width}.png` });
    } finally {
      await page.context().close();
    }
  });

  it('a documentation page in another section keeps its breadcrumb section link', async () => {
    const page = await open('/data-encryption', width);
    try {
      const items = await page
        .getByRole('navigation', { name: 'breadcrumb' })
        .getByRole('listitem')
        .allInnerTexts();
      expect(items.map((item) => item.trim()).filter(Boolean)).toEqual([
        'Home',
        'Security & Compliance',
        'Data Encryption',
      ]);
    } finally {
      await page.context().close();
    }
  });

  it('the documentation sidebar shows the current page', async () => {
    const lastGroup = docGroups[docGroups.length - 1]!;
    const last = routesInGroup(lastGroup).at(-1)!;
    const page = await open(last.path, width);
    try {
      if (width === 'mobile') {
        await page.getByRole('button', { name: 'Toggle documentation sidebar' }).first().click();
        await page.getByRole('dialog', { name: 'Documentation' }).waitFor();
      }
      const current = `[data-sidebar="sidebar"] a[aria-current="page"][href="${last.path}"]`;
      await page.locator(current).waitFor();
      // The list scrolls to it when it mounts: on hydration, or as the phone's sheet opens.
      await expect.poll(() => shownInScrollBox(page, current)).toBe(true);
      await page.screenshot({ path: `${shotsDir}/doc-sidebar-${width}.png` });
    } finally {
      await page.context().close();
    }
  });

  it('the home hero shows its "at a glance" figures', async () => {
    const page = await open('/', width);
    try {
      const glance = page.getByRole('region', { name: 'At a glance' });
      expect(await glance.isVisible()).toBe(true);
      const figures = glance.locator('dt');
      expect(await figures.count()).toBeGreaterThan(0);
      for (const figure of await figures.all()) expect(await figure.isVisible()).toBe(true);
      const box = (await glance.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewports[width].width);
      await glance.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shotsDir}/home-hero-${width}.png` });
    } finally {
      await page.context().close();
    }
  });
});
