/**
 * The instructor's course editor in headless Chromium against the built app, on this file's
 * own server and database: an instructor creates a course, adds modules, a Markdown lesson
 * (refused over 1 MB, scripts and unsafe links never run) and a video lesson, reorders by
 * keyboard and by drag and drop, moves a lesson to another module by keyboard, writes a bank question with every field and a quiz; a student then sees the
 * course in that order. axe on every editor screen at 390 and 1280 px; screenshots are saved
 * in SCREENSHOTS_DIR/teach-course-editor when it is set, for looking at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser } from '../support/app-browser';
import { seriousAxeViolations, viewports } from '../support/browser';

let app: AppBrowser;
let instructor: { id: string; email: string };
let learner: { id: string; email: string };

beforeAll(async () => {
  app = await startAppBrowser('teach-course-editor');
  instructor = await app.createUser('instructor', 'Ines Instructor');
  learner = await app.createUser('learner', 'Ada Student');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Editor Test University',
    slug: `editor-${Date.now().toString(36)}`,
  });
  await insertRow(app.service, 'memberships', {
    user_id: instructor.id,
    organization_id: org.id,
    role: 'instructor',
  });
  await insertRow(app.service, 'memberships', {
    user_id: learner.id,
    organization_id: org.id,
    role: 'learner',
  });
}, 180_000);

afterAll(() => app?.close());

/** Addresses of every editor screen the build visits, for axe and screenshots afterwards. */
const screens: Record<string, string> = {};

describe('the course editor', () => {
  let courseId = '';

  it('shows an instructor with no course what to do next', async () => {
    const page = await app.signedInPage('desktop', instructor.email, '/app');
    try {
      await page.getByRole('link', { name: 'Course Editor' }).click();
      await page.getByRole('heading', { level: 1, name: 'Course editor' }).waitFor();
      await page.getByText('You do not teach a course here yet.').waitFor();
      screens['courses-empty'] = '/app/course-editor';
    } finally {
      await page.context().close();
    }
  });

  it('lets an instructor build a course, reorder it by keyboard and write its bank', async () => {
    const page = await app.signedInPage('desktop', instructor.email, '/app/course-editor');
    try {
      await page.getByRole('link', { name: 'Create your first course' }).click();
      await page.getByRole('heading', { level: 1, name: 'New course' }).waitFor();
      screens['course-new'] = '/app/course-editor/new';

      // The form refuses an empty title before sending anything.
      await page.getByRole('button', { name: 'Create course' }).click();
      await page.getByText('Give the course a title.').waitFor();
      await page.getByLabel('Title').fill('Cell biology basics');
      await page.getByLabel('Subject').fill('Biology');
      await page.getByLabel('Description').fill('What cells are made of and how they work.');
      await page.getByLabel('Who can find it').selectOption('organization');
      await page.getByLabel('Published').check();
      await page.getByRole('button', { name: 'Create course' }).click();
      await page.getByText('Course “Cell biology basics” created.').waitFor();
      await page.waitForURL(/\/app\/course-editor\/[0-9a-f-]{36}$/);
      courseId = page.url().split('/').pop()!;
      screens['course-editor'] = `/app/course-editor/${courseId}`;
      await page.getByText('This course has no modules yet.').waitFor();

      for (const title of ['Membranes', 'Cells']) {
        await page.getByLabel('New module title').fill(title);
        await page.getByRole('button', { name: 'Add module' }).click();
        await page.getByText(`Module “${title}” added.`).waitFor();
        await page.getByRole('heading', { level: 3, name: title }).waitFor();
      }

      // A Markdown lesson: refused over 1 MB, previewed safely, then saved.
      await page.getByRole('link', { name: 'Add a lesson to “Membranes”' }).click();
      await page.getByRole('heading', { level: 1, name: 'New lesson' }).waitFor();
      await page.getByLabel('Title').fill('The cell membrane');
      await page.getByLabel('Minutes').fill('12');
      const body = page.getByLabel('Text (Markdown)');
      await body.fill('x'.repeat(1_048_577));
      await page.getByRole('button', { name: 'Add lesson' }).click();
      await page
        .getByText(
          'Markdown is limited to 1 MB (1,048,576 bytes); this text is 1,048,577 bytes. Split it into two lessons.',
        )
        .waitFor();
      await body.fill(
        [
          '# A thin barrier',
          '',
          'The membrane is a **lipid bilayer**.',
          '',
          '<script>window.__injected = true</script>',
          '',
          '[Read more](javascript:alert(1)) or [the glossary](https://example.org/).',
        ].join('\n'),
      );
      const preview = page.getByRole('region', { name: 'Preview' });
      await preview.getByRole('heading', { name: 'A thin barrier' }).waitFor();
      await preview.getByText('<script>window.__injected = true</script>').waitFor();
      expect(await preview.locator('a[href^="javascript"]').count()).toBe(0);
      expect(await preview.getByRole('link', { name: 'the glossary' }).getAttribute('href')).toBe(
        'https://example.org/',
      );
      expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBe(
        undefined,
      );
      await page.getByRole('button', { name: 'Add lesson' }).click();
      await page.getByText('Lesson “The cell membrane” added.').waitFor();
      await page.waitForURL(/\/lessons\/[0-9a-f-]{36}$/);
      screens['lesson-editor'] = new URL(page.url()).pathname;

      // A video lesson: an address the lesson page cannot play is refused.
      await page.goto(`${app.baseUrl}/app/course-editor/${courseId}`, { waitUntil: 'networkidle' });
      await page.getByRole('link', { name: 'Add a lesson to “Membranes”' }).click();
      await page.getByRole('heading', { level: 1, name: 'New lesson' }).waitFor();
      await page.getByLabel('Title').fill('Transport across the membrane');
      await page.getByLabel('Kind').selectOption('video');
      await page.getByLabel('Video address').fill('http://example.org/film');
      await page.getByRole('button', { name: 'Add lesson' }).click();
      await page.getByText('Use an https:// address without spaces.').waitFor();
      await page.getByLabel('Video address').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
      await page.getByText('Students watch it in the YouTube player').waitFor();
      await page.getByRole('button', { name: 'Add lesson' }).click();
      await page.getByText('Lesson “Transport across the membrane” added.').waitFor();

      // Reorder by keyboard: the announcement says where each went and focus stays put.
      await page.goto(`${app.baseUrl}/app/course-editor/${courseId}`, { waitUntil: 'networkidle' });
      const moveLessonUp = page.getByRole('button', {
        name: 'Move lesson “Transport across the membrane” up',
      });
      await moveLessonUp.focus();
      await page.keyboard.press('Enter');
      await page
        .getByText(
          'Lesson “Transport across the membrane” moved to position 1 of 2 in “Membranes”.',
        )
        .waitFor();
      await page.getByText('Lesson order saved.').waitFor();
      // Now first, its up button is disabled, so focus moved to its down button.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
        .toBe('Move lesson “Transport across the membrane” down');

      // And by drag and drop: the cell membrane's grip onto the first lesson's row.
      const lessons = page.getByRole('list', { name: 'Lessons of Membranes' }).locator('li');
      await lessons.nth(1).locator('[title="Drag to reorder"]').dragTo(lessons.nth(0));
      await page
        .getByText('Lesson “The cell membrane” moved to position 1 of 2 in “Membranes”.')
        .waitFor();
      await expect
        .poll(() => lessons.allInnerTexts())
        .toEqual([
          expect.stringContaining('The cell membrane'),
          expect.stringContaining('Transport across the membrane'),
        ]);

      await page.getByRole('button', { name: 'Move module “Cells” up' }).focus();
      await page.keyboard.press('Space');
      await page.getByText('Module “Cells” moved to position 1 of 2.').waitFor();
      await page.getByText('Module order saved.').waitFor();
      const modules = page.getByRole('list', { name: 'Modules' }).locator(':scope > li');
      await expect
        .poll(() => modules.allInnerTexts())
        .toEqual([expect.stringContaining('Cells'), expect.stringContaining('Membranes')]);

      // A lesson into another module by keyboard, with its "Move to module" list: the
      // announcement says where it went and focus stays on the list in its new place.
      const moveTransport = page.getByRole('combobox', {
        name: 'Move lesson “Transport across the membrane” to module',
      });
      const focusedLabel = () =>
        page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
      // Read from the database, which the move reaches after the screen shows it.
      const lessonModule = async () => {
        const { data } = await app.service
          .from('lessons')
          .select('module:modules(title)')
          .eq('course_id', courseId)
          .eq('title', 'Transport across the membrane')
          .single();
        return (data as unknown as { module: { title: string } }).module.title;
      };
      await moveTransport.focus();
      await page.keyboard.press('ArrowDown');
      await page
        .getByText('Lesson “Transport across the membrane” moved to “Cells”, position 1 of 1.')
        .waitFor();
      await expect
        .poll(() =>
          page.getByRole('list', { name: 'Lessons of Cells' }).locator('li').allInnerTexts(),
        )
        .toEqual([expect.stringContaining('Transport across the membrane')]);
      await expect.poll(focusedLabel).toBe('Move lesson “Transport across the membrane” to module');
      await expect.poll(lessonModule).toBe('Cells');
      await app.shot(page, 'lesson-moved-to-module');
      // And back, still by keyboard: it goes to the end of “Membranes”.
      await page.keyboard.press('ArrowDown');
      await page
        .getByText('Lesson “Transport across the membrane” moved to “Membranes”, position 2 of 2.')
        .waitFor();
      await expect
        .poll(() => lessons.allInnerTexts())
        .toEqual([
          expect.stringContaining('The cell membrane'),
          expect.stringContaining('Transport across the membrane'),
        ]);
      await expect.poll(focusedLabel).toBe('Move lesson “Transport across the membrane” to module');
      await expect.poll(lessonModule).toBe('Membranes');

      // A bank question with every field; the empty form first shows where the gaps are.
      await page.getByRole('link', { name: 'Questions and quizzes (0, 0) of “Membranes”' }).click();
      await page.getByText('This module’s bank is empty.').waitFor();
      screens['module-bank-empty'] = new URL(page.url()).pathname;
      await page.getByRole('link', { name: 'New question' }).click();
      await page.getByRole('heading', { level: 1, name: 'New question' }).waitFor();
      screens['question-new'] = new URL(page.url()).pathname;
      await page.getByRole('button', { name: 'Add to the bank' }).click();
      await page.getByText('Write the question.').first().waitFor();
      await page.getByText('Mark the correct choice.').waitFor();
      await page.getByText('Write this hint, or remove it.').first().waitFor();
      await page.getByText('Write the prerequisite concept.').waitFor();

      await page.getByLabel('Question', { exact: true }).fill('What is a cell membrane made of?');
      await page.getByLabel('Choice A', { exact: true }).fill('Cellulose');
      await page.getByLabel('Choice B', { exact: true }).fill('A lipid bilayer with proteins');
      await page.getByLabel('Choice C', { exact: true }).fill('Starch');
      await page.getByRole('button', { name: 'Add choice' }).click();
      await page.getByLabel('Choice D', { exact: true }).fill('Keratin');
      await page.getByLabel('Correct answer: choice B', { exact: true }).check();
      await page.getByLabel('Difficulty', { exact: true }).selectOption('2');
      await page.getByLabel('Key point 1', { exact: true }).fill('Two layers of phospholipids');
      await page.getByLabel('Key point 2', { exact: true }).fill('Proteins sit in and across it');
      await page.getByLabel('Hint 1', { exact: true }).fill('Think of fats.');
      await page.getByLabel('Hint 2', { exact: true }).fill('Two layers, heads outward.');
      await page.getByRole('button', { name: 'Move hint 2 up' }).click();
      await page
        .getByLabel('Worked example', { exact: true })
        .fill('A cell wall, by contrast, is cellulose.');
      await page
        .getByLabel('What students think', { exact: true })
        .fill('Membranes are made of cellulose');
      await page
        .getByLabel('Feedback', { exact: true })
        .fill('Cellulose makes plant cell walls, not membranes.');
      await page.getByLabel('Shown for the choice', { exact: true }).selectOption('a');
      await page.getByLabel('Concept', { exact: true }).fill('Lipids');
      await page
        .getByLabel('Refresher lesson', { exact: true })
        .fill('Lipids are fats; they do not mix with water.');
      await page.getByLabel('Basic question 1', { exact: true }).fill('Do lipids mix with water?');
      await page.getByLabel('Reference answer', { exact: true }).nth(0).fill('No');
      await page.getByLabel('Basic question 2', { exact: true }).fill('Name a lipid.');
      await page.getByLabel('Reference answer', { exact: true }).nth(1).fill('A phospholipid');
      await page.getByRole('button', { name: 'Add to the bank' }).click();
      await page.getByText('Question added to the bank.').waitFor();
      await page.waitForURL(/\/questions\/[0-9a-f-]{36}$/);
      screens['question-editor'] = new URL(page.url()).pathname;
      // Saved with every field, hints in the order chosen.
      const { data: stored } = await app.service
        .from('questions')
        .select('type, answer, hints, misconceptions, difficulty, prerequisite, choices')
        .eq('course_id', courseId)
        .single();
      expect(stored).toMatchObject({
        type: 'multiple_choice',
        answer: { choice: 'b' },
        hints: ['Two layers, heads outward.', 'Think of fats.'],
        misconceptions: [{ choice: 'a' }],
        difficulty: 2,
        prerequisite: { concept: 'Lipids', questions: [{ type: 'short_text' }, {}] },
      });
      expect((stored as { choices: unknown[] }).choices).toHaveLength(4);

      // A quiz drawn from the bank.
      await page.getByRole('link', { name: 'Questions and quizzes' }).click();
      await page.getByRole('link', { name: 'New quiz' }).click();
      await page.getByRole('heading', { level: 1, name: 'New quiz' }).waitFor();
      screens['quiz-new'] = new URL(page.url()).pathname;
      await page.getByLabel('Title').fill('Membranes check');
      await page.getByLabel('Published').check();
      await page.getByRole('button', { name: 'Create quiz' }).click();
      await page.getByText('Choose at least one question before publishing the quiz.').waitFor();
      await page.getByLabel(/What is a cell membrane made of\?/).check();
      await page.getByRole('button', { name: 'Create quiz' }).click();
      await page.getByText('Quiz “Membranes check” created.').waitFor();
      await page.waitForURL(/\/quizzes\/[0-9a-f-]{36}$/);
      screens['quiz-editor'] = new URL(page.url()).pathname;
      await page.getByRole('link', { name: 'Questions and quizzes' }).click();
      await page.getByRole('link', { name: 'Membranes check' }).waitFor();
      screens['module-bank'] = new URL(page.url()).pathname;

      // The course page links back to the editor for those who may edit.
      await page.goto(`${app.baseUrl}/app/course-editor/${courseId}`, { waitUntil: 'networkidle' });
      await page.getByRole('link', { name: 'View as a student' }).click();
      await page.getByRole('link', { name: 'Edit course' }).click();
      await page.waitForURL(`${app.baseUrl}/app/course-editor/${courseId}`);
    } finally {
      await page.context().close();
    }
  });

  it('shows the student the course as it was built, with scripts never run', async () => {
    await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: courseId });
    const page = await app.signedInPage('desktop', learner.email, `/app/courses/${courseId}`);
    try {
      await page.getByRole('heading', { level: 1, name: 'Cell biology basics' }).waitFor();
      const text = await page.locator('main').innerText();
      const order = ['Cells', 'Membranes', 'The cell membrane', 'Transport across the membrane'];
      const positions = order.map((t) => text.indexOf(t));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      await page.getByText('Membranes check').waitFor();
      // A student has no way into the editor.
      expect(await page.getByRole('link', { name: 'Course Editor' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Edit course' }).count()).toBe(0);
      await page.getByRole('link', { name: 'The cell membrane' }).click();
      await page.getByRole('heading', { name: 'A thin barrier' }).waitFor();
      expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBe(
        undefined,
      );
      const editor = await page.goto(`${app.baseUrl}/app/course-editor/${courseId}`, {
        waitUntil: 'networkidle',
      });
      expect(editor?.status()).toBe(200);
      await page
        .getByText('Only the course’s instructors and its organization’s admins can edit it.')
        .waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('passes axe on every editor screen at 390 and 1280 px', async () => {
    expect(Object.keys(screens).sort()).toEqual(
      [
        'course-editor',
        'course-new',
        'courses-empty',
        'lesson-editor',
        'module-bank',
        'module-bank-empty',
        'question-editor',
        'question-new',
        'quiz-editor',
        'quiz-new',
      ].sort(),
    );
    screens.courses = '/app/course-editor';
    delete screens['courses-empty'];
    delete screens['module-bank-empty'];
    for (const viewport of ['mobile', 'desktop'] as const) {
      for (const [name, at] of Object.entries(screens)) {
        const page = await app.signedInPage(viewport, instructor.email, at);
        try {
          await page.locator('main h1').first().waitFor();
          await page.getByText(/^Loading/).waitFor({ state: 'detached' });
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${name} at ${viewport} scrolls sideways`).toBeLessThanOrEqual(0);
          expect(await seriousAxeViolations(page), `${name} at ${viewport}`).toEqual([]);
          await app.shot(page, `${name}-${viewports[viewport].width}`);
        } finally {
          await page.context().close();
        }
      }
    }
  }, 180_000);
});

describe('Personal mode', () => {
  it('lets a user with no organization author a personal course', async () => {
    const personal = await app.createUser('personal', 'Pat Personal');
    const page = await app.signedInPage('mobile', personal.email, '/app/course-editor/new');
    try {
      await page.getByText('A personal course: yours alone to write and publish.').waitFor();
      expect(await page.getByLabel('Who can find it').locator('option').allTextContents()).toEqual([
        'Private',
        'Public',
      ]);
      await page.getByLabel('Title').fill('My reading notes');
      await page.getByRole('button', { name: 'Create course' }).click();
      await page.getByText('Course “My reading notes” created.').waitFor();
      await page.getByRole('link', { name: 'Your courses' }).click();
      await page.getByRole('link', { name: 'My reading notes', exact: true }).waitFor();
      const { data } = await app.service
        .from('courses')
        .select('organization_id, owner_id')
        .eq('title', 'My reading notes')
        .single();
      expect(data).toEqual({ organization_id: null, owner_id: personal.id });
    } finally {
      await page.context().close();
    }
  });
});
