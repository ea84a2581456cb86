/**
 * The lesson page counts time on task with the readers' activity clock (decision 0163): a
 * second counts only while the learner has used the page in the last two minutes, so a lesson
 * left open and untouched stops counting, and reading with the mouse or keyboard counts all of
 * it. The browser's clock is Playwright's, moved on by the test (no waiting); what is checked
 * is the time the page sends in its saves, as the server's own clamp (db/app 0430) would hide
 * a difference of minutes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser } from '../support/app-browser';

let app: AppBrowser;
let learner: { id: string; email: string };
let courseId: string;
let lessonId: string;

beforeAll(async () => {
  app = await startAppBrowser('lesson-time');
  learner = await app.createUser('lessontime', 'Lena Minutes');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Clock Test University',
    slug: `clock-${Date.now().toString(36)}`,
  });
  await insertRow(app.service, 'memberships', {
    user_id: learner.id,
    organization_id: org.id,
    role: 'learner',
  });
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'Timekeeping',
    published: true,
    visibility: 'organization',
  });
  courseId = course.id;
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course.id,
    position: 1,
    title: 'Clocks',
  });
  lessonId = (
    await insertRow<{ id: string }>(app.service, 'lessons', {
      module_id: module.id,
      course_id: course.id,
      position: 1,
      title: 'Water clocks',
      kind: 'markdown',
      body: Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} about water clocks.`).join(
        '\n\n',
      ),
    })
  ).id;
  await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: course.id });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** Opens the lesson with a controlled clock; returns the seconds each save sends. */
async function openLesson(): Promise<{ page: Page; sent: number[] }> {
  const page = await app.signedInPage('desktop', learner.email, `/app/courses/${courseId}`);
  const sent: number[] = [];
  await page.route('**/rest/v1/lesson_progress*', async (route) => {
    if (route.request().method() === 'POST') {
      const body = route.request().postDataJSON() as unknown;
      const row = (Array.isArray(body) ? body[0] : body) as { time_spent_seconds?: number };
      if (typeof row.time_spent_seconds === 'number') sent.push(row.time_spent_seconds);
    }
    await route.continue();
  });
  await page.clock.install();
  await page.goto(new URL(`/app/courses/${courseId}/lessons/${lessonId}`, page.url()).href);
  await page.getByRole('heading', { level: 1, name: 'Water clocks' }).waitFor();
  await expect.poll(() => sent.length).toBeGreaterThan(0);
  // From here the page's clock stands still but for the test's runFor: the real seconds a loaded
  // machine takes between the steps add nothing to the time counted.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1);
  return { page, sent };
}

async function leave(page: Page, sent: number[]): Promise<number> {
  const before = sent.length;
  await page.getByRole('link', { name: 'Back to the course' }).first().click();
  await page.waitForURL(new RegExp(`/app/courses/${courseId}$`));
  await expect.poll(() => sent.length).toBeGreaterThan(before);
  return sent.at(-1)!;
}

describe('time on a lesson page', () => {
  it('stops counting two minutes after the learner last used the page', async () => {
    const { page, sent } = await openLesson();
    const opened = sent.at(-1)!;
    // Ten minutes open, untouched.
    await page.clock.runFor(600_000);
    const total = await leave(page, sent);
    // Two minutes, plus the few real seconds the test itself takes between steps.
    expect(total - opened).toBeGreaterThanOrEqual(118);
    expect(total - opened).toBeLessThanOrEqual(150);
    await page.context().close();
  });

  it('counts every minute of reading while the learner scrolls and moves the pointer', async () => {
    const { page, sent } = await openLesson();
    const opened = sent.at(-1)!;
    // Five minutes of reading, with a scroll or a pointer move every 50 seconds.
    for (let step = 0; step < 6; step += 1) {
      await page.mouse.move(200 + step * 10, 300);
      await page.mouse.wheel(0, 200);
      await page.clock.runFor(50_000);
    }
    const total = await leave(page, sent);
    expect(total - opened).toBeGreaterThanOrEqual(298);
    expect(total - opened).toBeLessThanOrEqual(340);
    await page.context().close();
  });
});
