/**
 * The beta gate in the browser (decision 0601): with BETA_GATE on, the sign-up form asks for
 * the coupon, refuses a wrong or used-up one with the server's sentence, and admits a right one
 * typed in lower case; axe finds nothing serious at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { password, startAppBrowser, type AppBrowser } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;

beforeAll(async () => {
  app = await startAppBrowser('billing-gate', {
    env: { BETA_GATE: 'true', MAILER_AUTOCONFIRM: 'true' },
  });
  const { error } = await app.service.rpc('create_coupon', {
    p_tier: 'free',
    p_max_redemptions: 1,
    p_code: 'BETA-E2E-1',
  });
  if (error) throw new Error(`create_coupon: ${error.message}`);
});
afterAll(async () => {
  await app?.close();
});

describe('sign-up behind the beta gate', () => {
  it('asks for the coupon at both widths, with nothing serious for axe', async () => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const page = await app.newPage(viewport);
      try {
        await page.goto(`${app.baseUrl}/signup`, { waitUntil: 'networkidle' });
        await page
          .getByText('Lyceum is in its beta: joining needs the coupon code you were given.')
          .waitFor();
        const coupon = page.getByLabel('Coupon code');
        expect(await coupon.getAttribute('required')).not.toBeNull();
        await page.getByLabel('Email').fill('someone@example.com');
        await page.getByLabel('Password').fill(password);
        // Without a coupon the form cannot be sent.
        expect(await page.getByRole('button', { name: 'Create account' }).isDisabled()).toBe(true);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await app.shot(page, `signup-gate-${viewport}`);
      } finally {
        await page.context().close();
      }
    }
  });

  it('refuses a wrong coupon saying so, admits the right one, then refuses it used up', async () => {
    const page = await app.newPage('desktop');
    try {
      await page.goto(`${app.baseUrl}/signup`, { waitUntil: 'networkidle' });
      await page.getByLabel('Email').fill(`gate.${Date.now().toString(36)}@example.com`);
      await page.getByLabel('Password').fill(password);
      await page.getByLabel('Coupon code').fill('beta-e2e-2');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect
        .poll(() => page.getByRole('alert').innerText())
        .toBe(
          'The coupon BETA-E2E-2 does not exist. Check the code you were given (letters, digits and hyphens; upper or lower case).',
        );
      await app.shot(page, 'signup-gate-refused');

      await page.getByLabel('Coupon code').fill('beta-e2e-1');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(`${app.baseUrl}/account`);
    } finally {
      await page.context().close();
    }

    const second = await app.newPage('mobile');
    try {
      await second.goto(`${app.baseUrl}/signup?coupon=BETA-E2E-1`, { waitUntil: 'networkidle' });
      expect(await second.getByLabel('Coupon code').inputValue()).toBe('BETA-E2E-1');
      await second.getByLabel('Email').fill(`late.${Date.now().toString(36)}@example.com`);
      await second.getByLabel('Password').fill(password);
      await second.getByRole('button', { name: 'Create account' }).click();
      await expect
        .poll(() => second.getByRole('alert').innerText())
        .toBe(
          'The coupon BETA-E2E-1 has been used the most times it allows (1). Ask whoever gave it to you for a new one.',
        );
    } finally {
      await second.context().close();
    }
  });
});
