import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newPage as openPage, shot, totpCode } from '../support/auth-browser';
import type { viewports } from '../support/browser';
import { launchBrowser, seriousAxeViolations } from '../support/browser';
import { signUpAndConfirmEmail } from '../support/sign-up-in-browser';

const baseUrl = inject('baseUrl');
const password = 'a long enough passphrase';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const newPage = (viewport: keyof typeof viewports) => openPage(browser, viewport);

describe('account screens in the browser', () => {
  it('sign-up → mailbox → confirm → sign in → enable TOTP → sign out → sign in with TOTP', async () => {
    const email = `e2e.${Date.now().toString(36)}@example.com`;
    const page = await newPage('desktop');
    try {
      await page.goto(`${baseUrl}/signup`, { waitUntil: 'networkidle' });
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();

      // Before confirming, sign-in explains why it cannot go ahead.
      await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect
        .poll(() => page.getByRole('alert').innerText())
        .toMatch(/Confirm your email address first/);

      await page.goto(`${baseUrl}/_dev/mailbox?to=${encodeURIComponent(email)}`);
      await page.locator('a[href*="/auth/v1/verify"]').first().click();
      await page.waitForURL(/\/auth\/confirm/);
      await page.getByText('Your email address is confirmed and you are signed in.').waitFor();
      await shot(page, 'confirm-desktop');
      await expect
        .poll(() => page.getByRole('link', { name: 'Account', exact: true }).count())
        .toBe(1);

      await page.getByRole('link', { name: 'Go to your account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Account settings' }).waitFor();
      await page.getByText('This device').waitFor();
      await page.getByLabel('Full name').fill('Ada Lovelace');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByText('Profile saved.').waitFor();
      const toggle = page.getByRole('switch', { name: 'Two-factor authentication' });
      expect(await toggle.getAttribute('aria-checked')).toBe('false');
      await toggle.click();
      const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
      await qr.waitFor();
      await expect
        .poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      const secret = (await page.getByTestId('totp-secret').innerText()).trim();
      await shot(page, 'account-enrol-desktop');
      await page
        .getByLabel('Code from the app')
        .fill('000000' === totpCode(secret) ? '111111' : '000000');
      await page.getByRole('button', { name: 'Turn on' }).click();
      await expect
        .poll(() => page.getByRole('alert').innerText())
        .toMatch(/That code is not right/);
      await page.getByLabel('Code from the app').fill(totpCode(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByText('Two-factor authentication is on.').waitFor();
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, 'account-desktop');

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/login$/);
      await page.getByText('You are signed out.').waitFor();

      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('Authentication code').waitFor();
      await shot(page, 'login-totp-desktop');
      // The enrolment used the current time step; the next one is still inside the window.
      await page.getByLabel('Authentication code').fill(totpCode(secret, 1));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/account$/);
      await page.getByText(`Signed in as ${email}`, { exact: true }).waitFor();
      await page.getByText('Two-factor code verified.').first().waitFor();
      await expect
        .poll(() => page.getByText('verified with two-factor').count())
        .toBeGreaterThan(0);
    } finally {
      await page.context().close();
    }
  });

  it('resets a forgotten password through the mailed link', async () => {
    const email = `e2e.reset.${Date.now().toString(36)}@example.com`;
    const page = await newPage('mobile');
    try {
      await signUpAndConfirmEmail(page, baseUrl, email, password);
      await page.getByText('Your email address is confirmed and you are signed in.').waitFor();
      await page.getByRole('link', { name: 'Go to your account' }).click();
      // Sign out once the page has settled (sessions listed), not while sections still load.
      await page.getByText('This device').waitFor();
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/login$/);

      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      // The sign-in form's own Email field is still there until the next page's code arrives.
      await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByText(/a reset link is on its way/).waitFor();
      await page.goto(`${baseUrl}/_dev/mailbox?to=${encodeURIComponent(email)}`);
      await page
        .locator('article', { hasText: 'Reset your Lyceum password' })
        .locator('a[href*="/auth/v1/verify"]')
        .click();
      await page.waitForURL(/\/reset-password/);
      await page.getByLabel('New password', { exact: true }).fill('my new long passphrase');
      await page.getByLabel('Repeat the new password').fill('my new long passphrase');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Save new password' }).click();
      await page.waitForURL(/\/account$/);
      await page.getByText('Your password is changed.').waitFor();
      await page.getByText('This device').waitFor();

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/login$/);
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('my new long passphrase');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/account$/);
    } finally {
      await page.context().close();
    }
  });

  it.each([
    ['/login', 'Sign in'],
    ['/signup', 'Create your account'],
    ['/forgot-password', 'Forgot your password?'],
    ['/reset-password', 'Choose a new password'],
    ['/auth/confirm', 'Confirm your email'],
    ['/account', 'Account settings'],
  ])('%s has no serious axe violations at 390 and 1280 px', async (path, heading) => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const page = await newPage(viewport);
      try {
        const response = await page.goto(baseUrl + path, { waitUntil: 'networkidle' });
        expect(response?.status()).toBe(200);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        expect(await seriousAxeViolations(page), `${path} at ${viewport}`).toEqual([]);
        await shot(page, `${path.slice(1).replace(/\//g, '-')}-${viewport}`);
      } finally {
        await page.context().close();
      }
    }
  });

  it('shows the service error for a wrong password', async () => {
    const page = await newPage('mobile');
    try {
      await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
      await page.getByLabel('Email').fill('nobody@example.com');
      await page.getByLabel('Password').fill('wrong password here');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect
        .poll(() => page.getByRole('alert').innerText())
        .toMatch(/email address or password is not right/);
    } finally {
      await page.context().close();
    }
  });
});
