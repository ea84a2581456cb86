/**
 * The learner's screens in headless Chromium against the built app, on this file's own
 * server and database (its rows are made through the service role and the auth admin API):
 * the sign-in gate and the way back, the shell's workspaces, enrolling, reading a lesson,
 * taking a quiz, the discussion, and axe on every screen at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow, questionRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser } from '../support/app-browser';

let app: AppBrowser;

interface World {
  learner: { id: string; email: string };
  personal: { id: string; email: string };
  orgName: string;
  course: string;
  publicCourse: string;
  lesson: string;
  videoLesson: string;
  quiz: string;
  mcQuestion: string;
}
let world: World;

async function buildWorld(): Promise<World> {
  const learner = await app.createUser('learner', 'Ada Student');
  const personal = await app.createUser('personal', 'Pat Personal');
  const orgName = 'Browser Test University';
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: orgName,
    slug: `browser-${Date.now().toString(36)}`,
  });
  const arts = await insertRow<{ id: string }>(app.service, 'boards', {
    organization_id: org.id,
    name: 'Faculty of Arts',
    slug: 'arts',
  });
  // Two memberships: the organization as a whole and a board, so the switcher has a choice.
  await insertRow(app.service, 'memberships', {
    user_id: learner.id,
    organization_id: org.id,
    role: 'learner',
  });
  await insertRow(app.service, 'memberships', {
    user_id: learner.id,
    organization_id: org.id,
    board_id: arts.id,
    role: 'learner',
  });
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'The respiratory system',
    subject: 'Human anatomy',
    description: 'How air reaches the blood: airways, lungs and gas exchange.',
    published: true,
    visibility: 'organization',
  });
  // Enough courses for a second library page (12 a page), all distributed to Arts, so the
  // board's workspace (which narrows the library to the board's courses) pages too.
  const distribute = (courseId: string) =>
    insertRow(app.service, 'course_boards', {
      course_id: courseId,
      board_id: arts.id,
      organization_id: org.id,
    });
  await distribute(course.id);
  for (let i = 1; i <= 12; i += 1) {
    const elective = await insertRow<{ id: string }>(app.service, 'courses', {
      organization_id: org.id,
      title: `Elective ${String(i).padStart(2, '0')}`,
      subject: 'Electives',
      published: true,
      visibility: 'organization',
    });
    await distribute(elective.id);
  }
  const publicCourse = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'Open lecture: cell biology',
    subject: 'Biology',
    published: true,
    visibility: 'public',
  });
  await insertRow(app.service, 'courses', {
    organization_id: org.id,
    title: 'Draft course nobody may see',
    published: false,
    visibility: 'organization',
  });
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course.id,
    position: 1,
    title: 'The lungs',
    summary: 'Airways, alveoli and breathing.',
  });
  const lesson = await insertRow<{ id: string }>(app.service, 'lessons', {
    module_id: module.id,
    course_id: course.id,
    position: 1,
    title: 'Breathing',
    kind: 'markdown',
    body: [
      '# Breathing',
      '',
      'Air enters through the **trachea** and reaches the alveoli.',
      '',
      '## Gas exchange',
      '',
      '[A safe link](https://example.org/lungs) and [an unsafe one](javascript:alert(1)).',
      '',
      '<script>window.__injected = true</script>',
      '',
      ...Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} about the lungs.\n`),
    ].join('\n'),
    estimated_minutes: 8,
  });
  const videoLesson = await insertRow<{ id: string }>(app.service, 'lessons', {
    module_id: module.id,
    course_id: course.id,
    position: 2,
    title: 'Watching the diaphragm',
    kind: 'video',
    video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    estimated_minutes: 5,
  });
  const mc = await insertRow<{ id: string }>(
    app.service,
    'questions',
    questionRow(course.id, module.id, 'gas-exchange'),
  );
  const numeric = await insertRow<{ id: string }>(
    app.service,
    'questions',
    questionRow(course.id, module.id, 'breathing-rate', 'numeric'),
  );
  const short = await insertRow<{ id: string }>(
    app.service,
    'questions',
    questionRow(course.id, module.id, 'alveoli', 'short_text'),
  );
  const quiz = await insertRow<{ id: string }>(app.service, 'assessments', {
    course_id: course.id,
    module_id: module.id,
    title: 'The lungs: quiz',
    published: true,
    max_attempts: 1,
  });
  for (const [position, question] of [mc, numeric, short].entries()) {
    await insertRow(app.service, 'assessment_questions', {
      assessment_id: quiz.id,
      question_id: question.id,
      course_id: course.id,
      position: position + 1,
    });
  }
  return {
    learner,
    personal,
    orgName,
    course: course.id,
    publicCourse: publicCourse.id,
    lesson: lesson.id,
    videoLesson: videoLesson.id,
    quiz: quiz.id,
    mcQuestion: mc.id,
  };
}

beforeAll(async () => {
  app = await startAppBrowser('learn-learner');
  world = await buildWorld();
}, 180_000);

afterAll(() => app?.close());

const paths = {
  library: '/app/courses',
  course: () => `/app/courses/${world.course}`,
  lesson: () => `/app/courses/${world.course}/lessons/${world.lesson}`,
  video: () => `/app/courses/${world.course}/lessons/${world.videoLesson}`,
  quiz: () => `/app/courses/${world.course}/quizzes/${world.quiz}`,
  discussion: () => `/app/courses/${world.course}/discussion`,
};

describe('the sign-in gate', () => {
  it('sends an anonymous visitor to /login and back to the /app address they asked for', async () => {
    const page = await app.newPage('desktop');
    try {
      const wanted = `${paths.library}?q=respiratory`;
      const response = await page.goto(app.baseUrl + wanted, { waitUntil: 'networkidle' });
      expect(response?.status()).toBe(200);
      await page.waitForURL(/\/login\?next=/);
      expect(new URL(page.url()).searchParams.get('next')).toBe(wanted);
      await app.signIn(page, world.learner.email);
      await page.waitForURL(`${app.baseUrl}${wanted}`);
      await page.getByRole('heading', { level: 1, name: 'Course library' }).waitFor();
      await page.getByRole('link', { name: 'The respiratory system' }).waitFor();
      expect(await page.getByRole('link', { name: /Elective/ }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('does not follow a next address to another site', async () => {
    const page = await app.newPage('mobile');
    try {
      await page.goto(`${app.baseUrl}/login?next=${encodeURIComponent('//evil.example/app')}`, {
        waitUntil: 'networkidle',
      });
      await app.signIn(page, world.learner.email);
      await page.waitForURL(`${app.baseUrl}/account`);
    } finally {
      await page.context().close();
    }
  });

  it('answers 404 for an /app address that is no page', async () => {
    for (const path of [
      '/app/nowhere',
      '/app/courses/not-an-id',
      `/app/courses/${world.course}/x`,
    ]) {
      expect((await fetch(app.baseUrl + path)).status, path).toBe(404);
    }
    expect((await fetch(app.baseUrl + paths.lesson())).status).toBe(200);
  });
});

describe('a learner end to end', () => {
  it('enrols, reads a lesson, takes the quiz, and posts in the discussion', async () => {
    const page = await app.freshSignIn('desktop', world.learner.email, '/app');
    try {
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await page.getByText('Ada Student').waitFor();
      await page.getByText('You are not enrolled in any course yet').waitFor();

      // The workspace switcher: the whole organization or the board; the choice is kept.
      const workspace = page.getByLabel('Workspace');
      await workspace.selectOption({ label: `${world.orgName} — Faculty of Arts` });
      await page.reload({ waitUntil: 'networkidle' });
      await expect
        .poll(() =>
          page
            .getByLabel('Workspace')
            .evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.text),
        )
        .toBe(`${world.orgName} — Faculty of Arts`);
      await page.getByText('Student', { exact: true }).waitFor();

      await page.getByRole('link', { name: 'Courses', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Course library' }).waitFor();
      // The board's courses only: the organization's public lecture is not distributed to it.
      await page.getByText(/13 courses · page 1 of 2/).waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page
        .getByText(/page 2 of 2/)
        .first()
        .waitFor();
      expect(await page.getByText('Draft course nobody may see').count()).toBe(0);
      await page.getByLabel('Search courses by title').fill('respiratory');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText('1 course matching “respiratory”', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'Enrol in The respiratory system' }).click();
      await page.getByText('You are enrolled in The respiratory system.').waitFor();
      await page.getByText('Enrolled', { exact: true }).waitFor();

      await page.getByRole('link', { name: 'The respiratory system' }).click();
      await page.getByRole('heading', { level: 1, name: 'The respiratory system' }).waitFor();
      await page.getByRole('heading', { level: 2, name: /The lungs/ }).waitFor();
      await page.getByRole('link', { name: 'Breathing' }).click();

      await page.getByRole('heading', { level: 1, name: 'Breathing' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Gas exchange' }).waitFor();
      expect(await page.getByRole('link', { name: 'A safe link' }).getAttribute('href')).toBe(
        'https://example.org/lungs',
      );
      // The unsafe link is emptied and the raw HTML is not run.
      expect(await page.getByText('an unsafe one').getAttribute('href')).toBe('');
      expect(
        await page.evaluate(() => (window as { __injected?: boolean }).__injected),
      ).toBeUndefined();
      await page.mouse.wheel(0, 600);
      // The wheel returns before the page has scrolled; the reader's place is read from it.
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Mark as complete' }).click();
      await page.getByText('Lesson marked as complete.').waitFor();
      await page.getByText('Completed', { exact: true }).waitFor();

      const progress = await app.service
        .from('lesson_progress')
        .select('status, position, time_spent_seconds, completed_at')
        .eq('user_id', world.learner.id)
        .eq('lesson_id', world.lesson)
        .single();
      expect(progress.error).toBeNull();
      expect(progress.data).toMatchObject({ status: 'completed' });
      expect(progress.data?.completed_at).not.toBeNull();
      expect((progress.data?.position as { scroll: number }).scroll).toBeGreaterThan(0);

      await page.getByRole('link', { name: 'Next lesson' }).click();
      await page.getByRole('heading', { level: 1, name: 'Watching the diaphragm' }).waitFor();
      expect(
        await page.locator('iframe[title="Video: Watching the diaphragm"]').getAttribute('src'),
      ).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');

      await page.getByRole('link', { name: 'Back to the course' }).click();
      await page.getByRole('progressbar', { name: 'Your progress in this course' }).waitFor();
      await expect
        .poll(() =>
          page
            .getByRole('progressbar', { name: 'Your progress in this course' })
            .getAttribute('aria-valuenow'),
        )
        .toBe('50');

      // A second tab opens the quiz before the first submits it.
      const otherTab = await page.context().newPage();
      await otherTab.goto(app.baseUrl + paths.quiz(), { waitUntil: 'networkidle' });
      await otherTab.getByRole('button', { name: 'Submit answers' }).waitFor();

      await page.getByRole('link', { name: 'The lungs: quiz' }).click();
      await page.getByRole('heading', { level: 1, name: 'The lungs: quiz' }).waitFor();
      await page.getByRole('button', { name: 'Submit answers' }).click();
      await page.getByText('3 questions need an answer before you submit.').waitFor();
      await page.getByText('Choose one of the answers.').waitFor();
      await page.getByText('Enter a number.').waitFor();
      await page.getByText('Write your answer.').waitFor();
      await app.shot(page, 'quiz-errors-desktop');

      await page.getByRole('radio', { name: 'Nitrogen' }).check();
      await page.getByLabel(/Question 2\./).fill('twelve');
      await page.getByLabel(/Question 3\./).fill('Oxygen diffuses across the thin alveolar wall.');
      await page.getByRole('button', { name: 'Submit answers' }).click();
      await page.getByText('Enter a number, such as 12 or 0.5.').waitFor();
      await page.getByLabel(/Question 2\./).fill('12.3');
      await page.getByRole('button', { name: 'Submit answers' }).click();

      await page.getByRole('heading', { level: 2, name: 'Your result' }).waitFor();
      // The short answer is graded by the answer evaluator at once, with its reason: one wrong,
      // one right and one half-credited answer of three (decision 0223).
      expect(await page.getByTestId('quiz-score').innerText()).toBe('Score: 50%');
      await page.getByText('1 of 3 correct · 1 partly correct (half credit)').waitFor();
      await page.getByText('Nitrogen is inhaled but not absorbed in any useful amount.').waitFor();
      const verdicts = await page.locator('li', { hasText: 'Your answer:' }).allInnerTexts();
      expect(verdicts[0]).toContain('Incorrect');
      expect(verdicts[1]).toContain('Correct');
      expect(verdicts[2]).toContain('Partly correct');
      expect(verdicts[2]).toContain('Partly right: your answer makes 1 of 2 key points.');
      expect(verdicts[2]).toContain('Gases move down their partial-pressure gradient');
      expect(verdicts[2]).toContain(
        'Graded automatically (Built-in offline engine); your instructor may review it.',
      );
      await app.shot(page, 'quiz-result-desktop');
      // The quiz has no attempt left, so its questions may become flashcards with their answers.
      await page.getByRole('button', { name: 'Make a flashcard of question 1' }).click();
      await page.getByText('Question 1 is a flashcard now.').waitFor();
      await page.getByRole('button', { name: 'Flashcard made of question 1' }).waitFor();

      // The stale tab submits too: the procedure's refusal is shown as it is, then the
      // attempt that did count.
      await otherTab.getByRole('radio', { name: 'Oxygen' }).check();
      await otherTab.getByLabel(/Question 2\./).fill('12');
      await otherTab.getByLabel(/Question 3\./).fill('Diffusion.');
      await otherTab.getByRole('button', { name: 'Submit answers' }).click();
      await otherTab.getByText('This quiz has already been submitted', { exact: true }).waitFor();
      await otherTab.getByRole('heading', { level: 2, name: 'Your result' }).waitFor();
      await otherTab.close();

      await page.getByRole('link', { name: 'Back to the course' }).click();
      await page.getByText('Score 50%').waitFor();
      await page.getByRole('link', { name: 'Discussion' }).click();
      await page
        .getByRole('heading', { level: 1, name: 'Discussion: The respiratory system' })
        .waitFor();
      await page.getByText('No one has posted yet.').waitFor();
      await page.getByRole('button', { name: 'Post', exact: true }).click();
      await page.getByText('Write something before posting.').waitFor();
      await page.getByLabel('Start a new thread').fill('Why do we breathe faster when running?');
      await page.getByRole('button', { name: 'Post', exact: true }).click();
      await page.getByText('Thread posted.').waitFor();
      await page.getByRole('button', { name: 'Reply' }).click();
      await page.getByLabel('Your reply').fill('The muscles need more oxygen.');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await page.getByText('Reply posted.').waitFor();
      await page.getByText('The muscles need more oxygen.').waitFor();
      await page
        .getByRole('list', { name: 'Replies' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await page.getByText('Post deleted.').waitFor();
      await expect.poll(() => page.getByText('The muscles need more oxygen.').count()).toBe(0);
      await page.getByText('Why do we breathe faster when running?').waitFor();

      await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
      await page.getByRole('heading', { level: 2, name: 'Your courses' }).waitFor();
      await page.getByRole('link', { name: 'The lungs: quiz' }).waitFor();
      await page.getByRole('link', { name: 'Continue lesson' }).waitFor();
      await app.shot(page, 'dashboard-filled-desktop');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/login$/);
      await page.goto(app.baseUrl + paths.course(), { waitUntil: 'networkidle' });
      await page.waitForURL(/\/login\?next=/);
    } finally {
      await page.context().close();
    }
  });

  it('shows a user with no organization Personal mode and public courses only', async () => {
    const page = await app.signedInPage('mobile', world.personal.email, paths.library);
    try {
      await page.getByRole('heading', { level: 1, name: 'Course library' }).waitFor();
      await page.getByText('Public courses you can enrol in yourself.').waitFor();
      await page.getByRole('link', { name: 'Open lecture: cell biology' }).waitFor();
      expect(await page.getByRole('link', { name: 'The respiratory system' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Toggle app navigation' }).click();
      await page.getByRole('dialog').getByText('Personal mode').waitFor();
      await app.shot(page, 'personal-nav-mobile');
      await page.keyboard.press('Escape');

      // An organization's course page, not open to this user: no content, a clear message.
      await page.goto(app.baseUrl + paths.course(), { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1, name: 'Course not found' }).waitFor();
    } finally {
      await page.context().close();
    }
  });
});

describe('every learner screen', () => {
  const screens: [string, () => string, string | RegExp][] = [
    ['dashboard', () => '/app', 'Dashboard'],
    ['library', () => paths.library, 'Course library'],
    ['course', paths.course, 'The respiratory system'],
    ['lesson', paths.lesson, 'Breathing'],
    ['video-lesson', paths.video, 'Watching the diaphragm'],
    ['quiz', paths.quiz, 'The lungs: quiz'],
    ['discussion', paths.discussion, 'Discussion: The respiratory system'],
  ];

  it.each(screens)(
    '%s has no serious axe violations at 390 and 1280 px',
    async (name, path, heading) => {
      await app.expectNoSeriousAxeViolations(world.learner.email, path(), name, heading);
    },
  );
});
