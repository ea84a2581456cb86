/**
 * Struggle insights (/app/teaching/courses/:courseId/insights) in headless Chromium: an
 * instructor reaches them by keyboard from the course's progress page, sees the question five
 * learners struggled with as counts (the rule and the hidden small groups stated), and axe finds
 * nothing at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow, questionRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;
let instructor: Person;
let course: string;

beforeAll(async () => {
  app = await startAppBrowser('teach-struggle-insights');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Insight University',
    slug: `insight-${Date.now().toString(36)}`,
  });
  instructor = await app.createUser('insight-teacher', 'Ines Teacher');
  await insertRow(app.service, 'memberships', {
    user_id: instructor.id,
    organization_id: org.id,
    role: 'instructor',
  });
  course = (
    await insertRow<{ id: string }>(app.service, 'courses', {
      organization_id: org.id,
      title: 'The respiratory system',
      published: true,
      visibility: 'organization',
    })
  ).id;
  await insertRow(app.service, 'course_instructors', { user_id: instructor.id, course_id: course });
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course,
    position: 1,
    slug: 'the-lungs',
    title: 'The lungs',
  });
  const question = await insertRow<{ id: string }>(
    app.service,
    'questions',
    questionRow(course, module.id, 'gas-exchange'),
  );
  const lonely = await insertRow<{ id: string }>(app.service, 'questions', {
    ...questionRow(course, module.id, 'breathing-rate', 'numeric'),
    prompt: 'How many breaths per minute does a resting adult take?',
  });
  // Six learners worked on the first question with the coach, four of them struggling; one
  // learner alone on the second, which must stay hidden.
  for (let i = 0; i < 7; i += 1) {
    const learner = await app.createUser(`insight-learner-${i}`, `Learner ${i}`);
    const session = await insertRow<{ id: string }>(app.service, 'chat_sessions', {
      user_id: learner.id,
      mode: 'study',
      course_id: course,
      title: 'The respiratory system',
    });
    const on = i === 6 ? lonely.id : question.id;
    const misses = i < 4 ? 3 : 1;
    const rows = [
      { approach: 'question', verdict: null },
      ...Array.from({ length: misses }, () => ({ approach: 'hint', verdict: 'incorrect' })),
      ...(i < 4 ? [{ approach: 'refresher_offer', verdict: null }] : []),
    ];
    for (const row of rows) {
      await insertRow(app.service, 'coach_teaching_log', {
        session_id: session.id,
        user_id: learner.id,
        course_id: course,
        question_id: on,
        ...row,
      });
    }
  }
});

afterAll(async () => {
  await app?.close();
});

describe('struggle insights', () => {
  it.each(['desktop', 'mobile'] as const)(
    'reaches the insights from learner progress and shows counts only (%s)',
    async (viewport) => {
      const page = await app.signedInPage(
        viewport,
        instructor.email,
        `/app/teaching/courses/${course}`,
      );
      const link = page.getByRole('link', { name: 'Struggle insights' });
      await link.focus();
      await page.keyboard.press('Enter');
      await page
        .getByRole('heading', { level: 1, name: 'Struggle insights: The respiratory system' })
        .waitFor();
      const table = page.getByRole('table', { name: /Bank questions/ });
      await table.waitFor();
      const row = table.getByRole('row', { name: /Which gas passes/ });
      await expect.poll(() => row.textContent()).toContain('4 (67 %)');
      expect(await table.getByRole('row').count()).toBe(2);
      await expect
        .poll(() => page.getByTestId('insights-rule').textContent())
        .toMatch(/judged 3 or more of their answers .* fewer than 5 learners .*\(1 not shown/);
      expect(await page.getByText(/Learner \d/).count()).toBe(0);
      await app.shot(page, `insights-${viewport}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.context().close();
    },
  );
});
