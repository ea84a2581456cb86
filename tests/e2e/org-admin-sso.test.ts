/**
 * The organization admin's Single sign-on screen in headless Chromium against the built app,
 * with samlify as the IdP on loopback: the admin registers the IdP from its metadata URL with a
 * domain (a bad domain refused with its reason), edits it and removes it after a confirmation.
 * Axe at 390 and 1280 px (screenshots in SCREENSHOTS_DIR/org-admin-sso when set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';
import { startSamlIdp, type SamlIdp } from '../support/saml-idp';

let app: AppBrowser;
let idp: SamlIdp;
let admin: Person;
const domain = `campus-${Date.now().toString(36)}.example`;

beforeAll(async () => {
  idp = await startSamlIdp({ name: 'Browser test IdP' });
  await idp.warmUp();
  app = await startAppBrowser('org-admin-sso', {
    env: { SAML_METADATA_ALLOWED_TARGETS: new URL(idp.url).host },
  });
  admin = await app.createUser('admin', 'Ada Admin');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Single Sign-On University',
    slug: `sso-${Date.now().toString(36)}`,
  });
  await insertRow(app.service, 'memberships', {
    user_id: admin.id,
    organization_id: org.id,
    role: 'org_admin',
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await idp?.close();
});

describe('single sign-on', () => {
  it('is registered and edited on the org admin’s screen, which passes axe at both widths', async () => {
    const page = await app.signedInPage('desktop', admin.email, '/app/org/sso');
    try {
      await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
      await page.getByText(`${app.baseUrl}/auth/v1/sso/saml/acs`).waitFor();
      await page.getByRole('button', { name: 'Add an identity provider' }).click();
      await page.getByRole('button', { name: 'Register the provider' }).click();
      await page
        .getByText('Enter the URL of your identity provider’s metadata, or paste the metadata.')
        .waitFor();
      await page.getByLabel('Metadata URL').fill(idp.metadataUrl);
      await page.getByLabel('Email domains').fill(`${domain}, bad_domain`);
      await page.getByRole('button', { name: 'Register the provider' }).click();
      await page
        .getByText('"bad_domain" is not a domain name such as university.example')
        .waitFor();
      await page.getByLabel('Email domains').fill(domain);
      await page.getByRole('button', { name: 'Register the provider' }).click();
      const item = page.getByRole('listitem').filter({ hasText: idp.entityId });
      await item.getByText(domain, { exact: true }).waitFor();
      await app.shot(page, 'registered');
      expect(await seriousAxeViolations(page)).toEqual([]);

      await item.getByRole('button', { name: `Edit ${idp.entityId}` }).click();
      await item.getByLabel('Email domains').fill(`${domain}, staff.${domain}`);
      await item.getByRole('button', { name: 'Save changes' }).click();
      await item.getByText(`staff.${domain}`, { exact: true }).waitFor();
    } finally {
      await page.context().close();
    }
    await app.expectNoSeriousAxeViolations(admin.email, '/app/org/sso', 'sso', 'Single sign-on');
  });

  it('is removed on the screen after a confirmation', async () => {
    const page = await app.signedInPage('mobile', admin.email, '/app/org/sso');
    try {
      await page.getByRole('button', { name: `Remove ${idp.entityId}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove this identity provider?' });
      await dialog.waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Remove the provider' }).click();
      await page.getByText('No identity provider is registered').waitFor();
      await app.shot(page, 'removed');
    } finally {
      await page.context().close();
    }
  });
});
