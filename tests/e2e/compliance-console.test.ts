/**
 * The compliance console and the data request queue's reject dialog in a browser (issue 16,
 * decision 0420): a compliance officer verifies the audit chain, filters the audit log to one
 * table and exports it as CSV, moves an incident a step and marks an action done, and reads
 * every tab with no serious axe violation at 390 and 1280 px; an organization admin rejects a
 * request in a dialog whose reason field is labelled, refuses an empty reason and gives focus
 * back on Escape.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { password, startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations, viewports } from '../support/browser';
import { testClient } from '../support/test-server';

let app: AppBrowser;
let officer: Person;
let admin: Person;
let learner: Person;
let incidentId: string;

beforeAll(async () => {
  app = await startAppBrowser('compliance-console');
  officer = await app.createUser('console-officer', 'Cora Officer');
  admin = await app.createUser('console-admin', 'Ada Admin');
  learner = await app.createUser('console-learner', 'Lee Learner');
  const org = await app.service
    .from('organizations')
    .insert({ name: 'Console University', slug: `console-${Date.now().toString(36)}` })
    .select('id')
    .single();
  if (org.error) throw new Error(org.error.message);
  const memberships = await app.service.from('memberships').insert([
    { user_id: officer.id, organization_id: org.data.id, role: 'compliance_officer' },
    { user_id: admin.id, organization_id: org.data.id, role: 'org_admin' },
    { user_id: learner.id, organization_id: org.data.id, role: 'learner' },
  ]);
  if (memberships.error) throw new Error(memberships.error.message);
  const client = testClient(app.server, app.server.deps.keys.anonKey);
  const signIn = await client.auth.signInWithPassword({ email: learner.email, password });
  if (signIn.error) throw new Error(signIn.error.message);
  for (const type of ['access', 'objection', 'erasure']) {
    const filed = await client.rpc('create_data_subject_request', { type, details: '' });
    if (filed.error) throw new Error(filed.error.message);
  }
  const incident = await app.service
    .from('security_incidents')
    .insert({
      title: 'Suspicious bulk download',
      severity: 'critical',
      category: 'reported',
      organization_id: org.data.id,
      personal_data_involved: true,
    })
    .select('id')
    .single();
  if (incident.error) throw new Error(incident.error.message);
  incidentId = incident.data.id as string;
}, 180_000);
afterAll(async () => {
  await app?.close();
});

async function tab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await page.waitForLoadState('networkidle');
}

describe('compliance console', () => {
  it('verifies the chain, filters and exports the audit log', async () => {
    const page = await app.signedInPage('desktop', officer.email, '/app');
    try {
      await page.getByRole('link', { name: 'Compliance' }).click();
      await page.getByRole('heading', { level: 1, name: 'Compliance' }).waitFor();
      await page.getByRole('button', { name: 'Verify the chain' }).click();
      await page.getByText(/The chain is intact: [\d,]+ entries checked\./).waitFor();

      await page.getByLabel('Table', { exact: true }).fill('public.data_subject_requests');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const rows = page.getByRole('region', { name: 'Audit log entries' }).getByRole('row');
      // A header row and one insert per request the learner filed (access, objection, erasure).
      await expect.poll(() => rows.count()).toBe(4);
      expect(await rows.nth(1).textContent()).toContain('public.data_subject_requests');
      expect(await rows.nth(1).textContent()).toContain(learner.id);

      await page.getByLabel('Person (user id)').fill('not-an-id');
      await page
        .getByText('A person is named by their user id (a UUID such as 3f2b…-…).')
        .waitFor();
      expect(await page.getByRole('button', { name: 'Apply filters' }).isDisabled()).toBe(true);
      await page.getByLabel('Person (user id)').fill(learner.id);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const file = await (await download).path();
      const csv = fs.readFileSync(file, 'utf8');
      expect(csv.split('\r\n')[0]).toBe(
        '\uFEFFid,timestamp,user_id,action,table_name,record_id,changed_fields,purpose,legal_basis,ip_address,session_id,subject_user_id,organization_id',
      );
      expect(
        csv.split('\r\n').filter((line) => line.includes('public.data_subject_requests')),
      ).toHaveLength(3);
      await page.getByText('Exported the matching entries as CSV.').waitFor();
      await app.shot(page, 'audit-filtered-desktop');
    } finally {
      await page.context().close();
    }
  });

  it('moves an incident a step, marks an action done and shows the clocks', async () => {
    const page = await app.signedInPage('desktop', officer.email, '/app/compliance?tab=incidents');
    try {
      const card = page.getByRole('listitem').filter({ hasText: 'Suspicious bulk download' });
      await card.getByText(/GDPR: notify the authority within 72 hours/).waitFor();
      expect(await card.textContent()).toMatch(/\d+ d \d+ h left|\d+ h \d+ min left/);
      await card.getByRole('button', { name: 'Move to investigating' }).click();
      await card.getByRole('button', { name: 'Move to contained' }).waitFor();
      await card.getByRole('button', { name: /Mark done.*Contain/ }).click();
      await expect
        .poll(() => card.getByRole('button', { name: /Mark done.*Contain/ }).count())
        .toBe(0);
      const { data } = await app.service
        .from('security_incidents')
        .select('status, incident_response_actions(action_type, status)')
        .eq('id', incidentId)
        .single();
      expect(data?.status).toBe('investigating');
      expect(data?.incident_response_actions).toContainEqual({
        action_type: 'containment',
        status: 'done',
      });
    } finally {
      await page.context().close();
    }
  });

  it('has no serious axe violations on any tab at 390 and 1280 px', async () => {
    for (const viewport of Object.keys(viewports) as (keyof typeof viewports)[]) {
      const page = await app.signedInPage(viewport, officer.email, '/app/compliance');
      try {
        await page.getByRole('heading', { level: 1, name: 'Compliance' }).waitFor();
        for (const name of [
          'Audit log',
          'Access patterns',
          'Incidents',
          'Data requests',
          'Consent',
          'Retention',
        ]) {
          await tab(page, name);
          expect(await seriousAxeViolations(page), `${name} at ${viewport}`).toEqual([]);
          await app.shot(page, `${name.toLowerCase().replace(/ /g, '-')}-${viewport}`);
        }
      } finally {
        await page.context().close();
      }
    }
    // Twelve axe runs: on the shared two-core machine they take about a minute.
  }, 240_000);

  it('tells someone who is not an officer what the console is for', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/compliance');
    try {
      await page.getByText('The compliance console is for compliance officers').waitFor();
      expect(await page.getByRole('link', { name: 'Compliance' }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });
});

describe('fulfilling data requests', () => {
  it('prepares an export the learner downloads from their Privacy page', async () => {
    const page = await app.signedInPage('desktop', admin.email, '/app/privacy-requests');
    try {
      await page
        .getByRole('listitem')
        .filter({ hasText: 'Access' })
        .getByRole('button', { name: 'Prepare export' })
        .click();
      await page.getByText(/The export is being prepared/).waitFor();
    } finally {
      await page.context().close();
    }
    const learnerPage = await app.signedInPage('desktop', learner.email, '/app/privacy');
    try {
      const button = learnerPage.getByRole('button', { name: 'Download your data' });
      await button.waitFor({ timeout: 30_000 });
      expect(await seriousAxeViolations(learnerPage)).toEqual([]);
      await app.shot(learnerPage, 'privacy-export-ready-desktop');
      const download = learnerPage.waitForEvent('download');
      await button.click();
      const saved = await (await download).path();
      expect(fs.readFileSync(saved).subarray(0, 2).toString('latin1')).toBe('PK');
      await learnerPage
        .getByText(/Your data is ready: download it from the Privacy page/)
        .waitFor();
    } finally {
      await learnerPage.context().close();
    }
  });

  it('confirms an erasure in a dialog that starts on Cancel', async () => {
    for (const viewport of Object.keys(viewports) as (keyof typeof viewports)[]) {
      const page = await app.signedInPage(viewport, admin.email, '/app/privacy-requests');
      try {
        const open = page
          .getByRole('listitem')
          .filter({ hasText: 'Erasure' })
          .getByRole('button', { name: 'Erase account' });
        await open.click();
        const dialog = page.getByRole('dialog', { name: 'Erase this account?' });
        await dialog.waitFor();
        const cancel = dialog.getByRole('button', { name: 'Cancel' });
        await expect.poll(() => cancel.evaluate((el) => el === document.activeElement)).toBe(true);
        expect(await seriousAxeViolations(page), `erase dialog at ${viewport}`).toEqual([]);
        await app.shot(page, `erase-dialog-${viewport}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await expect.poll(() => open.evaluate((el) => el === document.activeElement)).toBe(true);
      } finally {
        await page.context().close();
      }
    }
  });
});

describe('rejecting a data request', () => {
  it('asks for the reason in a labelled dialog, refuses an empty one, and rejects', async () => {
    for (const viewport of Object.keys(viewports) as (keyof typeof viewports)[]) {
      const page = await app.signedInPage(viewport, admin.email, '/app/privacy-requests');
      try {
        const request = page.getByRole('listitem').filter({ hasText: 'Objection' });
        const reject = request.getByRole('button', { name: 'Reject' });
        await reject.click();
        const dialog = page.getByRole('dialog', { name: 'Reject the objection request' });
        await dialog.waitFor();
        const reason = dialog.getByLabel('Reason for rejecting');
        await expect.poll(() => reason.evaluate((el) => el === document.activeElement)).toBe(true);
        expect(await seriousAxeViolations(page), `dialog at ${viewport}`).toEqual([]);
        await app.shot(page, `reject-dialog-${viewport}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await expect.poll(() => reject.evaluate((el) => el === document.activeElement)).toBe(true);
      } finally {
        await page.context().close();
      }
    }

    const page = await app.signedInPage('desktop', admin.email, '/app/privacy-requests');
    try {
      await page
        .getByRole('listitem')
        .filter({ hasText: 'Objection' })
        .getByRole('button', { name: 'Reject' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Reject the objection request' });
      await dialog.getByRole('button', { name: 'Reject request' }).click();
      await dialog.getByText('Say why the request is rejected: the person is told.').waitFor();
      expect(await dialog.getByLabel('Reason for rejecting').getAttribute('aria-invalid')).toBe(
        'true',
      );
      await dialog.getByLabel('Reason for rejecting').fill('We hold no marketing data about you.');
      await dialog.getByRole('button', { name: 'Reject request' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Request updated.').waitFor();
      const { data } = await app.service
        .from('data_subject_requests')
        .select('status, resolution')
        .eq('user_id', learner.id)
        .eq('request_type', 'objection')
        .single();
      expect(data).toEqual({
        status: 'rejected',
        resolution: 'We hold no marketing data about you.',
      });
    } finally {
      await page.context().close();
    }
  });
});
