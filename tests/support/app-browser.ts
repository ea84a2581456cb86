/**
 * The harness the learning-app browser tests share: one gateway per test file serving the built
 * app (dist/web, or WEB_DIST_DIR) on its own data directory and embedded database, a
 * service-role client to set up the file's world, headless Chromium, and signed-in pages.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { startServer, type RunningServer } from '../../src/server/start';
import { newPage } from './auth-browser';
import { launchBrowser, seriousAxeViolations, viewports } from './browser';
import { testClient } from './test-server';

/** Every user these tests create signs in with it. */
export const password = 'a long enough passphrase';

export type Viewport = keyof typeof viewports;

export interface Person {
  id: string;
  email: string;
}

type SessionState = Awaited<ReturnType<BrowserContext['storageState']>>;

export interface AppBrowser {
  server: RunningServer;
  baseUrl: string;
  /** A supabase-js client with the service-role key, for building the test's world. */
  service: SupabaseClient;
  browser: Browser;
  /** A confirmed user with `password`, made through the auth admin API. */
  createUser(label: string, fullName: string): Promise<Person>;
  /** A page in a fresh context at one of the two widths we check, motion reduced. */
  newPage(viewport: Viewport): Promise<Page>;
  /** Fills and submits the sign-in form the page shows. */
  signIn(page: Page, email: string): Promise<void>;
  /** A page that signs in by itself (its own session, which it may end), then lands on `at`. */
  freshSignIn(viewport: Viewport, email: string, at: string): Promise<Page>;
  /**
   * A page signed in as the user, opened at `at`. The browser signs in once per user and later
   * pages reuse its stored session, as a returning visitor's browser would.
   */
  signedInPage(viewport: Viewport, email: string, at: string): Promise<Page>;
  /**
   * Opens `at` signed in as `email` at 390 and then 1280 px, waits for its level-1 heading and
   * the network to settle, expects no serious axe violations and saves `<name>-<viewport>`.
   */
  expectNoSeriousAxeViolations(
    email: string,
    at: string,
    name: string,
    heading: string | RegExp,
  ): Promise<void>;
  /** Saves a full-page screenshot under SCREENSHOTS_DIR/<name>/ when set (for looking, not asserting). */
  shot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server and the browser for one test file; `name` names its temp and screenshot folders. */
export async function startAppBrowser(
  name: string,
  /**
   * `firstVisit`: pages start with no consent choice, so the consent banner shows. `env`: more
   * settings for this file's server (e.g. the beta gate on).
   */
  options: { firstVisit?: boolean; env?: Record<string, string> } = {},
): Promise<AppBrowser> {
  const distDir = path.resolve(process.env.WEB_DIST_DIR ?? 'dist/web');
  const shotsRoot = process.env.SCREENSHOTS_DIR;
  const shotsDir = shotsRoot ? path.join(path.resolve(shotsRoot), name) : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `lyceum-${name}-e2e-`));
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    server = await startServer(
      loadConfig(
        {},
        {
          NODE_ENV: 'test',
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
          DATA_DIR: dataDir,
          // Users sign up freely here; the beta gate's own tests turn it on.
          BETA_GATE: 'false',
          ...options.env,
          WEB_DIST_DIR: distDir,
        },
      ),
    );
    browser = await launchBrowser(options);
  } catch (error) {
    await close();
    throw error;
  }
  const baseUrl = server.url;
  const service = testClient(server, server.deps.keys.serviceRoleKey);
  const openBrowser = browser;
  const sessions = new Map<string, SessionState>();

  const app: AppBrowser = {
    server,
    baseUrl,
    service,
    browser,
    async createUser(label, fullName) {
      const email = `${label}.${Date.now().toString(36)}@example.com`;
      const created = await service.auth.admin.createUser({
        email,
        password,
        email_confirm: true,
        user_metadata: { full_name: fullName },
      });
      if (created.error) throw new Error(`create ${label}: ${created.error.message}`);
      return { id: created.data.user.id, email };
    },
    newPage: (viewport) => newPage(openBrowser, viewport),
    async signIn(page, email) {
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    },
    async freshSignIn(viewport, email, at) {
      const page = await app.newPage(viewport);
      await page.goto(`${baseUrl}/login?next=${encodeURIComponent(at)}`, {
        waitUntil: 'networkidle',
      });
      await app.signIn(page, email);
      await page.waitForURL(`${baseUrl}${at}`);
      return page;
    },
    async signedInPage(viewport, email, at) {
      let state = sessions.get(email);
      if (!state) {
        const first = await app.freshSignIn('desktop', email, '/app');
        state = await first.context().storageState();
        sessions.set(email, state);
        await first.context().close();
      }
      const context = await openBrowser.newContext({
        viewport: viewports[viewport],
        reducedMotion: 'reduce',
        storageState: state,
      });
      const page = await context.newPage();
      await page.goto(baseUrl + at, { waitUntil: 'networkidle' });
      return page;
    },
    async expectNoSeriousAxeViolations(email, at, name, heading) {
      for (const viewport of ['mobile', 'desktop'] as const) {
        const page = await app.signedInPage(viewport, email, at);
        try {
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          await page.waitForLoadState('networkidle');
          expect(await seriousAxeViolations(page), `${name} at ${viewport}`).toEqual([]);
          await app.shot(page, `${name}-${viewport}`);
        } finally {
          await page.context().close();
        }
      }
    },
    async shot(page, shotName) {
      if (!shotsDir) return;
      fs.mkdirSync(shotsDir, { recursive: true });
      await page.screenshot({ path: path.join(shotsDir, `${shotName}.png`), fullPage: true });
    },
    close,
  };
  return app;
}
