/**
 * The quiz editor's "Always graded by a person" option (decision 0226) in headless Chromium
 * against the built app: an instructor turns it on by keyboard, saves with Enter, and finds it
 * still on after a reload; the stored quiz says so; axe at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow, questionRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;
let instructor: Person;
let courseId = '';
let quizId = '';

beforeAll(async () => {
  app = await startAppBrowser('quiz-graded-by-person');
  instructor = await app.createUser('quiz-teacher', 'Gia Grader');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Graded Quiz University',
    slug: `graded-${Date.now().toString(36)}`,
  });
  await insertRow(app.service, 'memberships', {
    user_id: instructor.id,
    organization_id: org.id,
    role: 'instructor',
  });
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'Membrane transport',
    subject: 'Cell biology',
    published: true,
    visibility: 'organization',
  });
  courseId = course.id;
  await insertRow(app.service, 'course_instructors', {
    user_id: instructor.id,
    course_id: course.id,
  });
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course.id,
    position: 1,
    slug: 'transport',
    title: 'Transport',
  });
  const question = await insertRow<{ id: string }>(
    app.service,
    'questions',
    questionRow(course.id, module.id, 'explain-osmosis', 'short_text'),
  );
  const quiz = await insertRow<{ id: string }>(app.service, 'assessments', {
    course_id: course.id,
    module_id: module.id,
    title: 'Transport essay check',
    published: true,
  });
  quizId = quiz.id;
  await insertRow(app.service, 'assessment_questions', {
    assessment_id: quiz.id,
    question_id: question.id,
    course_id: course.id,
    position: 1,
  });
}, 180_000);

afterAll(() => app?.close());

describe('the quiz editor', () => {
  it('sets "Always graded by a person" by keyboard and keeps it', async () => {
    const at = `/app/course-editor/${courseId}/quizzes/${quizId}`;
    const page = await app.signedInPage('desktop', instructor.email, at);
    try {
      await page.getByRole('heading', { level: 1, name: 'Edit quiz' }).waitFor();
      const byPerson = page.getByLabel('Always graded by a person');
      expect(await byPerson.isChecked()).toBe(false);
      await byPerson.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => byPerson.isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Save quiz' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Quiz saved.').waitFor();

      const { data } = await app.service
        .from('assessments')
        .select('graded_by_person')
        .eq('id', quizId)
        .single();
      expect(data).toEqual({ graded_by_person: true });

      await page.reload({ waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1, name: 'Edit quiz' }).waitFor();
      expect(await page.getByLabel('Always graded by a person').isChecked()).toBe(true);
      await app.shot(page, 'quiz-editor-desktop');
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
    // The first sign-in, a save and a reload on a machine shared by many test runs.
  }, 180_000);

  it('passes axe at 390 px', async () => {
    const page = await app.signedInPage(
      'mobile',
      instructor.email,
      `/app/course-editor/${courseId}/quizzes/${quizId}`,
    );
    try {
      await page.getByRole('heading', { level: 1, name: 'Edit quiz' }).waitFor();
      await page.getByLabel('Always graded by a person').waitFor();
      await app.shot(page, 'quiz-editor-mobile');
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
