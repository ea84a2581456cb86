/**
 * Legal holds in the compliance console (issue 16, decision 0423): a platform admin places a
 * hold on a person by email with a reason (an empty reason is refused under its field),
 * releases it with a reason, both audited, and the tab has no serious axe violation at 390 and
 * 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations, viewports } from '../support/browser';

let app: AppBrowser;
let platformAdmin: Person;
let person: Person;

beforeAll(async () => {
  app = await startAppBrowser('legal-holds');
  platformAdmin = await app.createUser('holds-platform', 'Pat Platform');
  person = await app.createUser('holds-person', 'Hal Held');
  await app.server.deps.db.query(
    "insert into public.user_roles (user_id, role) values ($1, 'admin')",
    [platformAdmin.id],
  );
}, 180_000);
afterAll(async () => {
  await app?.close();
});

describe('legal holds', () => {
  it('places and releases a hold with reasons', async () => {
    const page = await app.signedInPage(
      'desktop',
      platformAdmin.email,
      '/app/compliance?tab=holds',
    );
    try {
      await page.getByRole('tab', { name: 'Legal holds' }).waitFor();
      await page.getByLabel('Person (email or user id)').fill(person.email);
      await page.getByRole('button', { name: 'Place hold' }).click();
      await page.getByText('Say why the data must be kept (at least 3 characters).').waitFor();
      await page.getByLabel('Reason for the hold').fill('Grade appeal before the board');
      await page.getByRole('button', { name: 'Place hold' }).click();
      const hold = page.getByRole('list', { name: 'Legal holds' }).getByRole('listitem');
      await hold.getByText('Active', { exact: true }).waitFor();
      expect(await hold.textContent()).toContain('Grade appeal before the board');
      expect(await hold.textContent()).toContain(platformAdmin.email);
      await app.shot(page, 'legal-hold-active-desktop');

      await hold
        .getByLabel(`Reason for releasing the hold on ${person.email}`)
        .fill('Appeal decided');
      await hold.getByRole('button', { name: 'Release hold' }).click();
      await hold.getByText('Released', { exact: true }).waitFor();
      expect(await hold.textContent()).toContain('Appeal decided');
    } finally {
      await page.context().close();
    }
    const { rows } = await app.server.deps.db.query<{ action: string; user_id: string }>(
      `select action, user_id from public.audit_log
        where table_name = 'privacy.legal_holds' and subject_user_id = $1 order by id`,
      [person.id],
    );
    expect(rows).toEqual([
      { action: 'insert', user_id: platformAdmin.id },
      { action: 'update', user_id: platformAdmin.id },
    ]);
  });

  it('has no serious axe violations at 390 and 1280 px', async () => {
    for (const viewport of Object.keys(viewports) as (keyof typeof viewports)[]) {
      const page = await app.signedInPage(
        viewport,
        platformAdmin.email,
        '/app/compliance?tab=holds',
      );
      try {
        await page.getByRole('list', { name: 'Legal holds' }).waitFor();
        expect(await seriousAxeViolations(page), `legal holds at ${viewport}`).toEqual([]);
        await app.shot(page, `legal-holds-${viewport}`);
      } finally {
        await page.context().close();
      }
    }
  }, 120_000);
});
