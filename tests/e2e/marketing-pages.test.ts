import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { brand } from '../../src/common/brand';
import { routes } from '../../src/common/routes';
import { launchBrowser, seriousAxeViolations, viewports } from '../support/browser';
import { gotoHydrated, waitForHydrated } from '../support/hydration';

const baseUrl = inject('baseUrl');
const marketingPaths = routes
  .filter((route) => route.kind === 'home' || route.kind === 'marketing')
  .map((route) => route.path);
const adaptPath = `/${brand.initials.toLowerCase()}-adapt`;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(path: string, viewport: keyof typeof viewports = 'desktop'): Promise<Page> {
  // axe needs a page from an explicit context.
  const context = await browser.newContext({
    viewport: viewports[viewport],
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  // Closing the page closes its context too. If the browser is already closing (the last test
  // has just finished), the context is gone with it: nothing left to report.
  page.on('close', () => {
    context.close().catch(() => undefined);
  });
  const response = await gotoHydrated(page, baseUrl + path, { waitUntil: 'networkidle' });
  expect(response?.status()).toBe(200);
  await page.locator('main h1').waitFor();
  return page;
}

/** Heading levels in document order, e.g. [1, 2, 3, 3, 2]. */
function headingLevels(page: Page): Promise<number[]> {
  return page
    .locator('main :is(h1, h2, h3, h4, h5, h6)')
    .evaluateAll((nodes) => nodes.map((node) => Number(node.tagName.slice(1))));
}

describe('marketing pages', () => {
  it.each(marketingPaths)('%s has one h1 and headings that never skip a level', async (path) => {
    const page = await open(path);
    const levels = await headingLevels(page);
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    expect(levels[0]).toBe(1);
    levels.forEach((level, index) => {
      if (index > 0) expect(level - levels[index - 1]!).toBeLessThanOrEqual(1);
    });
    await page.close();
  });

  it.each(marketingPaths)('%s hydrates its prerendered HTML without React errors', async (path) => {
    const context = await browser.newContext({ viewport: viewports.desktop });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /hydrat|React error/i.test(message.text())) {
        errors.push(message.text());
      }
    });
    const html = await (await fetch(baseUrl + path)).text();
    expect(html).toMatch(/<h1[^>]*>/);
    // Errors are reported as hydration runs: look once it has finished.
    await gotoHydrated(page, baseUrl + path, { waitUntil: 'networkidle' });
    await page.locator('main h1').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(
    marketingPaths.flatMap((path) => [[path, 'mobile'] as const, [path, 'desktop'] as const]),
  )(
    '%s has no serious accessibility violations at %s width and fits the screen',
    async (path, viewport) => {
      const page = await open(path, viewport);
      expect(await seriousAxeViolations(page)).toEqual([]);
      // The page's own bands (hero, sections, footer) must fit the viewport; panels that other
      // features embed between them are checked by their own tests.
      const overflowing = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        return Array.from(document.querySelectorAll('main > header, main > section, main > footer'))
          .flatMap((band) => [band, ...Array.from(band.querySelectorAll('*'))])
          .filter(
            (node) => !node.closest('.sr-only') && node.getBoundingClientRect().right > width + 1,
          )
          .map((node) => `${node.tagName.toLowerCase()}: ${node.textContent?.slice(0, 40)}`);
      });
      expect(overflowing).toEqual([]);
      await page.close();
    },
  );

  it('home shows the tagline, the three badges and every section the spec lists', async () => {
    const page = await open('/');
    const main = page.locator('main');
    await expect(main.getByText(brand.tagline).first().isVisible()).resolves.toBe(true);
    for (const badge of [
      'Enterprise-Grade Architecture',
      'Dual AI Integration',
      'Modular Design',
    ]) {
      await expect(main.getByText(badge, { exact: true }).isVisible()).resolves.toBe(true);
    }
    const sections = await page.locator('main h2').allTextContents();
    for (const section of [
      'Executive Summary',
      'System Architecture',
      'Technology Stack',
      'AI Integration',
      'Platform Features',
      'Technical Benefits',
      'Security & Compliance',
    ]) {
      expect(sections).toContain(section);
    }
    await page.close();
  });

  it('home links to documentation pages that exist', async () => {
    const page = await open('/');
    const hrefs = await page
      .locator('main a[href^="/"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
    const known = new Set(routes.map((route) => route.path));
    expect(hrefs.length).toBeGreaterThan(10);
    expect(hrefs.filter((href) => !known.has(href.split('#')[0]!))).toEqual([]);
    await page.close();
  });

  it('the platform overview shows both environments, the three roles and the feature suite', async () => {
    const page = await open('/platform-overview');
    const h3 = await page.locator('main h3').allInnerTexts();
    for (const name of ['Personal mode', 'Organization mode', 'Student', 'Instructor']) {
      expect(h3.map((text) => text.trim())).toContain(name);
    }
    expect(h3.some((text) => text.startsWith('Organization Owner'))).toBe(true);
    const roles = page.locator('section#roles ol > li');
    expect(await roles.count()).toBe(3);
    const features = await page.locator('section#features h4').allInnerTexts();
    for (const feature of ['Course library', 'Notes and flashcards', 'Live hub', 'Thresholds']) {
      expect(features).toContain(feature);
    }
    await page.close();
  });

  it('the coach page has the features and coach anchors, and its hero links reach them', async () => {
    const page = await open('/ai-study-coach');
    expect(await page.locator('section#features h2').textContent()).toBe('Features');
    expect(await page.locator('section#coach').count()).toBe(1);
    await page.getByRole('link', { name: 'See the coach in action' }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#coach');
    const top = await page.locator('#coach').evaluate((node) => node.getBoundingClientRect().top);
    // The section sits just below the sticky header (the page's scroll padding).
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(120);
    await page.close();
  });

  it('the coach page shows both worked dialogues as transcripts with speaker labels', async () => {
    const page = await open('/ai-study-coach');
    for (const topic of ['Causes of the American Revolution', 'The function of the lungs']) {
      const transcript = page.getByRole('list', { name: `Transcript: ${topic}` });
      const turns = transcript.getByRole('listitem');
      expect(await turns.count()).toBeGreaterThanOrEqual(8);
      const firstTurn = (await turns.first().innerText()).replace(/\s+/g, ' ');
      expect(firstTurn).toMatch(/^Student/);
      const text = (await transcript.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain('Wrong answer');
      expect(text).toContain('Different approach');
      expect(text).toContain('Hint');
      expect(text).toContain('Would you like another question?');
    }
    await page.close();
  });

  it('the coach video waits to be played, with a text summary beside it', async () => {
    const page = await open('/ai-study-coach');
    const figure = page.locator('section#coach figure:has(video)');
    expect(await figure.count()).toBe(1);
    const video = figure.locator('video');
    expect(await video.getAttribute('controls')).not.toBeNull();
    expect(await video.getAttribute('autoplay')).toBeNull();
    expect(await figure.locator('figcaption li').count()).toBeGreaterThanOrEqual(3);
    expect(await figure.locator('iframe').count()).toBe(0);
    // The spec's coach footer (copyright 2024, all rights reserved) is the site footer.
    expect(await page.getByRole('contentinfo').innerText()).toContain(
      `© ${brand.copyrightYear} ${brand.company}. All rights reserved.`,
    );
    await page.close();
  });

  it('the LE Adapt tabs switch with the keyboard', async () => {
    const page = await open(adaptPath);
    const tablist = page.getByRole('tablist', { name: 'Workspace tabs' });
    const tabs = tablist.getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual([
      'Upload/Prompt',
      'Processing Queue',
      'AI Output & Review',
      'Export & Delivery',
    ]);
    await tabs.first().focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tabs.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tabpanel').innerText()).toContain(
      'Follow every job through the pipeline',
    );
    await page.keyboard.press('End');
    await expect.poll(() => tabs.nth(3).getAttribute('aria-selected')).toBe('true');
    const panel = await page.getByRole('tabpanel').innerText();
    expect(panel).toContain('SCORM JSON, Markdown, HTML or MP3 audio');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    await page.close();
  });

  it('home sections below the analytics are in the HTML at once and load their code near the visitor', async () => {
    const page = await open('/', 'mobile');
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    const stack = page.getByRole('heading', { level: 2, name: 'Technology Stack' });
    // Prerendered, shown before its code has loaded.
    expect(await stack.isVisible()).toBe(true);
    expect(fetched.filter((file) => file.includes('/home-details-'))).toEqual([]);
    await stack.scrollIntoViewIfNeeded();
    await expect.poll(() => fetched.some((file) => file.includes('/home-details-'))).toBe(true);
    // Hydrated: its links navigate inside the app (the page is not reloaded).
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const section = page.locator('#technology-stack');
    // Its code arriving is not yet its hydration: until then the link reloads the page.
    await waitForHydrated(section.getByRole('link').first());
    await section.getByRole('link').first().click();
    await page.waitForURL((url) => url.pathname !== '/');
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    // Reached by a link inside the app, the home page shows the sections too.
    await page.getByRole('link', { name: 'Home' }).first().click();
    await page.waitForURL(`${baseUrl}/`);
    await expect
      .poll(() =>
        page
          .locator('main')
          .getByRole('heading', { level: 2, name: 'Security & Compliance', exact: true })
          .count(),
      )
      .toBe(1);
    await page.close();
  });

  it('the LE Adapt page labels future ideas as roadmap', async () => {
    const page = await open(adaptPath);
    const roadmap = page.locator('section#roadmap');
    expect(await roadmap.locator('h2').innerText()).toMatch(/Roadmap/);
    expect(await roadmap.getByText('Roadmap', { exact: true }).count()).toBe(4);
    await page.close();
  });
});
