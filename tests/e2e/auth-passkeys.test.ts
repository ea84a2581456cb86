/**
 * Passkeys in the browser (decision 0056): add one in account settings, sign out, sign in with
 * it from /login, remove it; Chromium's CDP virtual authenticator stands in for the device.
 * The app is served on "localhost" (WebAuthn refuses IP addresses) by its own server with
 * AUTH_PASSKEYS on, so the shared server's sign-in page stays as other tests know it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage as openPage, shot } from '../support/auth-browser';
import { launchBrowser, seriousAxeViolations } from '../support/browser';
import { withVirtualAuthenticator } from '../support/virtual-authenticator';
import { signUpAndConfirmEmail } from '../support/sign-up-in-browser';
import { startOwnAppServer, type OwnAppServer } from '../support/own-app-server';

const password = 'a long enough passphrase';
let browser: Browser;
let server: OwnAppServer;
let baseUrl: string;

beforeAll(async () => {
  server = await startOwnAppServer('passkeys', {
    AUTH_PASSKEYS: 'true',
  });
  baseUrl = server.url.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.each(['mobile', 'desktop'] as const)('passkeys at %s', (viewport) => {
  it('adds a passkey, signs in with it alone, and removes it', async () => {
    const email = `e2e.passkey.${viewport}.${Date.now().toString(36)}@example.com`;
    const page = await openPage(browser, viewport);
    await withVirtualAuthenticator(page, 'internal');
    try {
      await signUpAndConfirmEmail(page, baseUrl, email, password);
      await page.getByRole('link', { name: 'Go to your account' }).click();

      const section = page.getByRole('region', { name: 'Passkeys' });
      await section.getByText('You have no passkeys yet.').waitFor();
      // Phone and WebAuthn MFA factors are off on this server: settings offers neither.
      expect(await page.getByRole('region', { name: 'Security keys' }).count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Text message codes' }).count()).toBe(0);
      await section.getByRole('button', { name: 'Add a passkey' }).click();
      await section.getByText('Passkey added.').waitFor();
      await section.getByText('Passkey 1').waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `passkeys-${viewport}`);

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
      const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
      await passkeyButton.waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `login-passkey-${viewport}`);
      await passkeyButton.click();
      await page.waitForURL(`${baseUrl}/account`);
      await page.getByText(`Signed in as ${email}`).first().waitFor();
      await section.getByText(/last used/).waitFor();

      await section.getByRole('button', { name: 'Remove Passkey 1' }).click();
      await section.getByText('You have no passkeys yet.').waitFor();
    } finally {
      await page.context().close();
    }
  });
});
