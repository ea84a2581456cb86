/** Helpers the account-screen browser tests share. */
import fs from 'node:fs';
import * as OTPAuth from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { viewports } from './browser';

const shotsDir = process.env.AUTH_SCREENSHOTS_DIR;

/** A page in a fresh context at one of the two widths we check, motion reduced. */
export async function newPage(browser: Browser, viewport: keyof typeof viewports): Promise<Page> {
  const context = await browser.newContext({
    viewport: viewports[viewport],
    reducedMotion: 'reduce',
  });
  return context.newPage();
}

/** Saves a full-page screenshot when AUTH_SCREENSHOTS_DIR is set (for looking, not asserting). */
export async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: `${shotsDir}/${name}.png`, fullPage: true });
}

export function totpCode(secret: string, stepOffset = 0): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + stepOffset * 30_000,
  });
}
