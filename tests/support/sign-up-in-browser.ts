/**
 * Creating an account the way a visitor does, in the browser: the sign-up form, then the
 * confirmation link from the development mailbox (`/_dev/mailbox`). Resolves once the
 * confirmation page has been opened; what it shows next is the caller's to check.
 */
import type { Page } from 'playwright-core';

export async function signUpAndConfirmEmail(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/signup`, { waitUntil: 'networkidle' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
  await page.goto(`${baseUrl}/_dev/mailbox?to=${encodeURIComponent(email)}`);
  await page.locator('a[href*="/auth/v1/verify"]').first().click();
}
