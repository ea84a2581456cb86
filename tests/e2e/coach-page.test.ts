/**
 * The study coach page (/app/coach) in headless Chromium against the built app, driven by the
 * keyboard: a study session started with Enter, "I'm stuck", wrong answers up to the refresher
 * offer, the offer accepted with its button, the teaching history and past sessions; the live
 * region announcing replies; axe at 390 and 1280 px. A learner's own file added under "Your
 * files" answers their General Knowledge question and goes when removed; past the monthly
 * allowance the page says so with the reset date.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow, questionRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;
let learner: Person;

beforeAll(async () => {
  app = await startAppBrowser('coach-page');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Coach Test University',
    slug: `coach-${Date.now().toString(36)}`,
  });
  learner = await app.createUser('coach-learner', 'Cora Learner');
  await insertRow(app.service, 'memberships', {
    user_id: learner.id,
    organization_id: org.id,
    role: 'learner',
  });
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'The respiratory system',
    subject: 'Human anatomy',
    published: true,
    visibility: 'organization',
  });
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course.id,
    position: 1,
    slug: 'the-lungs',
    title: 'The lungs',
  });
  await insertRow(app.service, 'questions', {
    ...questionRow(course.id, module.id, 'breathing-rate', 'numeric'),
    prompt: 'How many breaths per minute does a resting adult take?',
  });
  await insertRow(app.service, 'questions', questionRow(course.id, module.id, 'gas-exchange'));
  await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: course.id });
});

afterAll(async () => {
  await app?.close();
});

/** Types into the message box and sends with Enter, then waits for the reply to finish. */
async function say(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: /Your (message|answer|question)/ });
  await box.focus();
  await page.keyboard.type(text);
  const before = await page.getByRole('list', { name: 'Messages' }).locator('> li').count();
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => page.getByRole('list', { name: 'Messages' }).locator('> li').count())
    .toBe(before + 2);
  await page.getByRole('button', { name: 'Send' }).waitFor();
}

/** Presses a button by focusing it and pressing Enter, as a keyboard user would. */
async function press(page: Page, name: string | RegExp) {
  const button = page.getByRole('button', { name });
  await button.focus();
  await page.keyboard.press('Enter');
}

describe('the study coach page', () => {
  it('runs a study session by keyboard up to the refresher, with the history and the announcements', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/coach');
    await page.getByRole('heading', { level: 1, name: 'Study coach' }).waitFor();
    await expect.poll(() => page.getByLabel('Course', { exact: true }).inputValue()).not.toBe('');

    await say(page, "Let's start");
    await page.getByTestId('awaiting-answer').waitFor();
    await expect
      .poll(() => page.getByTestId('coach-announcer').textContent())
      .toContain('How many breaths per minute');
    await expect
      .poll(() => page.getByTestId('coach-engine').textContent())
      .toContain('Built-in offline coach');

    await press(page, "I'm stuck");
    await page.getByRole('list', { name: 'Approaches tried' }).waitFor();
    await say(page, '5');
    await say(page, '30');
    await page.getByRole('group', { name: 'The coach’s offer' }).waitFor();
    await app.shot(page, 'refresher-offer-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await press(page, 'Yes, show me the refresher');
    await expect
      .poll(() => page.getByTestId('coach-announcer').textContent())
      .toContain("Let's go back to the basics");
    expect(await page.getByRole('button', { name: 'Yes, show me the refresher' }).count()).toBe(0);
    const tried = page.getByRole('list', { name: 'Approaches tried' });
    await expect.poll(() => tried.textContent()).toContain('Taught the refresher');
    await expect.poll(() => tried.textContent()).toContain('Offered a refresher');
    await page.getByRole('heading', { name: 'Why I’m asking this' }).waitFor();
    await app.shot(page, 'refresher-desktop');

    const sessions = page.getByRole('list', { name: 'Past sessions' });
    await expect.poll(() => sessions.textContent()).toContain('The respiratory system');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('resumes a past session and passes axe at 390 px', async () => {
    const page = await app.signedInPage('mobile', learner.email, '/app/coach');
    await page.getByRole('heading', { level: 1, name: 'Study coach' }).waitFor();
    await press(page, /^Resume The respiratory system/);
    await expect
      .poll(() => page.getByRole('list', { name: 'Messages' }).locator('> li').count())
      .toBeGreaterThan(4);
    await page.getByTestId('awaiting-answer').waitFor();
    await app.shot(page, 'resumed-mobile');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await press(page, 'New session');
    const general = page.getByRole('radio', { name: /General knowledge/ });
    await general.focus();
    await page.keyboard.press('Space');
    await say(page, 'Which gas passes from the alveoli into the blood?');
    await expect
      .poll(() => page.getByTestId('coach-announcer').textContent())
      .toMatch(/Source: the refresher|I don't know/);
    await app.shot(page, 'general-mobile');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });
  it('answers from a file the learner adds, forgets it when removed, and says when the allowance is used up', async () => {
    const reader = await app.createUser('coach-reader', 'Rio Reader');
    const page = await app.signedInPage('desktop', reader.email, '/app/coach');
    await page.getByRole('heading', { level: 1, name: 'Study coach' }).waitFor();
    const general = page.getByRole('radio', { name: /General knowledge/ });
    await general.focus();
    await page.keyboard.press('Space');

    const field = page.getByLabel('Add a file');
    await field.setInputFiles({
      name: 'tide notes.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(
        '# Tide notes\n\nSpring tides happen when the sun and moon line up, so the tidal bulges add.',
      ),
    });
    await press(page, 'Add file');
    const list = page.getByRole('list', { name: 'Your files' });
    await expect.poll(() => list.textContent()).toContain('Tide notes');
    await say(page, 'Why do spring tides happen when the sun and moon line up?');
    await expect
      .poll(() => page.getByTestId('coach-announcer').textContent())
      .toContain('Source: your file Tide notes');
    await app.shot(page, 'own-file-answer-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A file the coach cannot read is refused with the reason, and not listed.
    await field.setInputFiles({
      name: 'notes.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('this is not a PDF'),
    });
    await press(page, 'Add file');
    await expect
      .poll(() => page.getByText(/not a PDF|could not be read|damaged/i).count())
      .toBeGreaterThan(0);
    expect(await list.locator('> li').count()).toBe(1);

    await press(page, 'Remove Tide notes');
    await page.getByText('No files yet.').waitFor();
    await say(page, 'Why do spring tides happen when the sun and moon line up?');
    await expect
      .poll(() => page.getByTestId('coach-announcer').textContent())
      .toContain("I don't know");

    await app.service.from('user_quotas').update({ monthly_limit: 2 }).eq('user_id', reader.id);
    const box = page.getByRole('textbox', { name: 'Your question' });
    await box.focus();
    await page.keyboard.type('What is a tide?');
    await page.keyboard.press('Enter');
    // The page's notice (a toast may say it too).
    await page
      .locator('[data-slot="notice"]')
      .getByText(
        /You have used all 2 coach messages of this month\. Your allowance resets on 1 \w+ \d{4} \(UTC\)\./,
      )
      .waitFor();
    await app.shot(page, 'allowance-used-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });
});
