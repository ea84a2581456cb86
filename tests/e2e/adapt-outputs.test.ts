/**
 * LE Adapt's output screens in headless Chromium against the built app, by keyboard: an
 * organization's Admin adds the webhook endpoint (its secret shown once), chooses its events,
 * sends a test that the loopback receiver refuses and redelivers it from the log; on an
 * approved job prepares the exports, downloads one, publishes the lesson into a course and
 * sends it to the learning system, each delivery appearing in the job's log. axe at 390 and
 * 1280 px on the webhook settings and the job's outputs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccessible } from '../../src/server/adapt/accessible/accessible-stage';
import { adaptTestLesson } from '../../src/server/adapt/adapt-test-lesson';
import type { ReviewedLesson } from '../../src/server/adapt/lesson';
import { verifyWebhook } from '../../src/server/adapt/webhooks/signature';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { insertRow } from '../support/service-rows';

interface Received {
  event: string;
  body: string;
  timestamp: number;
  signature: string;
}

let app: AppBrowser;
let admin: Person;
let instructor: Person;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
/** Status codes the receiver answers with, in turn; 200 once they run out. */
const answers: number[] = [];
let jobId: string;

async function press(page: Page, name: string | RegExp, key = 'Enter') {
  await page.getByRole('button', { name }).focus();
  await page.keyboard.press(key);
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({
        event: String(req.headers['x-lyceum-event']),
        body,
        timestamp: Number(req.headers['x-lyceum-timestamp']),
        signature: String(req.headers['x-lyceum-signature']),
      });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/lms/hooks`;
  app = await startAppBrowser('adapt-outputs', {
    env: { ADAPT_WEBHOOK_ALLOWED_TARGETS: '127.0.0.1' },
  });
  admin = await app.createUser('adapt-admin', 'Ada Admin');
  instructor = await app.createUser('adapt-instructor', 'Ivo Instructor');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Adapt University',
    slug: `adapt-${Date.now().toString(36)}`,
  });
  const memberships = await app.service.from('memberships').insert([
    { user_id: admin.id, organization_id: org.id, role: 'org_admin' },
    { user_id: instructor.id, organization_id: org.id, role: 'instructor' },
  ]);
  if (memberships.error) throw new Error(memberships.error.message);
  await insertRow(app.service, 'courses', {
    title: 'Plant biology',
    organization_id: org.id,
  });
  // A job the pipeline finished and the Admin approved (the pipeline's own browser test runs
  // the stages; this one starts where it ends).
  const structured = adaptTestLesson();
  const { lesson } = await makeAccessible(
    structured,
    { profile: 'dyslexia', targetGrade: 8, translateTo: null },
    { ai: null },
  );
  const reviewed: ReviewedLesson = {
    lesson,
    findings: [],
    fidelity: { passed: true, facts: [], lost: [] },
  };
  const db = app.server.deps.db;
  const { rows } = await db.query<{ id: string }>(
    `insert into public.adapt_jobs (owner_id, organization_id, title, source_format, source_name,
                                    learner_profile, status, approved_by, approved_at)
     values ($1, $2, 'Photosynthesis', 'txt', 'photosynthesis.txt', 'dyslexia', 'done', $3, now())
     returning id`,
    [instructor.id, org.id, admin.id],
  );
  jobId = rows[0]!.id;
  for (const [stage, name, output] of [
    [1, 'extract', { text: 'Photosynthesis', units: [] }],
    [2, 'structure', structured],
    [3, 'accessible', lesson],
    [4, 'review', reviewed],
  ] as const) {
    await db.query(
      `insert into public.adapt_job_stages (job_id, stage, name, status, output)
       values ($1, $2, $3, 'done', $4::jsonb)`,
      [jobId, stage, name, JSON.stringify(output)],
    );
  }
}, 180_000);

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('LE Adapt outputs', () => {
  let secret: string;

  it('adds the webhook endpoint with its events, shows the secret once, tests and redelivers', async () => {
    const page = await app.signedInPage('desktop', admin.email, '/app/adapt');
    await page.getByRole('link', { name: 'Webhook settings' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Webhook settings' }).waitFor();
    await expect
      .poll(() => page.getByText('No deliveries yet', { exact: false }).isVisible())
      .toBe(true);

    // Bad input first: an address that is not one, and no event.
    await page.getByLabel('Endpoint URL').focus();
    await page.keyboard.type('lms.example.edu/hooks');
    await page.getByLabel(/Lesson exported/).focus();
    await page.keyboard.press('Space');
    await press(page, 'Add endpoint');
    await expect
      .poll(() => page.getByText('Enter the full address, starting with https://').isVisible())
      .toBe(true);
    expect(await page.getByText('Choose at least one event to send.').isVisible()).toBe(true);
    // A loopback address the operator has not allowed is refused by the server's guard.
    await page.getByLabel('Endpoint URL').fill('http://localhost:9/hooks');
    await page.getByLabel(/Lesson exported/).focus();
    await page.keyboard.press('Space');
    await press(page, 'Add endpoint');
    await expect
      .poll(() => page.getByText('a loopback address', { exact: false }).first().isVisible())
      .toBe(true);

    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByLabel(/Lesson published/).focus();
    await page.keyboard.press('Space');
    await press(page, 'Add endpoint');
    await expect
      .poll(() => page.getByText('Copy it now: it is not shown again.').isVisible())
      .toBe(true);
    secret = (await page.locator('code', { hasText: 'whsec_' }).textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    await app.shot(page, 'webhooks-secret');
    await press(page, 'I have stored it');
    await expect.poll(() => page.locator('code', { hasText: 'whsec_' }).count()).toBe(0);
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.getByLabel('Endpoint URL').inputValue()).toBe(receiverUrl);
    expect(await page.getByLabel(/Lesson published/).isChecked()).toBe(true);
    expect(await page.getByLabel(/Lesson approved/).isChecked()).toBe(false);
    expect(await page.getByText('whsec_').count()).toBe(0);

    // The receiver refuses the first test; the log says so, and a redelivery gets through.
    answers.push(410);
    await press(page, 'Send a test');
    const log = page.getByRole('list', { name: 'Deliveries' });
    const first = log.getByRole('listitem', { name: 'Test delivery' }).first();
    await expect.poll(() => first.getByText('Failed', { exact: true }).isVisible()).toBe(true);
    expect(
      await first
        .getByText('The endpoint refused the delivery (410).', { exact: true })
        .isVisible(),
    ).toBe(true);
    expect(await first.getByText('410', { exact: true }).isVisible()).toBe(true);
    expect(await first.getByText('1 of 1', { exact: true }).isVisible()).toBe(true);
    await first.getByRole('button', { name: 'Redeliver "Test delivery"' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        log.getByRole('listitem').first().getByText('Delivered', { exact: true }).isVisible(),
      )
      .toBe(true);
    expect(await log.getByRole('listitem').count()).toBe(2);
    const test = received.at(-1)!;
    expect(test.event).toBe('webhook.test');
    expect(verifyWebhook(secret, test.timestamp, test.body, test.signature)).toBe(true);
    await app.shot(page, 'webhooks-log');
    await page.context().close();
  }, 180_000);

  it('prepares the exports, downloads one, publishes and sends the lesson, by keyboard', async () => {
    const page = await app.signedInPage('desktop', admin.email, `/app/adapt/${jobId}`);
    await page.getByRole('heading', { level: 2, name: 'Exports' }).waitFor();
    // The section's heading shows while its list is still loading.
    await expect
      .poll(() => page.getByText('No exports have been made yet.').isVisible())
      .toBe(true);
    received.length = 0;
    await press(page, 'Prepare exports');
    const files = page.getByRole('list', { name: 'Export files' });
    await expect.poll(() => files.getByRole('listitem').count()).toBe(6);
    for (const label of [
      'Accessible HTML',
      'MP3 narration',
      'SCORM 1.2 package',
      'SCORM 2004 package',
      'SCORM JSON',
      'Markdown',
    ]) {
      expect(await files.getByRole('button', { name: `Download ${label} (` }).isVisible()).toBe(
        true,
      );
    }
    expect(
      await files
        .getByRole('button', { name: /^Download MP3 narration \(lesson\.mp3, [\d.]+ KB\)$/ })
        .isVisible(),
    ).toBe(true);
    await app.shot(page, 'job-exports');

    const download = page.waitForEvent('download');
    await files.getByRole('button', { name: /^Download Markdown/ }).focus();
    await page.keyboard.press('Enter');
    const file = await download;
    expect(file.suggestedFilename()).toBe('lesson.md');
    const { readFile } = await import('node:fs/promises');
    expect(await readFile((await file.path())!, 'utf8')).toContain('# Photosynthesis');

    // The endpoint takes lesson.exported: the finished exports were announced by themselves.
    await expect.poll(() => received.map((r) => r.event)).toEqual(['lesson.exported']);

    await page.getByLabel('Course', { exact: true }).focus();
    await page.getByLabel('Course', { exact: true }).selectOption({ label: 'Plant biology' });
    await press(page, 'Publish lesson');
    await expect.poll(() => page.getByText('Published into Plant biology.').isVisible()).toBe(true);
    await expect
      .poll(() => received.map((r) => r.event).sort())
      .toEqual(['lesson.exported', 'lesson.published']);

    await press(page, 'Send to learning system');
    const log = page.getByRole('list', { name: 'Deliveries of this lesson' });
    await expect
      .poll(() => log.getByRole('listitem', { name: 'Lesson exported: Photosynthesis' }).count())
      .toBe(2);
    await expect.poll(() => log.getByText('Delivered', { exact: true }).count()).toBe(3);
    const payload = JSON.parse(received.at(-1)!.body) as { package: { scorm12: string } };
    expect((await fetch(payload.package.scorm12)).status).toBe(200);
    await app.shot(page, 'job-outputs');
    await page.context().close();
  }, 240_000);

  it('shows a clear error for an export that could not be made', async () => {
    await app.server.deps.db.query(
      `update public.adapt_exports
          set files = files || '[{"name":"lesson.es.html","format":"html-translation","error":"The translated HTML could not be made: no translator is configured"}]'::jsonb
        where job_id = $1`,
      [jobId],
    );
    const page = await app.signedInPage('mobile', admin.email, `/app/adapt/${jobId}`);
    const files = page.getByRole('list', { name: 'Export files' });
    await expect
      .poll(() =>
        files
          .getByText('The translated HTML could not be made: no translator is configured')
          .isVisible(),
      )
      .toBe(true);
    expect(await files.getByRole('button', { name: /^Download Translated HTML/ }).count()).toBe(0);
    await page.context().close();
  }, 120_000);

  it('has no serious axe violations on the webhook settings and the job outputs', async () => {
    await app.expectNoSeriousAxeViolations(
      admin.email,
      '/app/adapt?view=webhooks',
      'adapt-webhooks',
      'Webhook settings',
    );
    await app.expectNoSeriousAxeViolations(
      admin.email,
      `/app/adapt/${jobId}`,
      'adapt-job-outputs',
      'Photosynthesis',
    );
  }, 180_000);
});
