/**
 * The home page's analytics panels in headless Chromium against the real server: polling,
 * collapse, hidden-page pause, the spec's error texts, the zero-users notice, the deployment
 * panel's states, and axe at phone and desktop widths.
 */
import fs from 'node:fs';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, seriousAxeViolations, viewports } from '../support/browser';

const rpcPath = '**/rest/v1/rpc/get_public_platform_metrics';
const functionPath = '**/functions/v1/vercel-analytics';
const screenshotDir = '/tmp/dashboards-shots';

let browser: Browser;
const baseUrl = inject('baseUrl');

beforeAll(async () => {
  browser = await launchBrowser();
  fs.mkdirSync(screenshotDir, { recursive: true });
});
afterAll(() => browser?.close());

/** A page in its own context (axe needs one). */
async function openHome(viewport: { width: number; height: number } = viewports.desktop) {
  const context = await browser.newContext({ viewport });
  return context.newPage();
}

function countRpcCalls(page: Page) {
  const calls: number[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/rpc/get_public_platform_metrics')) calls.push(Date.now());
  });
  return calls;
}

function panel(page: Page, id: 'live-analytics' | 'database-analytics' | 'deployment-analytics') {
  return page.getByTestId(id);
}

function trigger(page: Page, id: 'live-analytics' | 'database-analytics' | 'deployment-analytics') {
  return panel(page, id).locator('[data-slot="collapsible-trigger"]');
}

/** Route handlers still running when the page closes must not fail the run. */
async function closePage(page: Page) {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.context().close();
}

function analyticsSection(page: Page) {
  return page.locator('section[aria-labelledby="platform-analytics-heading"]');
}

/** Opens the home page and scrolls to the panels, which load only when a visitor gets near. */
async function gotoHome(page: Page) {
  await page.goto(`${baseUrl}/`);
  await analyticsSection(page).scrollIntoViewIfNeeded();
}

/**
 * Counts the page's calls of the metrics procedure inside the page, so that a call a timer
 * makes is counted by the time the timer has run (a request event reaches the test later).
 * `settled` counts the calls that have finished: a refetch that starts while one is still in
 * flight is merged into it, so each interval is advanced only once the last call is done.
 */
async function countMetricsCalls(page: Page) {
  await page.addInitScript(() => {
    const counts = { started: 0, settled: 0 };
    Object.assign(window, { metricsCalls: counts });
    const original = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.includes('/rest/v1/rpc/get_public_platform_metrics')) return original(input, init);
      counts.started += 1;
      return original(input, init).finally(() => {
        counts.settled += 1;
      });
    };
  });
  const read = () =>
    page.evaluate(
      () =>
        (window as unknown as { metricsCalls: { started: number; settled: number } }).metricsCalls,
    );
  return {
    started: async () => (await read()).started,
    /** Resolves once no call is in flight; returns how many have been made. */
    quiet: async () => {
      await expect
        .poll(async () => {
          const { started, settled } = await read();
          return started === settled;
        })
        .toBe(true);
      return (await read()).started;
    },
  };
}

/**
 * Advances the frozen clock in half-second steps, letting each call finish before the next step,
 * so a refetch never merges into one still in flight and every tick shows as a call.
 */
async function advance(
  page: Page,
  calls: Awaited<ReturnType<typeof countMetricsCalls>>,
  ms: number,
) {
  for (let elapsed = 0; elapsed < ms; elapsed += 500) {
    await page.clock.runFor(500);
    await calls.quiet();
  }
}

/**
 * Freezes the page's clock (installed before it loaded), so only `runFor` makes time pass. The
 * pause point must still be ahead when the call arrives, a round trip after reading the time.
 */
async function freezeClock(page: Page) {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
}

/** Answers the function with bodies of the function's real response shape. */
async function fakeFunction(
  page: Page,
  answers: Record<string, { status: number; body: unknown }>,
) {
  await page.route(functionPath, async (route: Route) => {
    const { searchParams } = route.request().postDataJSON() as { searchParams: string };
    const endpoint = new URLSearchParams(searchParams).get('endpoint') ?? '';
    const answer = answers[endpoint] ?? { status: 404, body: { error: 'not stubbed' } };
    await route.fulfill({
      status: answer.status,
      contentType: 'application/json',
      body: JSON.stringify(answer.body),
    });
  });
}

describe('home analytics panels', () => {
  it('load and poll only once the visitor scrolls near them', async () => {
    const page = await openHome(viewports.mobile);
    await page.clock.install();
    const calls = countRpcCalls(page);
    await page.goto(`${baseUrl}/`);
    await page.waitForLoadState('networkidle');
    // Past every deferred start (idle callbacks, the toaster) and two polling intervals.
    await page.clock.runFor(11_000);
    await page.waitForLoadState('networkidle');
    expect(calls.length).toBe(0);
    expect(await panel(page, 'live-analytics').count()).toBe(0);
    await analyticsSection(page).scrollIntoViewIfNeeded();
    await expect.poll(() => calls.length).toBeGreaterThan(0);
    expect(await panel(page, 'live-analytics').count()).toBe(1);
    await expect.poll(() => panel(page, 'live-analytics').getByText('Operational').count()).toBe(1);
    // Nothing in the panels (the chart's text alternative included) widens a phone screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewports.mobile.width,
    );
    // Nor does the status word run out of its half-width tile (it did, by 11 px, at 390 px).
    const status = panel(page, 'live-analytics').getByText('Operational');
    expect(await status.evaluate((value) => value.scrollWidth - value.clientWidth)).toBe(0);
    await closePage(page);
  });

  it('show measured figures and poll the live panel every 5 seconds', async () => {
    const page = await openHome();
    await page.clock.install();
    const calls = await countMetricsCalls(page);
    await gotoHome(page);
    const live = panel(page, 'live-analytics');
    await expect.poll(() => live.getByText('Operational').count()).toBe(1);
    await expect.poll(() => live.getByText('Total users').count()).toBe(1);
    expect(await live.textContent()).not.toContain('Error');

    // Only the live panel open: one call every 5 s, so 15 s hold exactly three.
    await trigger(page, 'database-analytics').click();
    await expect
      .poll(() => trigger(page, 'database-analytics').getAttribute('aria-expanded'))
      .toBe('false');
    await freezeClock(page);
    const beforeTicks = await calls.quiet();
    await advance(page, calls, 15_000);
    // Polled rather than read once: nothing can tick while the clock is paused, so waiting
    // cannot hide an extra call, only let the last one be counted.
    await expect.poll(() => calls.quiet()).toBe(beforeTicks + 3);
    await closePage(page);
  });

  it('stop polling while collapsed and while the page is hidden', async () => {
    const page = await openHome();
    await page.clock.install();
    const calls = await countMetricsCalls(page);
    await gotoHome(page);
    await expect.poll(() => calls.started()).toBeGreaterThan(0);

    // Keyboard: the headings are buttons with aria-expanded.
    await trigger(page, 'live-analytics').focus();
    await page.keyboard.press('Enter');
    await trigger(page, 'database-analytics').focus();
    await page.keyboard.press('Space');
    await expect
      .poll(() => trigger(page, 'live-analytics').getAttribute('aria-expanded'))
      .toBe('false');
    await expect
      .poll(() => trigger(page, 'database-analytics').getAttribute('aria-expanded'))
      .toBe('false');
    await expect.poll(() => panel(page, 'live-analytics').getByText('Total users').count()).toBe(0);
    await freezeClock(page);
    const collapsedAt = await calls.quiet();
    await advance(page, calls, 21_000);
    expect(await calls.quiet()).toBe(collapsedAt);

    // Expanded again it polls; hidden, it pauses.
    await trigger(page, 'live-analytics').click();
    await page.clock.runFor(5_000);
    await expect.poll(() => calls.quiet()).toBeGreaterThan(collapsedAt);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => 'hidden',
      });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const hiddenAt = await calls.quiet();
    await advance(page, calls, 21_000);
    expect(await calls.quiet()).toBe(hiddenAt);
    await closePage(page);
  });

  it("show the spec's error texts when the metrics call fails, and recover", async () => {
    const page = await openHome();
    let failing = true;
    await page.route(rpcPath, async (route) => {
      if (!failing) return route.continue();
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({
          code: 'XX000',
          message: 'Service unavailable',
          details: null,
          hint: null,
        }),
      });
    });
    await gotoHome(page);
    const live = panel(page, 'live-analytics');
    const database = panel(page, 'database-analytics');
    // Three retries with 1, 2 and 4 s delays come before the error shows.
    await expect
      .poll(
        () =>
          live
            .getByText('Error fetching live data: Service unavailable. Retrying automatically...')
            .count(),
        { timeout: 20_000 },
      )
      .toBe(1);
    expect(await live.getByText('Error', { exact: true }).count()).toBeGreaterThanOrEqual(6);
    expect(await live.getByText('check logs').count()).toBe(1);
    expect(await database.getByText('Error fetching analytics: Service unavailable').count()).toBe(
      1,
    );
    expect(
      await database
        .getByText('Some database queries encountered issues. Using available data.')
        .count(),
    ).toBe(1);
    await analyticsSection(page).screenshot({ path: `${screenshotDir}/panels-error-1280.png` });

    failing = false;
    await expect.poll(() => live.getByText('Operational').count()).toBe(1);
    expect(await live.getByText('check logs').count()).toBe(0);
    await closePage(page);
  });

  it('show the zero-users notice only when the platform has no users', async () => {
    const page = await openHome();
    let users = 0;
    await page.route(rpcPath, async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { totals: { users: number } };
      json.totals.users = users;
      await route.fulfill({ response, json });
    });
    await gotoHome(page);
    const notice =
      'System operational! If you have users but seeing 0, there may be RLS policy restrictions.';
    const database = panel(page, 'database-analytics');
    await expect.poll(() => database.getByText(notice).count()).toBe(1);
    users = 12;
    await expect.poll(() => database.getByText(notice).count()).toBe(0);
    await closePage(page);
  });

  it('tell the visitor when hosting analytics is not configured', async () => {
    const page = await openHome();
    await gotoHome(page);
    const deployment = panel(page, 'deployment-analytics');
    await expect
      .poll(() => deployment.getByText('Hosting analytics is not configured.').count())
      .toBe(1);
    // Setup steps are for operators (tests/e2e/hosting-not-configured.test.ts).
    expect(await deployment.textContent()).not.toContain('VERCEL_TOKEN');
    await closePage(page);
  });

  it('list the three most recent deployments with their state in words', async () => {
    const page = await openHome();
    const now = Date.now();
    const deployment = (n: number, state: string, ageMs: number) => ({
      id: `dpl_${n}`,
      uid: `dpl_${n}`,
      name: 'lyceum-web',
      url: `lyceum-web-${n}.vercel.app`,
      state,
      created: now - ageMs,
    });
    await fakeFunction(page, {
      projects: {
        status: 200,
        body: {
          projects: [{ id: 'prj_1', name: 'lyceum-web', framework: 'vite', updatedAt: now }],
        },
      },
      deployments: {
        status: 200,
        body: {
          deployments: [
            deployment(1, 'BUILDING', 120_000),
            deployment(2, 'READY', 3 * 3_600_000),
            deployment(3, 'ERROR', 26 * 3_600_000),
            deployment(4, 'CANCELED', 50 * 3_600_000),
          ],
        },
      },
      analytics: {
        status: 200,
        body: {
          analytics: {
            requests: null,
            bandwidth: null,
            visitors: 321,
            pageViews: 1234,
            windowHours: 24,
          },
        },
      },
    });
    await gotoHome(page);
    const list = panel(page, 'deployment-analytics').getByTestId('deployment-list');
    await expect.poll(() => list.locator('li').count()).toBe(3);
    const text = (await list.textContent()) ?? '';
    expect(text).toContain('Building');
    expect(text).toContain('Ready');
    expect(text).toContain('Error');
    expect(text).toContain('2 minutes ago');
    expect(text).toContain('3 hours ago');
    expect(text).not.toContain('Canceled');
    const tiles = (await panel(page, 'deployment-analytics').textContent()) ?? '';
    expect(tiles).toContain('1,234');
    expect(tiles).toContain('321');
    for (const viewport of [viewports.mobile, viewports.desktop]) {
      await page.setViewportSize(viewport);
      await panel(page, 'deployment-analytics').screenshot({
        path: `${screenshotDir}/deployment-${viewport.width}.png`,
      });
    }
    await closePage(page);
  });

  it('show provider errors and an empty account in the deployment panel', async () => {
    const page = await openHome();
    const answers: Record<string, { status: number; body: unknown }> = {
      projects: {
        status: 200,
        body: {
          projects: [],
          message: 'No Vercel projects found. Check your API token permissions.',
        },
      },
      deployments: {
        status: 502,
        body: {
          error: 'Failed to fetch deployments: Not authorized (HTTP 403)',
          code: 'provider_error',
          deployments: [],
        },
      },
    };
    await fakeFunction(page, answers);
    await gotoHome(page);
    const deployment = panel(page, 'deployment-analytics');
    await expect
      .poll(() =>
        deployment.getByText('No Vercel projects found. Check your API token permissions.').count(),
      )
      .toBe(1);

    expect(await deployment.locator('[data-slot="skeleton"]').count()).toBe(0);

    // A project appears (next page load), but the deployments call keeps failing.
    answers.projects = {
      status: 200,
      body: { projects: [{ id: 'prj_1', name: 'lyceum-web', framework: null, updatedAt: null }] },
    };
    answers.analytics = {
      status: 502,
      body: {
        error: 'Failed to fetch analytics: Project not found (HTTP 404)',
        code: 'provider_error',
        analytics: { requests: 0, bandwidth: 0, visitors: 0, pageViews: 0 },
      },
    };
    await page.reload();
    for (const text of [
      'Failed to fetch deployments: Not authorized (HTTP 403)',
      'Failed to fetch analytics: Project not found (HTTP 404)',
    ]) {
      await expect.poll(() => deployment.getByText(text).count(), { timeout: 20_000 }).toBe(1);
    }
    // The fallback zeros are never shown as if they were measured.
    expect(await deployment.getByText('Page views').count()).toBe(0);
    await closePage(page);
  });

  it('have no serious accessibility violations at phone and desktop widths', async () => {
    for (const viewport of [viewports.mobile, viewports.desktop]) {
      const page = await openHome(viewport);
      await gotoHome(page);
      await expect
        .poll(() => panel(page, 'live-analytics').getByText('Operational').count())
        .toBe(1);
      await expect.poll(() => page.getByText('Requests per minute, last hour').count()).toBe(1);
      await analyticsSection(page).screenshot({
        path: `${screenshotDir}/panels-${viewport.width}.png`,
      });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await closePage(page);
    }
  });
});
