/**
 * The progress screen in headless Chromium (decisions 0171, 0172): a learner sets a goal to
 * finish a module, completes its lessons on the lesson pages, and the goal reaches 100 % with
 * its XP; axe at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';

let app: AppBrowser;
let learner: Person;
let course: string;
let lessons: string[];

beforeAll(async () => {
  app = await startAppBrowser('study-progress');
  learner = await app.createUser('progress-learner', 'Pat Progress');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Progress Test University',
    slug: `progress-${Date.now().toString(36)}`,
  });
  await insertRow(app.service, 'memberships', {
    user_id: learner.id,
    organization_id: org.id,
    role: 'learner',
  });
  course = (
    await insertRow<{ id: string }>(app.service, 'courses', {
      organization_id: org.id,
      title: 'The respiratory system',
      published: true,
      visibility: 'organization',
    })
  ).id;
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course,
    position: 1,
    title: 'The lungs',
  });
  lessons = [];
  for (const position of [1, 2]) {
    const lesson = await insertRow<{ id: string }>(app.service, 'lessons', {
      module_id: module.id,
      course_id: course,
      position,
      title: `Breathing ${position}`,
      kind: 'markdown',
      body: '# Breathing\n\nAir enters through the trachea.',
    });
    lessons.push(lesson.id);
  }
  await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: course });
});
afterAll(() => app?.close());

describe('progress', () => {
  it('takes a goal to 100 % from lessons completed on the lesson pages', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/progress');
    await page.getByRole('heading', { level: 1, name: 'Progress' }).waitFor();
    await page.getByText('Level 1', { exact: true }).waitFor();

    const form = page.getByRole('form', { name: 'Set a goal' });
    await form.getByLabel('Course').selectOption({ label: 'The respiratory system' });
    await form.getByRole('button', { name: 'Set goal' }).click();
    await form.getByText('Choose a module.').waitFor();
    await form.getByLabel('Module').selectOption({ label: 'The lungs' });
    await form.getByRole('button', { name: 'Set goal' }).click();
    const goal = page.getByTestId('goal').filter({ hasText: 'Finish The lungs' });
    await goal.getByText('0 of 2 lessons').waitFor();
    await app.shot(page, 'progress-goal-set');

    for (const lesson of lessons) {
      await page.goto(`${app.baseUrl}/app/courses/${course}/lessons/${lesson}`);
      await page.getByRole('button', { name: 'Mark as complete' }).click();
      await page.getByText('Lesson marked as complete.').first().waitFor();
    }

    await page.goto(`${app.baseUrl}/app/progress`);
    const met = page.getByTestId('goal').filter({ hasText: 'Finish The lungs' });
    await met.getByText('2 of 2 lessons — goal met.').waitFor();
    expect(await met.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    // 2 lessons × 10 XP and the goal's 25 XP.
    await page.getByText('45 XP', { exact: true }).waitFor();
    await page.getByText('Earned', { exact: false }).first().waitFor();
    await app.shot(page, 'progress-goal-met');
    await page.context().close();
  });

  it('has no serious axe violations at 390 and 1280 px', async () => {
    await app.expectNoSeriousAxeViolations(learner.email, '/app/progress', 'progress', 'Progress');
  });
});
