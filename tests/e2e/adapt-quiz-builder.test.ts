/**
 * LE Adapt's quiz builder in headless Chromium against the built app, by keyboard: a Reviewer
 * moves questions down and up with the buttons (focus follows the moved question), edits one
 * (an empty sentence is refused with a message first), adds a multiple-choice question (two
 * identical options and no correct one are refused first), deletes one, and previews grades —
 * a short answer through the answer evaluator, a choice by the answer key. Every change is in
 * the database. axe at 390 and 1280 px with an editor and a preview open.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccessible } from '../../src/server/adapt/accessible/accessible-stage';
import { adaptTestLesson } from '../../src/server/adapt/adapt-test-lesson';
import type { QuizQuestion, ReviewedLesson } from '../../src/server/adapt/lesson';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';
import { insertRow } from '../support/service-rows';

let app: AppBrowser;
let reviewer: Person;
let instructor: Person;
let jobId: string;

async function press(page: Page, name: string | RegExp, key = 'Enter') {
  await page.getByRole('button', { name, exact: typeof name === 'string' }).focus();
  await page.keyboard.press(key);
}

/** The question ids in the order the list shows them. */
const shownOrder = (page: Page) =>
  page.locator('li[data-question]').evaluateAll((items) => items.map((i) => i.dataset.question));

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const summaryIsFocused = (page: Page) =>
  page.evaluate(
    () => document.activeElement?.textContent?.includes('cannot be saved yet') ?? false,
  );

/** The saved quiz's question ids and version, as the server stored them. */
async function savedQuiz(): Promise<{ ids: string[]; version: number } | null> {
  const { rows } = await app.server.deps.db.query<{ questions: QuizQuestion[]; version: number }>(
    'select questions, version from public.adapt_quiz_reviews where job_id = $1',
    [jobId],
  );
  const row = rows[0];
  return row ? { ids: row.questions.map((q) => q.id), version: row.version } : null;
}

beforeAll(async () => {
  app = await startAppBrowser('adapt-quiz-builder');
  reviewer = await app.createUser('quiz-reviewer', 'Rita Reviewer');
  instructor = await app.createUser('quiz-instructor', 'Ivo Instructor');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Quiz University',
    slug: `quiz-${Date.now().toString(36)}`,
  });
  const memberships = await app.service.from('memberships').insert([
    { user_id: reviewer.id, organization_id: org.id, role: 'org_admin' },
    { user_id: instructor.id, organization_id: org.id, role: 'instructor' },
  ]);
  if (memberships.error) throw new Error(memberships.error.message);
  // A job the pipeline finished, waiting for its review (the pipeline's own browser test runs
  // the stages; this one starts where it ends).
  const structured = adaptTestLesson();
  const { lesson } = await makeAccessible(
    structured,
    { profile: 'none', targetGrade: 8, translateTo: null },
    { ai: null },
  );
  const reviewed: ReviewedLesson = {
    lesson,
    findings: [],
    fidelity: { passed: true, facts: [], lost: [] },
  };
  const db = app.server.deps.db;
  const { rows } = await db.query<{ id: string }>(
    `insert into public.adapt_jobs (owner_id, organization_id, title, source_format, source_name, status)
     values ($1, $2, 'Photosynthesis', 'txt', 'photosynthesis.txt', 'done') returning id`,
    [instructor.id, org.id],
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
});

describe('LE Adapt quiz builder', () => {
  it('moves questions down and up by keyboard, with focus following the question', async () => {
    const page = await app.signedInPage('desktop', reviewer.email, `/app/adapt/${jobId}`);
    await page.getByRole('heading', { level: 2, name: 'Quiz' }).waitFor();
    expect(await shownOrder(page)).toEqual(['gas-released', 'pigment', 'why-light']);

    await press(page, 'Move question 1 down');
    await expect.poll(() => shownOrder(page)).toEqual(['pigment', 'gas-released', 'why-light']);
    await expect.poll(() => focusedId(page)).toBe('quiz-gas-released-down');
    expect(await page.getByText('Question moved to position 2 of 3.').count()).toBe(1);

    // Enter again on the focused button moves it to the end, where "down" is disabled: focus
    // goes to its "up".
    await page.keyboard.press('Enter');
    await expect.poll(() => shownOrder(page)).toEqual(['pigment', 'why-light', 'gas-released']);
    await expect.poll(() => focusedId(page)).toBe('quiz-gas-released-up');
    await page.keyboard.press('Enter');
    await expect.poll(() => shownOrder(page)).toEqual(['pigment', 'gas-released', 'why-light']);
    await expect.poll(() => focusedId(page)).toBe('quiz-gas-released-up');
    expect(await savedQuiz()).toEqual({
      ids: ['pigment', 'gas-released', 'why-light'],
      version: 3,
    });
    await page.context().close();
  }, 120_000);

  it('edits a question, refusing an empty sentence with a message first', async () => {
    const page = await app.signedInPage('desktop', reviewer.email, `/app/adapt/${jobId}`);
    await press(page, 'Edit question 1');
    const form = page.getByRole('form', { name: 'Edit question 1' });
    await form.waitFor();
    // Opening the editor moves focus into it in an effect, after the form shows.
    const typeId = await form.getByLabel('Question type').getAttribute('id');
    await expect.poll(() => focusedId(page)).toBe(typeId);
    await form.getByLabel('Sentence with a gap').fill('   ');
    await press(page, 'Save question');
    await expect
      .poll(() => form.getByText('This question cannot be saved yet').isVisible())
      .toBe(true);
    expect(await form.getByText('The sentence is empty.').count()).toBeGreaterThan(0);
    // Focus moves to the summary a frame after it shows: typing before then would lose keys.
    await expect.poll(() => summaryIsFocused(page)).toBe(true);
    expect((await savedQuiz())!.version).toBe(3);

    await form.getByLabel('Sentence with a gap').focus();
    await page.keyboard.type('Chloroplasts are green because of ____.');
    await form.getByLabel('Explanation (optional)').focus();
    await page.keyboard.type('Chlorophyll absorbs red and blue light and reflects green.');
    await press(page, 'Save question');
    await expect
      .poll(() => page.getByText('Chloroplasts are green because of ____.').isVisible())
      .toBe(true);
    await expect.poll(() => focusedId(page)).toBe('quiz-pigment-edit');
    expect(
      await page
        .getByText('Chlorophyll absorbs red and blue light and reflects green.')
        .isVisible(),
    ).toBe(true);
    expect((await savedQuiz())!.version).toBe(4);
    await page.context().close();
  }, 120_000);

  it('adds a multiple-choice question after refusing duplicate options and no correct one, then deletes one', async () => {
    const page = await app.signedInPage('desktop', reviewer.email, `/app/adapt/${jobId}`);
    await press(page, 'Add a question');
    const form = page.getByRole('form', { name: 'New question' });
    await form.waitFor();
    // The editor takes focus a moment after it shows: filling before then could lose text.
    const typeId = await form.getByLabel('Question type').getAttribute('id');
    await expect.poll(() => focusedId(page)).toBe(typeId);
    await form.getByLabel('Question', { exact: true }).fill('Where do the light reactions happen?');
    await form.getByLabel('Option 1', { exact: true }).fill('Thylakoid membranes');
    await form.getByLabel('Option 2', { exact: true }).fill('Stroma');
    await form.getByLabel('Option 3', { exact: true }).fill('stroma ');
    await press(page, 'Save question');
    await expect
      .poll(() => form.getByText('Options 2 and 3 are the same (“stroma”).').first().isVisible())
      .toBe(true);
    expect(await form.getByText('Choose which option is correct.').count()).toBeGreaterThan(0);
    await expect.poll(() => summaryIsFocused(page)).toBe(true);
    expect((await savedQuiz())!.ids).toHaveLength(3);

    await form.getByLabel('Option 3', { exact: true }).fill('Cell wall');
    await form.getByLabel('Option 1 is correct').focus();
    await page.keyboard.press('Space');
    await press(page, 'Save question');
    await expect.poll(async () => (await shownOrder(page)).length).toBe(4);
    const added = (await savedQuiz())!;
    expect(added.ids).toHaveLength(4);
    expect(await page.getByText('Where do the light reactions happen?').isVisible()).toBe(true);

    // Delete question 2 (gas-released): a confirmation first, focused on keeping it.
    await press(page, 'Delete question 2');
    await expect.poll(() => focusedId(page)).toBe('quiz-gas-released-keep');
    await press(page, 'Delete', 'Enter');
    await expect.poll(() => shownOrder(page)).toEqual(['pigment', 'why-light', added.ids[3]]);
    expect((await savedQuiz())!.ids).toEqual(['pigment', 'why-light', added.ids[3]]);
    await page.context().close();
  }, 120_000);

  it('previews grades: a short answer by the answer evaluator, a choice by the answer key', async () => {
    const page = await app.signedInPage('mobile', reviewer.email, `/app/adapt/${jobId}`);
    const open = page.locator('li[data-question="why-light"]');
    await open.getByText('Preview a grade for question 2').focus();
    await page.keyboard.press('Enter');
    await open.getByLabel('A learner’s answer').focus();
    await page.keyboard.type(
      'Light gives the plant energy to turn carbon dioxide and water into glucose.',
    );
    await open.getByRole('button', { name: 'Preview the grade' }).focus();
    await page.keyboard.press('Enter');
    const verdict = open.getByRole('status');
    await expect.poll(() => verdict.textContent()).toContain('Correct');
    expect(await verdict.textContent()).toContain('Graded by Built-in offline engine');

    await open.getByLabel('A learner’s answer').fill('Plants are green.');
    await open.getByRole('button', { name: 'Preview the grade' }).click();
    await expect.poll(() => verdict.textContent()).toContain('Incorrect');
    expect(await verdict.textContent()).toContain('Key points not made');

    const choice = page.locator('li[data-question]').nth(2);
    await choice.getByText('Preview a grade for question 3').click();
    await choice.getByLabel('Stroma').check();
    await choice.getByRole('button', { name: 'Preview the grade' }).click();
    await expect.poll(() => choice.getByRole('status').textContent()).toContain('Incorrect');
    expect(await choice.getByRole('status').textContent()).toContain('Graded by the answer key');
    await page.context().close();
  }, 120_000);

  it('has no serious axe violations with an editor and a grade preview open', async () => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const page = await app.signedInPage(viewport, reviewer.email, `/app/adapt/${jobId}`);
      await page.getByRole('heading', { level: 2, name: 'Quiz' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await seriousAxeViolations(page), `quiz builder at ${viewport}`).toEqual([]);
      await press(page, 'Edit question 1');
      await page.getByRole('form', { name: 'Edit question 1' }).waitFor();
      const open = page.locator('li[data-question="why-light"]');
      await open.getByText('Preview a grade for question 2').click();
      await open.getByLabel('A learner’s answer').fill('Light gives energy.');
      await open.getByRole('button', { name: 'Preview the grade' }).click();
      await expect.poll(() => open.getByRole('status').textContent()).toMatch(/correct/i);
      expect(await seriousAxeViolations(page), `quiz editor at ${viewport}`).toEqual([]);
      await app.shot(page, `adapt-quiz-builder-${viewport}`);
      await page.context().close();
    }
  }, 180_000);
});
