/**
 * IEP documents and the HIPAA access log in a browser (issue 16, decision 0422): an
 * organization admin chooses a learner, states a reason (refused when too short), stores a
 * document and opens it; the learner's instructor lists and opens it but may not store; the
 * compliance officer reads each access with its reason in the console's HIPAA tab and checks
 * the log; every screen has no serious axe violation at 390 and 1280 px.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations, viewports } from '../support/browser';

let app: AppBrowser;
let admin: Person;
let instructor: Person;
let learner: Person;
let officer: Person;
let upload: string;
const content = 'IEP 2026: extra time 25%, a quiet room for exams.\n';
const reason = 'Preparing exam accommodations for the spring term';

beforeAll(async () => {
  app = await startAppBrowser('iep-documents');
  admin = await app.createUser('iep-admin', 'Ada Admin');
  instructor = await app.createUser('iep-teacher', 'Tess Teacher');
  learner = await app.createUser('iep-learner', 'Lena Learner');
  officer = await app.createUser('iep-officer', 'Olive Officer');
  const org = await app.service
    .from('organizations')
    .insert({ name: 'IEP University', slug: `iep-${Date.now().toString(36)}` })
    .select('id')
    .single();
  if (org.error) throw new Error(org.error.message);
  const memberships = await app.service.from('memberships').insert([
    { user_id: admin.id, organization_id: org.data.id, role: 'org_admin' },
    { user_id: instructor.id, organization_id: org.data.id, role: 'instructor' },
    { user_id: learner.id, organization_id: org.data.id, role: 'learner' },
    { user_id: officer.id, organization_id: org.data.id, role: 'compliance_officer' },
  ]);
  if (memberships.error) throw new Error(memberships.error.message);
  const course = await app.service
    .from('courses')
    .insert({ organization_id: org.data.id, title: 'Biology 101' })
    .select('id')
    .single();
  if (course.error) throw new Error(course.error.message);
  for (const [table, row] of [
    ['course_instructors', { course_id: course.data.id, user_id: instructor.id }],
    ['enrollments', { course_id: course.data.id, user_id: learner.id }],
  ] as const) {
    const { error } = await app.service.from(table).insert(row);
    if (error) throw new Error(`${table}: ${error.message}`);
  }
  upload = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'iep-upload-')), 'iep-2026.txt');
  fs.writeFileSync(upload, content);
}, 180_000);
afterAll(async () => {
  await app?.close();
});

describe('IEP documents', () => {
  it('lets an admin store and open a learner’s document with a stated reason', async () => {
    const page = await app.signedInPage('desktop', admin.email, '/app');
    try {
      await page.getByRole('link', { name: 'IEP documents' }).click();
      await page.getByRole('heading', { level: 1, name: 'IEP documents' }).waitFor();
      await page
        .getByLabel('Learner', { exact: true })
        .selectOption({ label: `Lena Learner (${learner.email})` });
      await page.getByLabel('Reason for access').fill('why');
      await page.getByRole('button', { name: 'Show documents' }).click();
      await page.getByText(/Say why you need this learner's documents/).waitFor();
      expect(await page.getByLabel('Reason for access').getAttribute('aria-invalid')).toBe('true');

      await page.getByLabel('Reason for access').fill(reason);
      await page.getByRole('button', { name: 'Show documents' }).click();
      await page.getByText('No IEP documents are stored for this learner.').waitFor();
      await page.getByLabel('Title').fill('IEP 2026–27');
      await page.getByLabel('File').setInputFiles(upload);
      await page.getByRole('button', { name: 'Store document' }).click();
      await page.getByText('Document stored.').waitFor();
      const open = page.getByRole('button', { name: 'Open IEP 2026–27' });
      await open.waitFor();
      const download = page.waitForEvent('download');
      await open.click();
      const saved = await (await download).path();
      expect(fs.readFileSync(saved, 'utf8')).toBe(content);
      await app.shot(page, 'iep-admin-desktop');
    } finally {
      await page.context().close();
    }
    const { data } = await app.service
      .from('hipaa_audit_log')
      .select('user_id, action, purpose, roles')
      .order('id');
    expect(data).toEqual([
      { user_id: admin.id, action: 'list', purpose: reason, roles: ['org_admin'] },
      { user_id: admin.id, action: 'upload', purpose: reason, roles: ['org_admin'] },
      { user_id: admin.id, action: 'list', purpose: reason, roles: ['org_admin'] },
      { user_id: admin.id, action: 'view', purpose: reason, roles: ['org_admin'] },
    ]);
  });

  it('lets the learner’s instructor open it but not store one', async () => {
    const page = await app.signedInPage('mobile', instructor.email, '/app/iep');
    try {
      await page
        .getByLabel('Learner', { exact: true })
        .selectOption({ label: `Lena Learner (${learner.email})` });
      await page.getByLabel('Reason for access').fill('Adjusting the lab schedule to the plan');
      await page.getByRole('button', { name: 'Show documents' }).click();
      const open = page.getByRole('button', { name: 'Open IEP 2026–27' });
      await open.waitFor();
      expect(await page.getByRole('button', { name: 'Store document' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      const download = page.waitForEvent('download');
      await open.click();
      expect(fs.readFileSync(await (await download).path(), 'utf8')).toBe(content);
    } finally {
      await page.context().close();
    }
  });

  it('tells a learner the screen is not theirs', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/iep');
    try {
      await page.getByText(/IEP documents are for a learner's instructors/).waitFor();
      expect(await page.getByRole('link', { name: 'IEP documents' }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('shows the compliance officer every access with its reason, and the log checks out', async () => {
    const page = await app.signedInPage('desktop', officer.email, '/app/compliance?tab=hipaa');
    try {
      const rows = page.getByRole('region', { name: 'HIPAA access log entries' }).getByRole('row');
      // A header row, the admin's four accesses and the instructor's list and view.
      await expect.poll(() => rows.count()).toBe(7);
      expect(await rows.nth(1).textContent()).toContain('Opened');
      expect(await rows.nth(1).textContent()).toContain('Adjusting the lab schedule to the plan');
      expect(await rows.nth(1).textContent()).toContain(instructor.id);
      expect(await rows.nth(1).textContent()).toContain(learner.id);
      await page.getByRole('button', { name: 'Check the HIPAA log' }).click();
      await page
        .getByText('The HIPAA log is whole: 6 entries match their audit chain entries.')
        .waitFor();
      // Identifiers only: the officer never sees the document's title or content.
      expect(await page.getByText('IEP 2026–27').count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('has no serious axe violations at 390 and 1280 px', async () => {
    for (const viewport of Object.keys(viewports) as (keyof typeof viewports)[]) {
      const page = await app.signedInPage(viewport, admin.email, '/app/iep');
      try {
        await page
          .getByLabel('Learner', { exact: true })
          .selectOption({ label: `Lena Learner (${learner.email})` });
        await page.getByLabel('Reason for access').fill(reason);
        await page.getByRole('button', { name: 'Show documents' }).click();
        await page.getByRole('button', { name: 'Open IEP 2026–27' }).waitFor();
        expect(await seriousAxeViolations(page), `IEP page at ${viewport}`).toEqual([]);
        await app.shot(page, `iep-page-${viewport}`);
        await page.getByRole('button', { name: 'Delete IEP 2026–27' }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete “IEP 2026–27”?' });
        await dialog.waitFor();
        expect(await seriousAxeViolations(page), `delete dialog at ${viewport}`).toEqual([]);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      } finally {
        await page.context().close();
      }
      const console = await app.signedInPage(viewport, officer.email, '/app/compliance?tab=hipaa');
      try {
        await console.getByRole('region', { name: 'HIPAA access log entries' }).waitFor();
        expect(await seriousAxeViolations(console), `HIPAA tab at ${viewport}`).toEqual([]);
        await app.shot(console, `hipaa-tab-${viewport}`);
      } finally {
        await console.context().close();
      }
    }
  }, 240_000);
});
