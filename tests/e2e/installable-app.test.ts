/**
 * The installable app (issue 18, decision 0180): Chromium's install criteria, a visited page
 * reloading offline from the service worker's caches while API calls are never answered from
 * them, and the notice that offers a reload when a new version is deployed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { startServer, type RunningServer } from '../../src/server/start';
import {
  CHROMIUM_PATH,
  chromiumFlags,
  launchBrowser,
  seriousAxeViolations,
  viewports,
} from '../support/browser';
import { waitForHydration } from '../support/hydration';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function openWithWorker(
  url: string,
  viewport: { width: number; height: number } = viewports.desktop,
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport, serviceWorkers: 'allow' });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'networkidle' });
  return { page, context };
}

/** Resolves once the worker is active and has kept this page (service-worker.ts). */
async function workerReady(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const kept = await caches.match(location.origin + location.pathname);
        return Boolean(kept);
      }),
    )
    .toBe(true);
}

describe('the installable app', () => {
  it('meets Chromium’s install criteria with a manifest and icons', async () => {
    // Chromium never offers to install from an incognito profile, which every other context
    // here is: this check runs in a profile of its own.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: chromiumFlags,
      viewport: viewports.desktop,
    });
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/data-encryption`, { waitUntil: 'networkidle' });
      const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(manifestHref).toBe('/manifest.webmanifest');
      const manifest = (await (await fetch(`${baseUrl}/manifest.webmanifest`)).json()) as {
        display: string;
        start_url: string;
        icons: { src: string; sizes: string; purpose: string }[];
      };
      expect(manifest).toMatchObject({ display: 'standalone', start_url: '/app' });
      expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
        '192x192 any',
        '512x512 any',
        '512x512 maskable',
      ]);
      for (const icon of manifest.icons) {
        const response = await fetch(baseUrl + icon.src);
        expect(response.headers.get('content-type')).toBe('image/png');
      }

      await workerReady(page);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: { errorId: string }[];
      };
      expect(installabilityErrors.map((error) => error.errorId)).toEqual([]);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  it('reloads a visited page offline, and never answers an API call from a cache', async () => {
    const { page, context } = await openWithWorker(`${baseUrl}/data-encryption`);
    try {
      await workerReady(page);
      const heading = await page.getByRole('heading', { level: 1 }).textContent();

      await context.setOffline(true);
      await page.reload({ waitUntil: 'load' });
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
      // Hydrated from cached scripts (it never hydrates without them): the sidebar toggle
      // responds. A press before hydration would do nothing, online or not.
      await waitForHydration(page);
      const sidebar = page.locator('[data-slot="sidebar"]').first();
      expect(await sidebar.getAttribute('data-state')).toBe('expanded');
      await page.getByRole('button', { name: 'Toggle documentation sidebar' }).first().click();
      await expect.poll(() => sidebar.getAttribute('data-state')).toBe('collapsed');

      const apiOffline = await page.evaluate(() =>
        fetch('/auth/v1/settings').then(
          () => 'answered',
          () => 'failed',
        ),
      );
      expect(apiOffline).toBe('failed');
    } finally {
      await context.close();
    }
  });
});

describe('a new deployment', () => {
  let server: RunningServer;
  let distCopy: string;
  let dataDir: string;

  beforeAll(async () => {
    // A server of its own over a copy of the build, so the test can "deploy" a new worker.
    distCopy = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-dist-'));
    fs.cpSync(path.resolve(process.env.WEB_DIST_DIR ?? 'dist/web'), distCopy, { recursive: true });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-pwa-'));
    const config = loadConfig(
      {},
      {
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        BETA_GATE: 'false',
        WEB_DIST_DIR: distCopy,
      },
    );
    server = await startServer(config);
  });
  afterAll(async () => {
    await server?.close();
    for (const dir of [distCopy, dataDir])
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['mobile', 'desktop'] as const)(
    'offers a reload that brings in the new version (%s)',
    async (viewport) => {
      const { page, context } = await openWithWorker(`${server.url}/`, viewports[viewport]);
      try {
        await workerReady(page);
        // The worker controls pages loaded after it activated.
        await page.reload({ waitUntil: 'networkidle' });
        await expect
          .poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)))
          .toBe(true);

        const workerFile = path.join(distCopy, 'sw.js');
        fs.appendFileSync(workerFile, `\n// deployment ${viewport} ${Date.now()}\n`);
        await page.evaluate(() =>
          navigator.serviceWorker.getRegistration().then((registration) => registration?.update()),
        );

        const notice = page.getByText('A new version of Lyceum is available.');
        await notice.waitFor();
        // The toast slides in (sonner); its colours are checked once it stands still.
        await expect
          .poll(() =>
            page
              .locator('[data-sonner-toast]')
              .first()
              .evaluate((toast) => getComputedStyle(toast).opacity),
          )
          .toBe('1');
        expect(await seriousAxeViolations(page)).toEqual([]);

        await page.evaluate(() => {
          (window as { beforeUpdate?: boolean }).beforeUpdate = true;
        });
        await Promise.all([
          page.waitForEvent('load'),
          page.getByRole('button', { name: 'Reload' }).click(),
        ]);
        expect(await page.evaluate(() => (window as { beforeUpdate?: boolean }).beforeUpdate)).toBe(
          undefined,
        );
        await expect
          .poll(() =>
            page.evaluate(async () => {
              const registration = await navigator.serviceWorker.getRegistration();
              return Boolean(registration?.active && !registration.waiting);
            }),
          )
          .toBe(true);
        expect(await notice.count()).toBe(0);
      } finally {
        await context.close();
      }
    },
  );
});
