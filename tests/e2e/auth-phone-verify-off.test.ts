/**
 * A phone-only MFA account while the server verifies no phone codes (AUTH_MFA_PHONE_VERIFY
 * false, decision 0061): the sign-in's second step says the method is switched off and that
 * an administrator removes it, instead of asking for an authenticator app the account does not
 * have. Its own server: phone enrolment on, phone verification off.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage as openPage, shot } from '../support/auth-browser';
import { launchBrowser, seriousAxeViolations } from '../support/browser';
import { signUpAndConfirmEmail } from '../support/sign-up-in-browser';
import { startOwnAppServer, type OwnAppServer } from '../support/own-app-server';

const password = 'a long enough passphrase';
let browser: Browser;
let server: OwnAppServer;

beforeAll(async () => {
  server = await startOwnAppServer('phone-verify-off', {
    AUTH_MFA_PHONE_ENROLL: 'true',
    AUTH_MFA_PHONE_VERIFY: 'false',
  });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
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
