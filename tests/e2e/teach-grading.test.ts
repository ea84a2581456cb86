/**
 * The instructor's teaching screens in headless Chromium against the built app, on this
 * file's own server and database: the progress table (sorted, filtered, paged, exported as
 * CSV), a goal for a learner, an assignment, and grading a short answer that the learner then
 * sees with its feedback; axe on every screen at 390 and 1280 px.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow, questionRow } from '../integration/learning-fixture';
import { password, startAppBrowser, type AppBrowser } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';
import { testClient } from '../support/test-server';

/** Learners beyond the named ones, so the table has a second page. */
const EXTRA_LEARNERS = 28;
const FEEDBACK = 'Well explained: next time name the capillaries too.';

let app: AppBrowser;

interface TaughtCourse {
  id: string;
  module: string;
  lessons: string[];
  quiz: string;
  /** The quiz's questions: multiple choice, then short text. */
  questions: [string, string];
}

interface World {
  org: string;
  instructor: { id: string; email: string };
  ada: { id: string; email: string };
  bea: { id: string; email: string };
  course: string;
  quiz: string;
  adaAttempt: string;
  beaAttempt: string;
}
let world: World;

/** A supabase-js client signed in as the user, as the browser would be. */
async function signedInClient(email: string) {
  const client = testClient(app.server, app.server.deps.keys.anonKey);
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw new Error(signIn.error.message);
  return testClient(app.server, app.server.deps.keys.anonKey, signIn.data.session.access_token);
}

/** Signs the learner in through supabase-js and submits the quiz with a short answer. */
async function submitQuiz(email: string, course: TaughtCourse, text: string) {
  const learner = await signedInClient(email);
  const { data, error } = await learner.rpc('submit_assessment_attempt', {
    assessment_id: course.quiz,
    answers: { [course.questions[0]]: { choice: 'a' }, [course.questions[1]]: { text } },
  });
  if (error) throw new Error(error.message);
  return (data as { id: string }).id;
}

/**
 * A published course of the organization that the instructor teaches: one module with two
 * Markdown lessons, and a quiz of a multiple-choice and a short-text question.
 */
async function buildCourse(
  org: string,
  instructor: string,
  title: string,
  moduleTitle: string,
): Promise<TaughtCourse> {
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org,
    title,
    subject: 'Human anatomy',
    published: true,
    visibility: 'organization',
  });
  await insertRow(app.service, 'course_instructors', { course_id: course.id, user_id: instructor });
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course.id,
    position: 1,
    title: moduleTitle,
  });
  const lessons: string[] = [];
  for (const [i, lessonTitle] of ['Breathing', 'Gas exchange'].entries()) {
    const lesson = await insertRow<{ id: string }>(app.service, 'lessons', {
      module_id: module.id,
      course_id: course.id,
      position: i + 1,
      title: lessonTitle,
      kind: 'markdown',
      body: `# ${lessonTitle}\n\nAir enters through the trachea.`,
      estimated_minutes: 8,
    });
    lessons.push(lesson.id);
  }
  const mc = await insertRow<{ id: string }>(
    app.service,
    'questions',
    questionRow(course.id, module.id, 'gas-exchange'),
  );
  const short = await insertRow<{ id: string }>(
    app.service,
    'questions',
    questionRow(course.id, module.id, 'alveoli', 'short_text'),
  );
  const quiz = await insertRow<{ id: string }>(app.service, 'assessments', {
    course_id: course.id,
    module_id: module.id,
    title: `${moduleTitle}: quiz`,
    published: true,
  });
  for (const [position, question] of [mc, short].entries()) {
    await insertRow(app.service, 'assessment_questions', {
      assessment_id: quiz.id,
      question_id: question.id,
      course_id: course.id,
      position: position + 1,
    });
  }
  return { id: course.id, module: module.id, lessons, quiz: quiz.id, questions: [mc.id, short.id] };
}

/** Makes the user an active learner of the organization, enrolled in the course. */
async function enrol(org: string, user: string, course: string) {
  await insertRow(app.service, 'memberships', {
    user_id: user,
    organization_id: org,
    role: 'learner',
  });
  await insertRow(app.service, 'enrollments', { user_id: user, course_id: course });
}

async function buildWorld(): Promise<World> {
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Teaching Test University',
    slug: `teach-${Date.now().toString(36)}`,
  });
  const instructor = await app.createUser('instructor', 'Ivy Instructor');
  const ada = await app.createUser('ada', 'Ada Student');
  const bea = await app.createUser('bea', 'Bea Second');
  const cy = await app.createUser('cy', 'Cy Complete');
  // A name a spreadsheet would run as a formula, were the export not guarded.
  const formula = await app.createUser('formula', '=HYPERLINK("http://evil.example","x")');
  await insertRow(app.service, 'memberships', {
    user_id: instructor.id,
    organization_id: org.id,
    role: 'instructor',
  });
  const course = await buildCourse(org.id, instructor.id, 'The respiratory system', 'The lungs');
  for (const learner of [ada, bea, cy, formula]) await enrol(org.id, learner.id, course.id);
  // The extra learners are written in SQL: thousands of password hashes would only cost time.
  await app.server.deps.db.query(
    `with made as (
       insert into auth.users (id, email, raw_user_meta_data)
       select gen_random_uuid(), 'extra' || g || '.' || $2 || '@example.com',
              jsonb_build_object('full_name', 'Extra Learner ' || lpad(g::text, 2, '0'))
         from generate_series(1, $1::int) g
       returning id
     )
     insert into public.enrollments (user_id, course_id) select id, $3 from made`,
    [EXTRA_LEARNERS, Date.now().toString(36), course.id],
  );
  const progress = (user: string, lesson: string, status: string, seconds: number) =>
    insertRow(app.service, 'lesson_progress', {
      user_id: user,
      lesson_id: lesson,
      course_id: course.id,
      status,
      time_spent_seconds: seconds,
      completed_at: status === 'completed' ? new Date().toISOString() : null,
    });
  await progress(ada.id, course.lessons[0]!, 'completed', 600);
  await progress(bea.id, course.lessons[0]!, 'in_progress', 120);
  await progress(cy.id, course.lessons[0]!, 'completed', 900);
  await progress(cy.id, course.lessons[1]!, 'completed', 840);

  const adaAttempt = await submitQuiz(
    ada.email,
    course,
    'Oxygen diffuses across the thin alveolar wall into the blood.',
  );
  const beaAttempt = await submitQuiz(bea.email, course, 'Through the lungs.');
  return {
    org: org.id,
    instructor,
    ada,
    bea,
    course: course.id,
    quiz: course.quiz,
    adaAttempt,
    beaAttempt,
  };
}

beforeAll(async () => {
  app = await startAppBrowser('teach-grading');
  world = await buildWorld();
}, 180_000);

afterAll(() => app?.close());

const firstRowName = (page: Page) => page.locator('tbody tr').first().locator('td').first();

describe('an instructor end to end', () => {
  it('reads, sorts, filters and exports the progress table, sets a goal and an assignment, and grades', async () => {
    const page = await app.freshSignIn('desktop', world.instructor.email, '/app');
    try {
      await page.getByRole('link', { name: 'Teaching', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Teaching' }).waitFor();
      await page.getByText(`${EXTRA_LEARNERS + 4} learners`).waitFor();
      await page.getByText('2 to grade').waitFor();
      await page.getByRole('link', { name: 'The respiratory system', exact: true }).click();

      await page.getByRole('heading', { level: 1, name: 'The respiratory system' }).waitFor();
      await page.getByText(`${EXTRA_LEARNERS + 4} learners · page 1 of 2`).waitFor();
      expect(await page.locator('tbody tr').count()).toBe(25);

      // Sort by percent: ascending first, descending on the second click.
      await page.getByRole('button', { name: /^Percent/ }).click();
      await page.waitForURL(/sort=percent/);
      await page.getByRole('button', { name: /^Percent/ }).click();
      await page.waitForURL(/dir=desc/);
      // The sorted page replaces the unsorted one when its query answers.
      await expect.poll(() => firstRowName(page).textContent()).toBe('Cy Complete');
      expect(
        await page.getByRole('columnheader', { name: /Percent/ }).getAttribute('aria-sort'),
      ).toBe('descending');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText(`${EXTRA_LEARNERS + 4} learners · page 2 of 2`).waitFor();
      expect(await page.locator('tbody tr').count()).toBe(EXTRA_LEARNERS + 4 - 25);

      // Filter: a search by name, then a status.
      await page.getByLabel('Search by name or email').fill('student');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('1 learner match · page 1 of 1').waitFor();
      const adaRow = page.locator('tbody tr').first();
      expect(await adaRow.locator('td').nth(0).textContent()).toBe('Ada Student');
      expect(await adaRow.locator('td').nth(3).textContent()).toBe('1 of 2');
      expect(await adaRow.locator('td').nth(8).textContent()).toContain('1');

      await page.getByLabel('Search by name or email').fill('');
      await page.getByLabel('Status').selectOption('completed');
      await page.getByRole('button', { name: 'Apply' }).click();
      // The search above also matched one learner: the same count shows until the status
      // filter's page replaces it, so wait for the row itself.
      await expect.poll(() => firstRowName(page).textContent()).toBe('Cy Complete');
      await page.getByText('1 learner match · page 1 of 1').waitFor();

      await page.getByLabel('Status').selectOption('not_started');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText(`${EXTRA_LEARNERS + 1} learners match · page 1 of 2`).waitFor();

      // Export: every row the filter selects, not only the page on screen.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(
        /^the-respiratory-system-progress-\d{4}-\d{2}-\d{2}\.csv$/,
      );
      const csv = fs.readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      const lines = csv.split('\r\n');
      expect(lines[0]).toBe(
        'Name,Email,Status,Lessons completed,Lessons total,Percent,Time spent (minutes),Last activity,Average quiz score,Attempts awaiting grading',
      );
      expect(lines).toHaveLength(EXTRA_LEARNERS + 1 + 2);
      expect(lines.every((line, i) => i === 0 || line === '' || line.includes('Not started'))).toBe(
        true,
      );
      expect(lines.filter((line) => line.includes('HYPERLINK'))).toEqual([
        expect.stringMatching(/^"'=HYPERLINK\(""http:\/\/evil\.example"",""x""\)",formula\./),
      ]);
      await page.getByText(`Exported ${EXTRA_LEARNERS + 1} learners as CSV.`).waitFor();

      // A goal for Ada.
      await page.getByLabel('Status').selectOption('');
      await page.getByLabel('Search by name or email').fill('Ada Student');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('1 learner match').waitFor();
      await page.getByRole('button', { name: 'Goals for Ada Student' }).click();
      const dialog = page.getByRole('dialog', { name: 'Goals for Ada Student' });
      await dialog.getByText('No goal in this course yet').waitFor();
      await dialog.getByLabel('Goal', { exact: true }).selectOption('complete_module');
      await dialog.getByRole('button', { name: 'Set goal' }).click();
      await dialog.getByText('Choose the module.').waitFor();
      await dialog.getByLabel('Module').selectOption({ label: '1. The lungs' });
      await dialog.getByLabel('By (optional)').fill('2030-06-01');
      await dialog.getByRole('button', { name: 'Set goal' }).click();
      await page.getByText('Goal set.').waitFor();
      await dialog.getByText('Complete the module “The lungs”', { exact: true }).waitFor();
      await dialog.getByText('By 1 Jun 2030').waitFor();
      const goal = await app.service
        .from('goals')
        .select('user_id, kind, set_by, due_on')
        .eq('user_id', world.ada.id)
        .single();
      expect(goal.data).toEqual({
        user_id: world.ada.id,
        kind: 'complete_module',
        set_by: world.instructor.id,
        due_on: '2030-06-01',
      });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // An assignment for every learner.
      await page.getByRole('link', { name: 'Assignments' }).click();
      await page.getByRole('heading', { level: 1, name: 'Assignments' }).waitFor();
      await page.getByText('No assignment yet').waitFor();
      await page.getByRole('button', { name: 'Assign to every learner' }).click();
      await page.getByText('Choose the lesson or quiz to assign.').waitFor();
      await page.getByText('Choose when it is due.').waitFor();
      await page.getByLabel('Lesson or quiz').selectOption({ label: 'Lesson: Gas exchange' });
      expect(await page.getByLabel('Title').inputValue()).toBe('Gas exchange');
      const due = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 16);
      await page.getByLabel('Due').fill(due);
      await page.getByRole('button', { name: 'Assign to every learner' }).click();
      await page.getByText('Assigned “Gas exchange”.').waitFor();
      await page.getByText(/Lesson: Gas exchange · due/).waitFor();

      // Grading: Ada's attempt is the older one.
      await page.getByRole('link', { name: 'Grading', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Grading' }).waitFor();
      await page.getByText('2 attempts await grading').waitFor();
      await page.getByRole('link', { name: /^Grade Ada Student/ }).click();
      await page.waitForURL(`${app.baseUrl}/app/teaching/grading/${world.adaAttempt}`);
      await page.getByRole('heading', { level: 1, name: 'The lungs: quiz' }).waitFor();
      const short = page.getByRole('article', { name: /^Question 2\./ });
      await short
        .getByText('Oxygen diffuses across the thin alveolar wall into the blood.')
        .waitFor();
      await short.getByText('Gas exchange across the alveolar wall.').waitFor();
      await short.getByText('Gases move down their partial-pressure gradient').waitFor();
      await page.getByRole('button', { name: 'Save grade' }).click();
      await page.getByText('Mark this answer correct, partly correct or incorrect.').waitFor();
      await page.getByRole('radio', { name: 'Correct', exact: true }).check();
      await page.getByLabel('Written feedback (optional)').fill(FEEDBACK);
      await page.getByRole('button', { name: 'Save grade' }).click();
      await page.getByText('Graded: Ada Student scored 100%.').waitFor();
      await page.waitForURL(`${app.baseUrl}/app/teaching/grading`);
      await page.getByText('1 attempt awaits grading').waitFor();

      // The attempt reopened shows it graded, with no way to grade it again.
      await page.goto(`${app.baseUrl}/app/teaching/grading/${world.adaAttempt}`, {
        waitUntil: 'networkidle',
      });
      await page.getByText('This attempt has been graded: 100%.').waitFor();
      expect(await page.getByRole('button', { name: 'Save grade' }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('shows a learner their graded score with the feedback, and an assignment on their dashboard', async () => {
    // This test's own learner, course, graded attempt and assignment, made through the API the
    // screens use, so it runs alone (-t) and leaves the other test's course untouched.
    const dee = await app.createUser('dee', 'Dee Learner');
    const course = await buildCourse(world.org, world.instructor.id, 'The heart', 'Circulation');
    await enrol(world.org, dee.id, course.id);
    const attempt = await submitQuiz(dee.email, course, 'Across the alveolar wall.');
    const instructor = await signedInClient(world.instructor.email);
    const graded = await instructor.rpc('grade_assessment_attempt', {
      attempt_id: attempt,
      verdicts: { [course.questions[1]]: true },
      feedback: FEEDBACK,
    });
    expect(graded.error).toBeNull();
    const assigned = await instructor.from('assignments').insert({
      course_id: course.id,
      lesson_id: course.lessons[1],
      title: 'Read about the pulse',
      due_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    expect(assigned.error).toBeNull();

    const page = await app.freshSignIn(
      'desktop',
      dee.email,
      `/app/courses/${course.id}/quizzes/${course.quiz}`,
    );
    try {
      await page.getByRole('heading', { level: 1, name: 'Circulation: quiz' }).waitFor();
      expect(await page.getByTestId('quiz-score').textContent()).toBe('Score: 100%');
      await page.getByText(`Your instructor: ${FEEDBACK}`).waitFor();
      await app.shot(page, 'learner-quiz-feedback-desktop');
      await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
      await page
        .getByRole('region', { name: 'Assignments due' })
        .getByText('Read about the pulse')
        .waitFor();
    } finally {
      await page.context().close();
    }
  });

  it("reviews a short answer the evaluator graded, overrides it, and the learner sees the instructor's verdict", async () => {
    const eve = await app.createUser('eve', 'Eve Evaluated');
    const course = await buildCourse(world.org, world.instructor.id, 'The kidneys', 'Filtering');
    await enrol(world.org, eve.id, course.id);
    const learner = await signedInClient(eve.email);
    const submitted = await learner.functions.invoke('submit-quiz', {
      body: {
        assessment_id: course.quiz,
        answers: {
          [course.questions[0]]: { choice: 'a' },
          [course.questions[1]]: { text: 'Oxygen diffuses across the thin alveolar wall.' },
        },
      },
    });
    expect(submitted.error).toBeNull();
    const attempt = (submitted.data as { id: string }).id;

    const page = await app.freshSignIn('desktop', world.instructor.email, '/app/teaching/grading');
    try {
      await page.getByRole('link', { name: 'Graded automatically' }).click();
      await page.waitForURL(/view=evaluated/);
      await page.getByText('1 answer graded automatically').waitFor();
      await app.shot(page, 'grading-evaluated-desktop');
      await page.getByRole('link', { name: /^Review Eve Evaluated/ }).click();
      await page.waitForURL(`${app.baseUrl}/app/teaching/grading/${attempt}`);
      const short = page.getByRole('article', { name: /^Question 2\./ });
      await short
        .getByText('Answer evaluator (Built-in offline engine): Partly correct.', { exact: false })
        .waitFor();
      await short.getByText(/Partly right: your answer makes 1 of 2 key points\./).waitFor();
      expect(await short.getByRole('radio', { name: 'Partly correct' }).isChecked()).toBe(true);
      await app.shot(page, 'grade-evaluated-desktop');
      await short.getByRole('radio', { name: 'Correct', exact: true }).check();
      await page.getByRole('button', { name: 'Save review' }).click();
      await page.getByText('Graded: Eve Evaluated scored 100%.').waitFor();
    } finally {
      await page.context().close();
    }

    const seen = await app.freshSignIn(
      'desktop',
      eve.email,
      `/app/courses/${course.id}/quizzes/${course.quiz}`,
    );
    try {
      await seen.getByRole('heading', { level: 1, name: 'Filtering: quiz' }).waitFor();
      expect(await seen.getByTestId('quiz-score').textContent()).toBe('Score: 100%');
      const verdicts = await seen.locator('li', { hasText: 'Your answer:' }).allInnerTexts();
      expect(verdicts[1]).toContain('Correct');
      expect(verdicts[1]).toContain('Graded by your instructor.');
      expect(verdicts[1]).not.toContain('Partly right');
    } finally {
      await seen.context().close();
    }
  });

  it('sends a grader to a clear message for an attempt that does not exist', async () => {
    const page = await app.signedInPage(
      'desktop',
      world.instructor.email,
      '/app/teaching/grading/00000000-0000-4000-8000-000000000000',
    );
    try {
      await page.getByText('Could not open this attempt: No quiz attempt has this id').waitFor();
    } finally {
      await page.context().close();
    }
  });
});

describe('accessibility', () => {
  const screens: [string, () => string, string][] = [
    ['teaching', () => '/app/teaching', 'Teaching'],
    ['progress', () => `/app/teaching/courses/${world.course}`, 'The respiratory system'],
    ['assignments', () => `/app/teaching/courses/${world.course}/assignments`, 'Assignments'],
    ['grading-queue', () => '/app/teaching/grading', 'Grading'],
    ['grade-attempt', () => `/app/teaching/grading/${world.beaAttempt}`, 'The lungs: quiz'],
    ['grading-evaluated', () => '/app/teaching/grading?view=evaluated', 'Grading'],
  ];

  it.each(screens)(
    '%s has no serious axe violations at 390 and 1280 px',
    async (name, path, heading) => {
      await app.expectNoSeriousAxeViolations(world.instructor.email, path(), name, heading);
    },
  );

  it('the goals dialog has no serious axe violations at 390 and 1280 px', async () => {
    // Bea's own goal, so the dialog shows one whatever else has run.
    await insertRow(app.service, 'goals', {
      user_id: world.bea.id,
      course_id: world.course,
      set_by: world.instructor.id,
      kind: 'complete_course',
      title: 'Complete The respiratory system',
    });
    for (const viewport of ['mobile', 'desktop'] as const) {
      const page = await app.signedInPage(
        viewport,
        world.instructor.email,
        `/app/teaching/courses/${world.course}?q=second`,
      );
      try {
        await page.getByRole('button', { name: 'Goals for Bea Second' }).click();
        const dialog = page.getByRole('dialog', { name: 'Goals for Bea Second' });
        await dialog.getByText('Complete The respiratory system', { exact: true }).waitFor();
        expect(await seriousAxeViolations(page), `goals dialog at ${viewport}`).toEqual([]);
        await app.shot(page, `goals-dialog-${viewport}`);
      } finally {
        await page.context().close();
      }
    }
  });
});
