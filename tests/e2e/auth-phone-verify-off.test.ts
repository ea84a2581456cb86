/**
 * A phone-only MFA account while the server verifies no phone codes (AUTH_MFA_PHONE_VERIFY
 * false, decision 0061): the sign-in's second step says the method is switched off and that
 * an administrator removes it, instead of asking for an authenticator app the account does not
 * have. Its own server: phone enrolment on, phone verification off.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { startServer } from '../../src/server/start';
import { newPage as openPage, shot } from '../support/auth-browser';
import { launchBrowser, seriousAxeViolations } from '../support/browser';
import { signUpAndConfirmEmail } from '../support/sign-up-in-browser';

const password = 'a long enough passphrase';
let browser: Browser;
let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-e2e-phone-verify-off-'));
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      BETA_GATE: 'false',
      WEB_DIST_DIR: path.resolve(process.env.WEB_DIST_DIR ?? 'dist/web'),
      AUTH_MFA_PHONE_ENROLL: 'true',
      AUTH_MFA_PHONE_VERIFY: 'false',
    },
  );
  server = await startServer(config);
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.each(['mobile', 'desktop'] as const)('a phone-only account at %s', (viewport) => {
  it('is told at sign-in that text codes are off and who can remove the factor', async () => {
    const email = `e2e.phone-off.${viewport}.${Date.now().toString(36)}@example.com`;
    const page = await openPage(browser, viewport);
    try {
      await signUpAndConfirmEmail(page, server.url, email, password);
      await page.getByRole('link', { name: 'Go to your account' }).waitFor();
      // The number was verified while the server still checked text codes.
      await server.deps.db.query(
        `insert into auth.mfa_factors (user_id, factor_type, phone, status)
         select id, 'phone', '447700900123', 'verified' from auth.users where email = $1`,
        [email],
      );

      const next = await openPage(browser, viewport);
      try {
        await next.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
        await next.getByLabel('Email').fill(email);
        await next.getByLabel('Password').fill(password);
        await next.getByRole('button', { name: 'Sign in', exact: true }).click();
        const stranded = next.getByRole('alert').filter({ hasText: 'switched off' });
        await stranded.waitFor();
        expect(await stranded.innerText()).toMatch(
          /codes by text message this service has switched off.*Ask your administrator to remove two-factor authentication/s,
        );
        expect(await next.getByLabel('Authentication code').count()).toBe(0);
        expect(await seriousAxeViolations(next)).toEqual([]);
        await shot(next, `login-phone-verify-off-${viewport}`);
      } finally {
        await next.context().close();
      }
    } finally {
      await page.context().close();
    }
  });
});
