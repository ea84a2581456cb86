/**
 * Billing's screens in the browser (decisions 0600–0602), with the beta gate on: a platform
 * admin creates and revokes coupons at /app/admin/coupons (others neither see the link nor the
 * list), the pricing section on /app/plans reads the tiers and their allowances with its buy
 * buttons disabled and the beta's reason beside them, and Settings shows the plan from
 * check-subscription; axe finds nothing serious at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;
let admin: Person;
let learner: Person;

beforeAll(async () => {
  app = await startAppBrowser('billing-screens', { env: { BETA_GATE: 'true' } });
  admin = await app.createUser('operator', 'Olga Operator');
  learner = await app.createUser('learner', 'Lena Learner');
  const { error } = await app.service
    .from('user_roles')
    .insert({ user_id: admin.id, role: 'admin' });
  if (error) throw new Error(`platform admin: ${error.message}`);
});
afterAll(async () => {
  await app?.close();
});

describe('billing screens', () => {
  it('lets a platform admin create and revoke a coupon', async () => {
    await app.expectNoSeriousAxeViolations(admin.email, '/app/admin/coupons', 'coupons', 'Coupons');
    const page = await app.signedInPage('desktop', admin.email, '/app/admin/coupons');
    try {
      await page
        .getByRole('navigation', { name: 'App navigation' })
        .getByRole('link', { name: 'Coupons' })
        .waitFor();
      await page.getByLabel('Code (optional)').fill('spring-cohort');
      await page.getByLabel('Tier').selectOption('pro');
      await page.getByLabel('Maximum redemptions').fill('2');
      await page.getByRole('button', { name: 'Create coupon' }).click();
      const row = page.getByRole('row').filter({ hasText: 'SPRING-COHORT' });
      await row.waitFor();
      expect(await row.innerText()).toMatch(
        /SPRING-COHORT\s+pro\s+None\s+0 of 2\s+No end\s+Active/,
      );

      await page.getByLabel('Maximum redemptions').fill('0');
      await page.getByText('A whole number from 1 to 1,000,000.').waitFor();
      expect(await page.getByRole('button', { name: 'Create coupon' }).isDisabled()).toBe(true);

      await page.getByLabel('Maximum redemptions').fill('5');
      await page.getByLabel('Code (optional)').fill('Spring-Cohort');
      await page.getByRole('button', { name: 'Create coupon' }).click();
      await expect
        .poll(() => page.getByRole('alert').first().innerText())
        .toBe('The code SPRING-COHORT is already taken.');

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Revoke SPRING-COHORT' }).click();
      await expect.poll(() => row.innerText()).toMatch(/Revoked/);
      await app.shot(page, 'coupons-after-revoke-desktop');
    } finally {
      await page.context().close();
    }
  });

  it('ties a coupon to an organization, changes it, and a sign-up joins that organization', async () => {
    const orgs: { id: string; name: string }[] = [];
    for (const name of ['Harbour College', 'Hillside Institute']) {
      const { data, error } = await app.service
        .from('organizations')
        .insert({ name, slug: `${name.toLowerCase().replace(' ', '-')}-${Date.now()}` })
        .select('id, name')
        .single();
      if (error) throw new Error(error.message);
      orgs.push(data as { id: string; name: string });
    }
    const page = await app.signedInPage('mobile', admin.email, '/app/admin/coupons');
    try {
      await page.getByLabel('Code (optional)').fill('harbour-2027');
      await page.getByLabel('Find an organization').fill('harbour');
      const picker = page.getByLabel('Organization', { exact: true });
      await expect
        .poll(() => picker.locator('option').allInnerTexts())
        .toContain('Harbour College');
      await picker.selectOption({ label: 'Harbour College' });
      await page.getByLabel('Maximum redemptions').fill('3');
      await page.getByRole('button', { name: 'Create coupon' }).click();
      const row = page.getByRole('row').filter({ hasText: 'HARBOUR-2027' });
      await expect
        .poll(() => row.innerText())
        .toMatch(/HARBOUR-2027\s+free\s+Harbour College\s+0 of 3/);

      await page.getByRole('button', { name: 'Change HARBOUR-2027' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change HARBOUR-2027' });
      await dialog.waitFor();
      await dialog.getByLabel('Find an organization').fill('hillside');
      const choice = dialog.getByLabel('Organization', { exact: true });
      await expect
        .poll(() => choice.locator('option').allInnerTexts())
        .toContain('Hillside Institute');
      await choice.selectOption({ label: 'Hillside Institute' });
      await dialog.getByLabel('Maximum redemptions').fill('4');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await app.shot(page, 'coupon-change-mobile');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect
        .poll(() => row.innerText())
        .toMatch(/HARBOUR-2027\s+free\s+Hillside Institute\s+0 of 4/);

      // Redeeming it at sign-up makes the new person a learner of that organization.
      const email = `harbour-${Date.now()}@example.com`;
      const signUp = await fetch(`${app.baseUrl}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: app.server.deps.keys.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          email,
          password: 'a long enough passphrase',
          data: { coupon: 'harbour-2027' },
        }),
      });
      expect(signUp.status).toBe(200);
      const { rows } = await app.server.deps.db.query<{ organization_id: string; role: string }>(
        `select m.organization_id, m.role from public.memberships m
           join auth.users u on u.id = m.user_id where u.email = $1`,
        [email],
      );
      expect(rows).toEqual([{ organization_id: orgs[1]!.id, role: 'learner' }]);
      await expect.poll(() => page.reload().then(() => row.innerText())).toMatch(/1 of 4/);
    } finally {
      await page.context().close();
    }
  });

  it('shows others neither the link nor the coupons', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/admin/coupons');
    try {
      await page
        .getByText('Coupons are managed by the platform’s administrators.')
        .or(page.getByText("Coupons are managed by the platform's administrators."))
        .waitFor();
      expect(
        await page
          .getByRole('navigation', { name: 'App navigation' })
          .getByRole('link', { name: 'Coupons' })
          .count(),
      ).toBe(0);
      expect(await page.getByText('SPRING-COHORT').count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('shows the tiers and their allowances, buy buttons disabled during the beta', async () => {
    await app.expectNoSeriousAxeViolations(learner.email, '/app/plans', 'plans', 'Plans');
    const page = await app.signedInPage('mobile', learner.email, '/app/plans');
    try {
      const pricing = page.getByRole('region', { name: 'Pricing' });
      await pricing.getByText('€9 a month').waitFor();
      expect(await pricing.getByText('€499 a month').count()).toBe(1);
      expect(await pricing.getByText('5,000 study coach messages a month').count()).toBe(1);
      expect(
        await pricing.getByText('20,000 study coach messages a month per member').count(),
      ).toBe(1);
      const notice = pricing.getByText(/^Lyceum is in its beta: access is by coupon only/);
      await notice.waitFor();
      const choose = pricing.getByRole('button', { name: 'Choose Pro' });
      expect(await choose.isDisabled()).toBe(true);
      const describedBy = await choose.getAttribute('aria-describedby');
      expect(await notice.getAttribute('id')).toBe(describedBy);
      await app.shot(page, 'plans-beta-mobile');
    } finally {
      await page.context().close();
    }
  });

  it('shows the plan from check-subscription on Settings', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/settings');
    try {
      const plan = page.getByRole('region', { name: 'Plan' });
      await plan.getByText('Every account has the Free plan.').waitFor();
      expect(await plan.getByText('500 study coach messages a month').count()).toBe(1);
      await app.shot(page, 'settings-plan-desktop');
    } finally {
      await page.context().close();
    }
  });
});
