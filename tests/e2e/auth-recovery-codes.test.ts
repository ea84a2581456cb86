import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newPage as openPage, shot, totpCode } from '../support/auth-browser';
import type { viewports } from '../support/browser';
import { launchBrowser, seriousAxeViolations } from '../support/browser';
import { signUpAndConfirmEmail } from '../support/sign-up-in-browser';

const baseUrl = inject('baseUrl');
const password = 'a long enough passphrase';
const newPassword = 'a brand new passphrase';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const newPage = (viewport: keyof typeof viewports) => openPage(browser, viewport);

async function signIn(page: Page, email: string, pw: string) {
  await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(pw);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.each(['mobile', 'desktop'] as const)('two-factor recovery at %s', (viewport) => {
  it('shows recovery codes once, signs in with one, and asks for the second factor before a password change', async () => {
    const email = `e2e.codes.${viewport}.${Date.now().toString(36)}@example.com`;
    const page = await newPage(viewport);
    try {
      await signUpAndConfirmEmail(page, baseUrl, email, password);
      await page.getByRole('link', { name: 'Go to your account' }).click();
      await page.getByText('This device').waitFor();

      // Turning two-factor on shows ten recovery codes, once.
      await page.getByRole('switch', { name: 'Two-factor authentication' }).click();
      const secret = (await page.getByTestId('totp-secret').innerText()).trim();
      await page.getByLabel('Code from the app').fill(totpCode(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      const list = page.getByTestId('recovery-codes');
      await list.waitFor();
      const codes = (await list.locator('li').allInnerTexts()).map((c) => c.trim());
      expect(codes).toHaveLength(10);
      for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
      await page.getByRole('button', { name: 'Download as text' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `recovery-codes-${viewport}`);
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await page.getByText('10 of 10 recovery codes left.').waitFor();
      expect(await list.count()).toBe(0);

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/login$/);

      // The second step takes a recovery code instead of the app's code, once.
      await signIn(page, email, password);
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill('0000-0000-0000-0000');
      await page.getByRole('button', { name: 'Use recovery code' }).click();
      await expect
        .poll(() => page.getByRole('alert').innerText())
        .toMatch(/That recovery code is not right, or it was used already/);
      await page.getByText(/Ask your administrator to remove two-factor authentication/).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `login-recovery-code-${viewport}`);
      await page.getByLabel('Recovery code').fill(codes[0]!.toUpperCase());
      await page.getByRole('button', { name: 'Use recovery code' }).click();
      await page.waitForURL(/\/account$/);
      await page.getByText('9 of 10 recovery codes left.').waitFor();

      // At aal2 a password change goes through and says what it ended.
      await page.getByLabel('New password').fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page
        .getByText('Your password is changed. Your other sessions were signed out')
        .waitFor();
      await shot(page, `password-changed-${viewport}`);

      // With the password alone (the second step skipped), the account screen asks for a code.
      const other = await newPage(viewport);
      try {
        await signIn(other, email, newPassword);
        await other.getByLabel('Authentication code').waitFor();
        await other.goto(`${baseUrl}/account`, { waitUntil: 'networkidle' });
        await other.getByText('This device').waitFor();
        await other.getByLabel('New password').fill(password);
        await other.getByRole('button', { name: 'Change password' }).click();
        await other
          .getByText(
            'Confirm it is you with your second step (authenticator app, security key or text message) to change your password.',
          )
          .waitFor();
        expect(await seriousAxeViolations(other)).toEqual([]);
        await shot(other, `password-needs-aal2-${viewport}`);
        await other.getByLabel('Authentication code').fill(totpCode(secret, 1));
        await other.getByRole('button', { name: 'Verify' }).click();
        await other
          .getByText('Your password is changed. Your other sessions were signed out')
          .waitFor();
      } finally {
        await other.context().close();
      }
    } finally {
      await page.context().close();
    }
  });
});
