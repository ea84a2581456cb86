/**
 * The organization admin's analytics, thresholds, reports and settings in headless Chromium
 * against the built app, on this file's own server and database: an admin reads the figures,
 * changes the threshold (a bad value first), exports the report as CSV and opens it for
 * printing; the owner sees the per-board breakdown; a learner is told the screens are not
 * theirs. axe at 390 and 1280 px on every screen.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;

interface World {
  orgId: string;
  orgName: string;
  owner: Person;
  admin: Person;
  learners: Person[];
  anatomy: string;
  algebra: string;
  arts: string;
}
let world: World;

async function buildWorld(): Promise<World> {
  const owner = await app.createUser('owner', 'Olive Owner');
  const admin = await app.createUser('admin', 'Adam Admin');
  // A name that a spreadsheet would run as a formula, to see the export guard it.
  const learners = [
    await app.createUser('ada', 'Ada Lovelace'),
    await app.createUser('ben', '=HYPERLINK("http://evil.example","Ben")'),
    await app.createUser('cleo', 'Cleo, "the quick" Learner'),
  ];
  const orgName = 'Insights Test University';
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: orgName,
    slug: `insights-${Date.now().toString(36)}`,
    owner_id: owner.id,
  });
  const arts = await insertRow<{ id: string }>(app.service, 'boards', {
    organization_id: org.id,
    name: 'Faculty of Arts',
    slug: 'arts',
  });
  const science = await insertRow<{ id: string }>(app.service, 'boards', {
    organization_id: org.id,
    name: 'Faculty of Science',
    slug: 'science',
  });
  await insertRow(app.service, 'memberships', {
    user_id: admin.id,
    organization_id: org.id,
    role: 'org_admin',
  });
  for (const [i, learner] of learners.entries()) {
    await insertRow(app.service, 'memberships', {
      user_id: learner.id,
      organization_id: org.id,
      board_id: i === 0 ? science.id : arts.id,
      role: 'learner',
    });
  }
  const course = async (title: string, subject: string) =>
    (
      await insertRow<{ id: string }>(app.service, 'courses', {
        organization_id: org.id,
        title,
        subject,
        published: true,
        visibility: 'organization',
      })
    ).id;
  const anatomy = await course('The respiratory system', 'Human anatomy');
  const algebra = await course('Linear equations', 'Algebra');
  await course('Cell biology', 'Biology');
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: anatomy,
    position: 1,
    title: 'The lungs',
  });
  const lesson = await insertRow<{ id: string }>(app.service, 'lessons', {
    module_id: module.id,
    course_id: anatomy,
    position: 1,
    title: 'Breathing',
    kind: 'markdown',
    body: '# Breathing',
  });
  const quiz = await insertRow<{ id: string }>(app.service, 'assessments', {
    course_id: anatomy,
    module_id: module.id,
    title: 'The lungs: quiz',
    published: true,
  });
  // A board's figures are its learners' in the courses distributed to it (decision 0135).
  for (const [courseId, board] of [
    [anatomy, arts.id],
    [anatomy, science.id],
    [algebra, science.id],
  ] as const) {
    await insertRow(app.service, 'course_boards', {
      course_id: courseId,
      board_id: board,
      organization_id: org.id,
    });
  }
  for (const learner of learners) {
    await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: anatomy });
  }
  await insertRow(app.service, 'enrollments', { user_id: learners[0]!.id, course_id: algebra });
  // Ada finishes the anatomy course; Ada and Ben have graded quizzes (80 and 60).
  await insertRow(app.service, 'lesson_progress', {
    user_id: learners[0]!.id,
    lesson_id: lesson.id,
    course_id: anatomy,
    status: 'completed',
    completed_at: new Date().toISOString(),
  });
  for (const [i, score] of [80, 60].entries()) {
    await insertRow(app.service, 'assessment_attempts', {
      assessment_id: quiz.id,
      course_id: anatomy,
      user_id: learners[i]!.id,
      attempt_number: 1,
      answers: {},
      verdicts: [],
      status: 'graded',
      score,
    });
  }
  return { orgId: org.id, orgName, owner, admin, learners, anatomy, algebra, arts: arts.id };
}

beforeAll(async () => {
  app = await startAppBrowser('org-admin-insights');
  world = await buildWorld();
}, 180_000);

afterAll(() => app?.close());

/** The row of a table whose header cell names it, as its cells' texts. */
async function rowTexts(page: Page, table: string, row: string): Promise<string[]> {
  const cells = page
    .getByRole('region', { name: table })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: row }) })
    .getByRole('cell');
  return cells.allInnerTexts();
}

describe('an organization admin', () => {
  it('reads the analytics: totals, per-course charts with their figures in a table', async () => {
    const page = await app.signedInPage('desktop', world.admin.email, '/app');
    try {
      await page.getByRole('link', { name: 'Analytics' }).click();
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      const tile = (label: string) =>
        page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
      await expect.poll(() => tile('Enrolments').innerText()).toBe('4');
      expect(await tile('Learners active in the last 7 days').innerText()).toBe('2');
      expect(await tile('Completions').innerText()).toBe('1');
      expect(await tile('Average score').innerText()).toBe('70%');
      expect(await rowTexts(page, 'Figures per course', 'The respiratory system')).toEqual([
        '3',
        '2',
        '1 (33.3%)',
        '70%\n2 graded',
      ]);
      expect(await rowTexts(page, 'Figures per course', 'Cell biology')).toEqual([
        '0',
        '0',
        '0 (—)',
        '—\n0 graded',
      ]);
      await page
        .getByText('Highest The respiratory system (33.3%), lowest Linear equations (0%).')
        .waitFor();
      // The drawing is hidden from screen readers; the table carries the figures.
      expect(await page.locator('.recharts-wrapper').count()).toBeGreaterThan(0);
      expect(
        await page
          .locator('.recharts-wrapper')
          .first()
          .evaluate((el) => el.closest('[aria-hidden="true"]') !== null),
      ).toBe(true);
      // The per-board breakdown is the owner's.
      expect(await page.getByRole('heading', { name: 'By board' }).count()).toBe(0);

      await page.getByLabel('Search courses by title or subject').fill('algebra');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('rowheader', { name: 'Linear equations' }).waitFor();
      await expect
        .poll(() =>
          page.getByRole('region', { name: 'Figures per course' }).getByRole('row').count(),
        )
        .toBe(2);
      await page.getByLabel('Search courses by title or subject').fill('no such course');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText('No course matches “no such course”').waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('changes the struggle threshold, and is told what is wrong with a bad value', async () => {
    const page = await app.signedInPage('desktop', world.admin.email, '/app/org/thresholds');
    try {
      await page.getByRole('heading', { level: 1, name: 'Thresholds' }).waitFor();
      const field = page.getByLabel('Wrong answers in a row before the coach offers a refresher');
      await expect.poll(() => field.inputValue()).toBe('3');
      await field.fill('11');
      await page.getByRole('button', { name: 'Save threshold' }).click();
      await page.getByText('The threshold is at most 10.').waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      await field.fill('5');
      await page.getByRole('button', { name: 'Save threshold' }).click();
      await page.getByText('Struggle threshold set to 5 wrong answers in a row.').waitFor();
      const { data } = await app.service
        .from('organizations')
        .select('struggle_threshold')
        .eq('id', world.orgId)
        .single();
      expect(data).toEqual({ struggle_threshold: 5 });
      await page.getByText('Now: 5.', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'Use the default (3)' }).click();
      expect(await field.inputValue()).toBe('3');
    } finally {
      await page.context().close();
    }
  });

  it('exports the report as CSV and opens the printable report with the same filters', async () => {
    const page = await app.signedInPage('desktop', world.admin.email, '/app/org/reports');
    try {
      await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
      await page.getByText('All 4 matching enrolments.').waitFor();

      // An end before the start is refused beside the field.
      await page.getByLabel('Enrolled from').fill('2026-11-20');
      await page.getByLabel('Enrolled to').fill('2026-11-01');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('The end date must be on or after the start date.').waitFor();

      await page.getByLabel('Enrolled from').fill('');
      await page.getByLabel('Enrolled to').fill('');
      await page
        .getByLabel('Course', { exact: true })
        .selectOption({ label: 'The respiratory system' });
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('All 3 matching enrolments.').waitFor();
      expect(new URL(page.url()).searchParams.get('course')).toBe(world.anatomy);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(
        /^progress-report-the-respiratory-system-\d{4}-\d{2}-\d{2}\.csv$/,
      );
      const csv = fs.readFileSync((await download.path())!, 'utf8');
      const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe(
        'Learner,Email,Boards,Course,Status,Progress (%),Enrolled at (UTC),Completed at (UTC),Last active (UTC day),Graded quiz attempts,Average score (%)',
      );
      expect(lines.filter(Boolean)).toHaveLength(4);
      const [ada, ben, cleo] = world.learners;
      expect(lines.find((l) => l.includes(ada!.email))).toMatch(
        /^Ada Lovelace,ada\.[^,]+,Faculty of Science,The respiratory system,completed,100,/,
      );
      // The formula is written as text, the comma and quotes are quoted.
      expect(lines.find((l) => l.includes(ben!.email))).toMatch(
        /^"'=HYPERLINK\(""http:\/\/evil\.example"",""Ben""\)",/,
      );
      expect(lines.find((l) => l.includes(cleo!.email))).toMatch(/^"Cleo, ""the quick"" Learner",/);
      await page.getByText('Downloaded 3 rows as CSV.').waitFor();

      await page.getByRole('link', { name: 'Printable report' }).click();
      await page
        .getByRole('heading', { level: 1, name: `Progress and results: ${world.orgName}` })
        .waitFor();
      await page.getByText(/Course: The respiratory system; all boards/).waitFor();
      await page.getByText('3 enrolments, newest first.', { exact: false }).waitFor();
      // "Print" opens the browser's print dialog.
      await page.evaluate(() => {
        (window as { printed?: number }).printed = 0;
        window.print = () => {
          (window as { printed?: number }).printed! += 1;
        };
      });
      await page.getByRole('button', { name: 'Print' }).click();
      expect(await page.evaluate(() => (window as { printed?: number }).printed)).toBe(1);
      // On paper only the report shows: no app header, sidebar or buttons.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('header').first().isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
      expect(await page.getByRole('link', { name: 'Analytics' }).isVisible()).toBe(false);
      expect(await page.getByRole('rowheader', { name: /Ada Lovelace/ }).isVisible()).toBe(true);
      await app.shot(page, 'org-insights-print-media');
      await page.emulateMedia({ media: 'screen' });
    } finally {
      await page.context().close();
    }
  });

  it('renames the organization but may not change its address', async () => {
    const page = await app.signedInPage('desktop', world.admin.email, '/app/org/settings');
    try {
      await page.getByRole('heading', { level: 1, name: 'Organization settings' }).waitFor();
      const name = page.getByLabel('Name', { exact: true });
      await expect.poll(() => name.inputValue()).toBe(world.orgName);
      expect(await page.getByLabel('Address (slug)').getAttribute('readonly')).not.toBeNull();
      await page.getByText('Only the organization’s owner changes the address.').waitFor();
      await name.fill('   ');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Enter the organization’s name.').waitFor();
      await name.fill(`${world.orgName} `);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Nothing to save: the settings are as they were.').waitFor();
    } finally {
      await page.context().close();
    }
  });
});

describe('the owner', () => {
  it('sees the figures per board and changes the address; a taken one is refused', async () => {
    const page = await app.signedInPage('desktop', world.owner.email, '/app/org/analytics');
    try {
      await page.getByRole('heading', { name: 'By board' }).waitFor();
      expect(await rowTexts(page, 'Figures per board', 'Faculty of Arts')).toEqual([
        '2',
        '1',
        '2',
        '0 (0%)',
        '60%',
      ]);
      expect(await rowTexts(page, 'Figures per board', 'Faculty of Science')).toEqual([
        '1',
        '1',
        '2',
        '1 (50%)',
        '80%',
      ]);

      // Choosing a board in the workspace narrows the figures and the report to its learners.
      await page
        .getByLabel('Workspace')
        .selectOption({ label: `${world.orgName} — Faculty of Arts` });
      await page
        .getByText(
          'Faculty of Arts (Insights Test University): the figures of the board’s learners',
        )
        .waitFor();
      const tile = (label: string) =>
        page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
      await expect.poll(() => tile('Enrolments').innerText()).toBe('2');
      expect(await tile('Average score').innerText()).toBe('60%');
      await page.getByText('of 2 learners on the board').waitFor();
      await page.getByRole('link', { name: 'Reports', exact: true }).first().click();
      await page.getByText('All 2 matching enrolments.').waitFor();
      expect(new URL(page.url()).searchParams.get('board')).toBe(world.arts);
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByText('All 4 matching enrolments.').waitFor();
      await page.getByLabel('Workspace').selectOption({ label: world.orgName });

      await page.goto(`${app.baseUrl}/app/org/settings`, { waitUntil: 'networkidle' });
      const slug = page.getByLabel('Address (slug)');
      await slug.fill('Not A Slug');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page
        .getByText('Use lower-case letters, digits and single hyphens, not at the start or end.')
        .waitFor();
      const other = await insertRow<{ slug: string }>(app.service, 'organizations', {
        name: 'Someone else',
        slug: `taken-${Date.now().toString(36)}`,
      });
      await slug.fill(other.slug);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page
        .getByText(`The address "${other.slug}" is taken by another organization`)
        .first()
        .waitFor();
      const fresh = `insights-renamed-${Date.now().toString(36)}`;
      await slug.fill(fresh);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Organization settings saved.').waitFor();
      const { data } = await app.service
        .from('organizations')
        .select('slug')
        .eq('id', world.orgId)
        .single();
      expect(data).toEqual({ slug: fresh });
    } finally {
      await page.context().close();
    }
  });
});

describe('a learner', () => {
  it('has no admin links and is told whose screen the analytics are', async () => {
    const page = await app.signedInPage('mobile', world.learners[0]!.email, '/app/org/analytics');
    try {
      await page
        .getByText(`Only the owner and organization-wide admins of ${world.orgName}`, {
          exact: false,
        })
        .waitFor();
      expect(await page.getByText('Enrolments', { exact: true }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });
});

describe('accessibility', () => {
  const screens = [
    ['analytics', '/app/org/analytics', 'Analytics'],
    ['thresholds', '/app/org/thresholds', 'Thresholds'],
    ['reports', '/app/org/reports', 'Reports'],
    ['print', '/app/org/reports/print', 'Progress and results'],
    ['settings', '/app/org/settings', 'Organization settings'],
  ] as const;

  for (const viewport of ['mobile', 'desktop'] as const) {
    it.each(screens)(`%s has no serious axe violations at ${viewport}`, async (name, at, title) => {
      const page = await app.signedInPage(viewport, world.owner.email, at);
      try {
        await page.getByRole('heading', { level: 1, name: new RegExp(title) }).waitFor();
        await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
        expect(await seriousAxeViolations(page)).toEqual([]);
        // Wide tables scroll inside their frame; the page itself never scrolls sideways.
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).toBeLessThanOrEqual(0);
        await app.shot(page, `org-insights-${name}-${viewport}`);
      } finally {
        await page.context().close();
      }
    });
  }
});
