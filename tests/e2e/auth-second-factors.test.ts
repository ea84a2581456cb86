/**
 * Text-message codes and security keys in the browser (decision 0055, 0058): account settings
 * refuses a malformed number with what to type, adds a number by the code texted to it (the
 * dev mailbox holds the SMS here, read as the integration tests read it) and a security key
 * (Chromium's CDP virtual authenticator); the next sign-ins ask for the key after the password,
 * or a texted code when chosen; both are then removed. The first step verified, whichever it
 * is, comes with recovery codes shown once (decision 0063); a security-key-only account signs in
 * with one of them. Served on "localhost" (WebAuthn refuses
 * IP addresses) by its own server with AUTH_MFA_PHONE_ENROLL and AUTH_MFA_WEBAUTHN_ENROLL on;
 * the shared server, with both off, shows neither section (auth-passkeys.test.ts checks).
 */
import type { Browser, Page } from 'playwright-core';
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
  server = await startOwnAppServer('second-factors', {
    AUTH_MFA_PHONE_ENROLL: 'true',
    AUTH_MFA_PHONE_MAX_FREQUENCY_SECONDS: '0',
    AUTH_MFA_WEBAUTHN_ENROLL: 'true',
  });
  baseUrl = server.url.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The code in the latest text to `phone` (E.164), from the dev mailbox the SMS sender fills. */
async function textedCode(phone: string): Promise<string> {
  const { rows } = await server.deps.db.query<{ text_body: string }>(
    'select text_body from auth.dev_mailbox where to_address = $1 order by id desc limit 1',
    [phone],
  );
  expect(rows[0], `a text to ${phone}`).toBeDefined();
  return /code is (\d{6})/.exec(rows[0]!.text_body)![1]!;
}

async function signInWithPassword(page: Page, email: string) {
  await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe.each(['mobile', 'desktop'] as const)('second factors at %s', (viewport) => {
  it('adds a number and a security key, signs in with each, and removes them', async () => {
    const stamp = Date.now().toString(36);
    const email = `e2e.factors.${viewport}.${stamp}@example.com`;
    const digits = `${Date.now() % 100_000}`.padStart(5, '0');
    const phone = `+4477009${viewport === 'mobile' ? '1' : '2'}${digits}`;
    const page = await openPage(browser, viewport);
    await withVirtualAuthenticator(page, 'usb');
    try {
      await signUpAndConfirmEmail(page, baseUrl, email, password);
      await page.getByRole('link', { name: 'Go to your account' }).click();

      // A number without its country code is refused before anything is texted.
      const texts = page.getByRole('region', { name: 'Text message codes' });
      await texts.getByText('You have no phone numbers for sign-in codes yet.').waitFor();
      const number = texts.getByLabel('Mobile number');
      await number.fill('07700 900123');
      await texts.getByRole('button', { name: 'Text me a code' }).click();
      await texts.getByText(/^Start with \+ and your country code/).waitFor();
      expect(await number.getAttribute('aria-invalid')).toBe('true');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `phone-factor-error-${viewport}`);

      await number.fill(`${phone.slice(0, 3)} ${phone.slice(3, 7)} ${phone.slice(7)}`);
      await texts.getByRole('button', { name: 'Text me a code' }).click();
      const codeField = texts.getByLabel('Code from the text message');
      await codeField.waitFor();
      await texts.getByText(`We texted a code to ${phone}.`).waitFor();
      // A wrong code is refused and the number is not added.
      const code = await textedCode(phone);
      await codeField.fill(code === '000000' ? '111111' : '000000');
      await texts.getByRole('button', { name: 'Verify number' }).click();
      await texts
        .getByText('That code is not right. Enter the code from the latest text message.')
        .waitFor();
      await codeField.fill(code);
      await texts.getByRole('button', { name: 'Verify number' }).click();
      await texts.getByText(`Text message codes are on for ${phone}.`, { exact: false }).waitFor();
      await texts.getByRole('list', { name: 'Your phone numbers' }).getByText(phone).waitFor();
      // The number is the first second step, so it comes with recovery codes, shown once.
      const recovery = page.getByRole('region', { name: 'recovery codes' });
      await expect
        .poll(() => recovery.getByTestId('recovery-codes').locator('li').count())
        .toBe(10);
      await recovery.getByRole('button', { name: 'I have saved them' }).click();
      await recovery.getByText('10 of 10 recovery codes left.').waitFor();

      const keys = page.getByRole('region', { name: 'Security keys' });
      await keys.getByText('You have no security keys yet.').waitFor();
      await keys.getByRole('button', { name: 'Add a security key' }).click();
      await keys.getByText('Security key added.', { exact: false }).waitFor();
      await keys
        .getByRole('list', { name: 'Your security keys' })
        .getByText('Security key 1')
        .waitFor();
      // The account already has its codes: a second step adds none.
      await recovery.getByText('10 of 10 recovery codes left.').waitFor();
      expect(await recovery.getByTestId('recovery-codes').count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `second-factors-${viewport}`);

      // The next sign-in asks for the key after the password.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await signInWithPassword(page, email);
      const useKey = page.getByRole('button', { name: 'Use your security key' });
      await useKey.waitFor();
      await page.getByRole('button', { name: 'Get a code by text message instead' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `login-security-key-${viewport}`);
      await useKey.click();
      await page.waitForURL(`${baseUrl}/account`);
      await page.getByText(`Signed in as ${email}`).first().waitFor();

      // Or a texted code, when chosen.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await signInWithPassword(page, email);
      await page.getByRole('button', { name: 'Get a code by text message instead' }).click();
      const ending = phone.slice(-4);
      await page
        .getByRole('button', { name: `Text a code to the number ending in ${ending}` })
        .click();
      const signInCode = page.getByLabel('Code from the text message');
      await signInCode.waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `login-text-code-${viewport}`);
      await signInCode.fill(await textedCode(phone));
      await page.getByRole('button', { name: 'Verify', exact: true }).click();
      await page.waitForURL(`${baseUrl}/account`);

      // At aal2 both are removed; signing in then needs only the password.
      await keys.getByRole('button', { name: 'Remove Security key 1' }).click();
      await keys.getByText('You have no security keys yet.').waitFor();
      await texts.getByRole('button', { name: `Remove ${phone}` }).click();
      await texts.getByText('You have no phone numbers for sign-in codes yet.').waitFor();
      // With the last second step the codes go too, and so does their panel.
      await recovery.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await signInWithPassword(page, email);
      await page.waitForURL(`${baseUrl}/account`);
    } finally {
      await page.context().close();
    }
  });

  it('gives a security-key-only account recovery codes once, and signs it in with one', async () => {
    const email = `e2e.keycodes.${viewport}.${Date.now().toString(36)}@example.com`;
    const page = await openPage(browser, viewport);
    await withVirtualAuthenticator(page, 'usb');
    try {
      await signUpAndConfirmEmail(page, baseUrl, email, password);
      await page.getByRole('link', { name: 'Go to your account' }).click();

      // No second step yet: no recovery codes panel.
      const keys = page.getByRole('region', { name: 'Security keys' });
      await keys.getByText('You have no security keys yet.').waitFor();
      const recovery = page.getByRole('region', { name: 'recovery codes' });
      expect(await recovery.count()).toBe(0);

      await keys.getByRole('button', { name: 'Add a security key' }).click();
      await keys.getByText('Security key added.', { exact: false }).waitFor();
      const list = recovery.getByTestId('recovery-codes');
      await expect.poll(() => list.locator('li').count()).toBe(10);
      const codes = (await list.locator('li').allInnerTexts()).map((c) => c.trim());
      for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
      await recovery.getByText(/lose your second step/).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `security-key-recovery-codes-${viewport}`);
      await recovery.getByRole('button', { name: 'I have saved them' }).click();
      await recovery.getByText('10 of 10 recovery codes left.').waitFor();
      // Shown once: a reload shows how many are left, never the codes.
      await page.reload({ waitUntil: 'networkidle' });
      await recovery.getByText('10 of 10 recovery codes left.').waitFor();
      expect(await list.count()).toBe(0);

      // The second step offers a recovery code instead of the key.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await signInWithPassword(page, email);
      await page.getByRole('button', { name: 'Use your security key' }).waitFor();
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(codes[3]!);
      await page.getByRole('button', { name: 'Use recovery code' }).click();
      await page.waitForURL(`${baseUrl}/account`);
      await recovery.getByText('9 of 10 recovery codes left.').waitFor();

      // An account whose key predates codes for every step creates them in the same panel.
      await server.deps.db.query(
        `delete from auth.mfa_factors where factor_type = 'recovery_code'
         and user_id = (select id from auth.users where email = $1)`,
        [email],
      );
      await page.reload({ waitUntil: 'networkidle' });
      await recovery.getByText('You have no recovery codes.', { exact: false }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `recovery-codes-none-${viewport}`);
      await recovery.getByRole('button', { name: 'Create recovery codes' }).click();
      await expect.poll(() => list.locator('li').count()).toBe(10);
      await recovery.getByRole('button', { name: 'I have saved them' }).click();
      await recovery.getByText('10 of 10 recovery codes left.').waitFor();

      // Removing the only key removes the codes and their panel.
      await keys.getByRole('button', { name: 'Remove Security key 1' }).click();
      await keys.getByText('You have no security keys yet.').waitFor();
      await recovery.waitFor({ state: 'detached' });
    } finally {
      await page.context().close();
    }
  });
});
