/**
 * The org admin's API keys and the API reference in headless Chromium against the built app:
 * a key created on the screen is shown once, works against the API, and is refused once it is
 * revoked on the screen; axe at 390 and 1280 px (screenshots in SCREENSHOTS_DIR/org-admin-api-keys
 * when set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;
let admin: { id: string; email: string };
let learner: { id: string; email: string };

beforeAll(async () => {
  app = await startAppBrowser('org-admin-api-keys');
  const owner = await app.createUser('owner', 'Olga Owner');
  admin = await app.createUser('admin', 'Adam Admin');
  learner = await app.createUser('learner', 'Lena Learner');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Keys Test University',
    slug: `keys-${Date.now().toString(36)}`,
    owner_id: owner.id,
  });
  for (const [person, role] of [
    [admin, 'org_admin'],
    [learner, 'learner'],
  ] as const)
    await insertRow(app.service, 'memberships', {
      user_id: person.id,
      organization_id: org.id,
      role,
    });
}, 180_000);

afterAll(() => app?.close());

async function listProfiles(key: string): Promise<Response> {
  return fetch(`${app.baseUrl}/rest/v1/profiles?select=id`, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  });
}

describe('the org admin’s API keys', () => {
  it('creates a key shown once, which works until it is revoked on the screen', async () => {
    const page = await app.signedInPage('desktop', admin.email, '/app/org/api-keys');
    try {
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      await page.getByText('No key is in use.').waitFor();

      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByText('Name the key, for example "Registrar sync".').waitFor();

      await page.getByLabel('Key name').fill('Registrar sync');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secretField = page.getByLabel('The key');
      await secretField.waitFor();
      const secret = await secretField.inputValue();
      expect(secret.split('.')).toHaveLength(3);
      await app.shot(page, 'key-shown-once');
      expect(await seriousAxeViolations(page)).toEqual([]);

      const answer = await listProfiles(secret);
      expect(answer.status).toBe(200);
      const ids = ((await answer.json()) as { id: string }[]).map((row) => row.id);
      expect(ids).toContain(learner.id);

      await page.getByRole('button', { name: 'I have stored it' }).click();
      await expect.poll(() => page.getByLabel('The key').count()).toBe(0);
      const item = page.getByRole('listitem').filter({ hasText: 'Registrar sync' });
      await item.getByText('In use').waitFor();
      await expect(item.textContent()).resolves.toContain(`…${secret.slice(-6)}`);
      // Shown once: a reload lists the key without its secret.
      await page.reload({ waitUntil: 'networkidle' });
      await page.getByRole('listitem').filter({ hasText: 'Registrar sync' }).waitFor();
      await expect(page.content()).resolves.not.toContain(secret);

      await page
        .getByRole('listitem')
        .filter({ hasText: 'Registrar sync' })
        .getByRole('button', { name: 'Revoke Registrar sync' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Revoke Registrar sync?' });
      await dialog.waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Revoke the key' }).click();
      await page
        .getByText('Registrar sync is revoked: requests with it are refused from now on.')
        .waitFor();
      await page.getByRole('heading', { name: 'Revoked keys' }).waitFor();
      await app.shot(page, 'key-revoked');

      expect((await listProfiles(secret)).status).toBe(401);
    } finally {
      await page.context().close();
    }
  });

  it('passes axe on the key screen at both widths', async () => {
    await app.expectNoSeriousAxeViolations(admin.email, '/app/org/api-keys', 'keys', 'API keys');
  });

  it('links to the API reference, which opens as a page of its own', async () => {
    const page = await app.signedInPage('mobile', admin.email, '/app/org/api-keys');
    try {
      await page.getByRole('link', { name: 'API reference' }).click();
      await page.getByRole('heading', { level: 1, name: 'Lyceum public API reference' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/api/reference');
    } finally {
      await page.context().close();
    }
  });

  it('tells a learner the screen is the administrators’', async () => {
    const page = await app.signedInPage('mobile', learner.email, '/app/org/api-keys');
    try {
      await page.getByText('This screen belongs to an organization’s administrators.').waitFor();
    } finally {
      await page.context().close();
    }
  });
});
