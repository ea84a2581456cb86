/**
 * LE Adapt end to end in headless Chromium against the built app: a Personal-mode user (their
 * own Admin, decision 0500) uploads a text file with the keyboard, follows the job's stages
 * live until all four are done, reads the insights, accepts a section and approves the lesson
 * by keyboard; the archive finds the job by a word of its text. axe at 390 and 1280 px on the
 * upload page and the job's review screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { lessonTxt } from '../support/adapt-documents';

let app: AppBrowser;
let educator: Person;
let jobId: string;

beforeAll(async () => {
  app = await startAppBrowser('adapt-pipeline');
  educator = await app.createUser('adapt', 'Ada Adapter');
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe('LE Adapt', () => {
  it('uploads, shows live progress, reviews and approves by keyboard', async () => {
    const page = await app.signedInPage('desktop', educator.email, '/app/adapt');
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: 'LE Adapt' }).isVisible())
      .toBe(true);
    await page.getByRole('link', { name: 'LE Adapt' }).first().waitFor();

    await page.getByLabel('File', { exact: true }).setInputFiles({
      name: 'respiratory-reader.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(lessonTxt()),
    });
    await page.getByLabel('Title (optional)').focus();
    await page.keyboard.type('Breathing, adapted');
    await page.getByLabel('Learner profile').focus();
    await page.getByLabel('Learner profile').selectOption('adhd');
    await page.getByRole('button', { name: 'Start job' }).focus();
    await page.keyboard.press('Enter');

    await page.waitForURL(/\/app\/adapt\/[0-9a-f-]{36}$/);
    jobId = page.url().split('/').pop()!;
    await expect
      .poll(() => page.getByText('4 of 4 stages done').isVisible(), { timeout: 90_000 })
      .toBe(true);
    const stages = page.getByRole('list', { name: 'Stages' }).getByRole('listitem');
    expect(await stages.count()).toBe(4);
    await expect
      .poll(() => page.getByText('Built-in offline engine', { exact: true }).first().isVisible())
      .toBe(true);
    await app.shot(page, 'job-done');

    const accept = page.getByRole('button', { name: /^Accept "/ }).first();
    await accept.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByText('1 of', { exact: false }).first().isVisible())
      .toBe(true);
    await expect
      .poll(() =>
        page.getByRole('list', { name: 'Sections' }).getByText('Accepted', { exact: true }).count(),
      )
      .toBe(1);

    // The stored review decides whether approval asks to acknowledge lost facts: the test waits
    // for the screen that follows from it rather than looking once.
    const review = await app.service
      .from('adapt_job_stages')
      .select('output')
      .eq('job_id', jobId)
      .eq('name', 'review')
      .single();
    expect(review.error).toBeNull();
    const lost = (review.data as { output: { fidelity: { lost: unknown[] } } }).output.fidelity
      .lost;
    if (lost.length > 0) {
      const acknowledge = page.getByLabel(
        'I have seen what was lost and approve the lesson anyway.',
      );
      await expect.poll(() => acknowledge.isVisible()).toBe(true);
      await acknowledge.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => acknowledge.isChecked()).toBe(true);
    } else {
      await expect
        .poll(() =>
          page
            .getByText(/^Every one of the source's \d+ key facts is in the lesson\.$/)
            .isVisible(),
        )
        .toBe(true);
    }
    await page.getByLabel('Note (optional)').focus();
    await page.keyboard.type('Checked against the reader.');
    await page.getByRole('button', { name: 'Approve lesson' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByText(/Approved on .*: Checked against the reader\./).isVisible())
      .toBe(true);
    const { data } = await app.service
      .from('adapt_jobs')
      .select('approved_by, learner_profile')
      .eq('id', jobId)
      .single();
    expect(data).toEqual({ approved_by: educator.id, learner_profile: 'adhd' });

    await page.goto(`${app.baseUrl}/app/adapt`);
    await page.getByLabel('Words').fill('spirometer');
    await page.getByLabel('Words').press('Enter');
    await expect
      .poll(() => page.getByRole('link', { name: 'Breathing, adapted' }).isVisible())
      .toBe(true);
    await page.getByLabel('Words').fill('photosynthesis');
    await page.getByLabel('Words').press('Enter');
    await expect.poll(() => page.getByText('No job matches.').isVisible()).toBe(true);
    await page.close();
  }, 180_000);

  it('has no serious axe violations on the upload page and the review screen', async () => {
    await app.expectNoSeriousAxeViolations(educator.email, '/app/adapt', 'adapt', 'LE Adapt');
    await app.expectNoSeriousAxeViolations(
      educator.email,
      `/app/adapt/${jobId}`,
      'adapt-job',
      'Breathing, adapted',
    );
  }, 180_000);
});
