/**
 * The org admin's people and enrolment screens in headless Chromium against the built app, on
 * this file's own server and database: an invitation read from the dev mailbox and accepted,
 * a role change, a CSV import with a bad line and its report, and axe on every screen at 390
 * and 1280 px (screenshots in SCREENSHOTS_DIR/org-admin-people when set, for looking at).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Viewport } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;

interface World {
  admin: { id: string; email: string };
  student: { id: string; email: string };
  org: string;
  arts: string;
  course: string;
}
let world: World;

async function buildWorld(): Promise<World> {
  const owner = await app.createUser('owner', 'Olga Owner');
  const admin = await app.createUser('admin', 'Adam Admin');
  const student = await app.createUser('student', 'Ben Student');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'People Test University',
    slug: `people-${Date.now().toString(36)}`,
    owner_id: owner.id,
  });
  const arts = await insertRow<{ id: string }>(app.service, 'boards', {
    organization_id: org.id,
    name: 'Faculty of Arts',
    slug: 'arts',
  });
  await insertRow(app.service, 'memberships', {
    user_id: admin.id,
    organization_id: org.id,
    role: 'org_admin',
  });
  await insertRow(app.service, 'memberships', {
    user_id: student.id,
    organization_id: org.id,
    board_id: arts.id,
    role: 'learner',
  });
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'The respiratory system',
    slug: 'lungs',
    published: true,
    visibility: 'organization',
  });
  await insertRow(app.service, 'course_boards', {
    course_id: course.id,
    board_id: arts.id,
    organization_id: org.id,
  });
  return { admin, student, org: org.id, arts: arts.id, course: course.id };
}

beforeAll(async () => {
  app = await startAppBrowser('org-admin-people');
  world = await buildWorld();
}, 180_000);

afterAll(() => app?.close());

/** A page signed in as the org admin (one sign-in, its stored session reused), at `path`. */
function adminPage(viewport: Viewport, path: string): Promise<Page> {
  return app.signedInPage(viewport, world.admin.email, path);
}

describe('the org admin’s users', () => {
  it('invites a person, who accepts through the mail in the dev mailbox and arrives with the role', async () => {
    const page = await adminPage('desktop', '/app/org/users');
    const invitee = `ivy.${Date.now().toString(36)}@example.com`;
    try {
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await page.getByRole('link', { name: 'Users' }).waitFor();
      await page.getByRole('button', { name: 'Add a person' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await dialog.getByText('Enter the person’s name.').waitFor();
      await dialog.getByText('Enter an email address such as name@example.edu.').waitFor();
      await dialog.getByLabel('Full name', { exact: true }).fill('Ivy Invitee');
      await dialog.getByLabel('Email', { exact: true }).fill(invitee);
      await dialog.getByLabel('Board', { exact: true }).selectOption({ label: 'Faculty of Arts' });
      await app.shot(page, 'users-add-dialog-desktop');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${invitee}.`).waitFor();
      await page
        .getByRole('listitem')
        .filter({ hasText: invitee })
        .getByText('Invited', { exact: true })
        .waitFor();

      const mailbox = await app.newPage('mobile');
      try {
        await mailbox.goto(`${app.baseUrl}/_dev/mailbox?to=${encodeURIComponent(invitee)}`);
        await mailbox
          .getByRole('heading', { name: 'You are invited to People Test University on Lyceum' })
          .waitFor();
        await mailbox
          .getByRole('link', { name: /\/auth\/v1\/verify\?/ })
          .first()
          .click();
        await mailbox.waitForURL(/\/reset-password\?invited=1/);
        await mailbox.getByRole('heading', { name: 'Choose your password' }).waitFor();
        await mailbox.getByLabel('Password', { exact: true }).fill('ivy chooses a passphrase');
        await mailbox.getByLabel('Repeat the password').fill('ivy chooses a passphrase');
        await app.shot(mailbox, 'invite-choose-password-mobile');
        expect(await seriousAxeViolations(mailbox)).toEqual([]);
        await mailbox.getByRole('button', { name: 'Set password' }).click();
        await mailbox.waitForURL(`${app.baseUrl}/app`);
        await mailbox.getByText('People Test University').first().waitFor();
      } finally {
        await mailbox.context().close();
      }

      const { data: joined } = await app.service
        .from('memberships')
        .select('role, board_id, active, user_id')
        .eq('organization_id', world.org)
        .neq('user_id', world.admin.id)
        .neq('user_id', world.student.id)
        .eq('role', 'learner');
      expect(joined).toEqual([
        expect.objectContaining({ role: 'learner', board_id: world.arts, active: true }),
      ]);
      await page.getByLabel('Search by name or email').fill('ivy');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/q=ivy/);
      const item = page.getByRole('listitem').filter({ hasText: invitee });
      await item.getByText('Active', { exact: true }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('changes a role, which the list shows at once', async () => {
    const page = await adminPage('mobile', '/app/org/users');
    try {
      const item = page.getByRole('listitem').filter({ hasText: world.student.email });
      await item.getByRole('button', { name: 'Change roles of Ben Student' }).click();
      const dialog = page.getByRole('dialog');
      // Looked for once the role field is there, so its absence is not just an empty dialog's.
      await dialog.getByLabel('Role', { exact: true }).waitFor();
      expect(await dialog.getByRole('option', { name: 'Org Admin' }).count()).toBe(0);
      await dialog.getByLabel('Role', { exact: true }).selectOption({ label: 'Instructor' });
      await app.shot(page, 'users-change-roles-mobile');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Save roles' }).click();
      await page.getByText('Ben Student’s roles are changed').waitFor();
      await item.getByText('Instructor · Faculty of Arts').waitFor();
      const { data } = await app.service
        .from('memberships')
        .select('role')
        .eq('user_id', world.student.id);
      expect(data).toEqual([{ role: 'instructor' }]);
    } finally {
      await page.context().close();
    }
  });

  it('passes axe on the users screen at both widths', async () => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const page = await adminPage(viewport, '/app/org/users');
      try {
        await page.getByText(world.student.email).waitFor();
        await app.shot(page, `users-${viewport}`);
        expect(await seriousAxeViolations(page), viewport).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
  });
});

describe('the org admin’s enrolments', () => {
  it('imports a CSV with a bad line: the report names it and nothing is enrolled', async () => {
    const page = await adminPage('desktop', '/app/org/enrolments');
    try {
      await page.getByRole('heading', { level: 1, name: 'Enrolments' }).waitFor();
      await page.getByText('All or nothing:').waitFor();
      const csv = [
        'email,course',
        `${world.student.email},lungs`,
        'nobody@example.com,lungs',
        `${world.student.email},no-such-course`,
      ].join('\n');
      await page.getByLabel('CSV file', { exact: true }).setInputFiles({
        name: 'enrolments.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText('Nothing was imported: 2 lines are wrong out of 3 lines.').waitFor();
      const report = page.getByRole('region', { name: 'Lines to fix' });
      await report
        .getByRole('row', { name: /3 nobody@example.com lungs No member of this organization/ })
        .waitFor();
      await report
        .getByText('No course of this organization has the slug or id “no-such-course”.')
        .waitFor();
      const { data: none } = await app.service
        .from('enrollments')
        .select('id')
        .eq('user_id', world.student.id);
      expect(none).toEqual([]);
      await app.shot(page, 'enrolments-report-desktop');
      expect(await seriousAxeViolations(page)).toEqual([]);

      await page.getByLabel('CSV file', { exact: true }).setInputFiles({
        name: 'fixed.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`email,course\n${world.student.email},lungs\n`),
      });
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText('Imported 1 line: 1 new enrolment.').waitFor();
      const list = page.getByRole('region', { name: 'Enrolments', exact: true });
      await list.getByText(world.student.email).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('refuses a file that is too large before sending it', async () => {
    const page = await adminPage('mobile', '/app/org/enrolments');
    try {
      await page.getByLabel('CSV file', { exact: true }).setInputFiles({
        name: 'huge.csv',
        mimeType: 'text/csv',
        buffer: Buffer.alloc(600 * 1024, 'a'),
      });
      await page.getByRole('button', { name: 'Check the file' }).click();
      await page
        .getByText(
          'The file is 600 KB; import at most 512 KB at a time (split it into several files).',
        )
        .waitFor();
      await app.shot(page, 'enrolments-mobile');
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('passes axe on the enrolments screen at desktop width', async () => {
    const page = await adminPage('desktop', '/app/org/enrolments');
    try {
      await page.getByText(world.student.email).first().waitFor();
      await app.shot(page, 'enrolments-desktop');
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});

describe('a board admin’s people and enrolments (decision 0142)', () => {
  let board: {
    admin: { id: string; email: string };
    artsStudent: { id: string; email: string };
    scienceStudent: { id: string; email: string };
  };

  beforeAll(async () => {
    const owner = await app.createUser('board-owner', 'Bo Owner');
    const admin = await app.createUser('arts-admin', 'Ada Artsadmin');
    const artsStudent = await app.createUser('arts-student', 'Amy Arts');
    const scienceStudent = await app.createUser('science-student', 'Sid Science');
    const org = await insertRow<{ id: string }>(app.service, 'organizations', {
      name: 'Board Test College',
      slug: `boards-${Date.now().toString(36)}`,
      owner_id: owner.id,
    });
    const boardOf = (name: string, slug: string) =>
      insertRow<{ id: string }>(app.service, 'boards', { organization_id: org.id, name, slug });
    const arts = await boardOf('Faculty of Arts', 'arts');
    const science = await boardOf('Faculty of Science', 'science');
    const member = (user: string, boardId: string, role: string) =>
      insertRow(app.service, 'memberships', {
        user_id: user,
        organization_id: org.id,
        board_id: boardId,
        role,
      });
    await member(admin.id, arts.id, 'org_admin');
    await member(artsStudent.id, arts.id, 'learner');
    await member(scienceStudent.id, science.id, 'learner');
    for (const [title, slug, boardId] of [
      ['Poetry of the Romantics', 'romantics', arts.id],
      ['Organic chemistry', 'organic', science.id],
    ] as const) {
      const course = await insertRow<{ id: string }>(app.service, 'courses', {
        organization_id: org.id,
        title,
        slug,
        published: true,
        visibility: 'organization',
      });
      await insertRow(app.service, 'course_boards', {
        course_id: course.id,
        board_id: boardId,
        organization_id: org.id,
      });
    }
    board = { admin, artsStudent, scienceStudent };
  }, 60_000);

  it('shows their board’s people only, and adds a person to the board', async () => {
    const page = await app.signedInPage('desktop', board.admin.email, '/app');
    try {
      // The sidebar offers the board admin their Users screen (and no analytics).
      await page.getByRole('link', { name: 'Users' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      expect(await page.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
      await page.getByText(board.artsStudent.email).waitFor();
      await page.getByText('The people of Faculty of Arts (Board Test College)').waitFor();
      expect(await page.getByText(board.scienceStudent.email).count()).toBe(0);

      await page.getByRole('button', { name: 'Add a person' }).click();
      const dialog = page.getByRole('dialog');
      const roleOptions = await dialog
        .getByLabel('Role', { exact: true })
        .locator('option')
        .allTextContents();
      expect(roleOptions).toEqual(['Student', 'Instructor']);
      const boardOptions = await dialog
        .getByLabel('Board', { exact: true })
        .locator('option')
        .allTextContents();
      expect(boardOptions).toEqual(['Faculty of Arts']);
      const newcomer = `nina.${Date.now().toString(36)}@example.com`;
      await dialog.getByLabel('Email', { exact: true }).fill(newcomer);
      await dialog.getByLabel('Full name', { exact: true }).fill('Nina Newcomer');
      await app.shot(page, 'board-admin-add-person-desktop');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${newcomer}`).waitFor();
      const item = page.getByRole('listitem').filter({ hasText: newcomer });
      await item.getByText('Student · Faculty of Arts').waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('offers only the courses distributed to their board, and passes axe at both widths', async () => {
    for (const viewport of ['mobile', 'desktop'] as const) {
      const page = await app.signedInPage(viewport, board.admin.email, '/app/org/enrolments');
      try {
        await page.getByRole('heading', { level: 1, name: 'Enrolments' }).waitFor();
        await page.waitForLoadState('networkidle');
        const course = page.getByLabel('Course', { exact: true }).first();
        const offered = await course.locator('option').allTextContents();
        expect(offered).toContain('Poetry of the Romantics');
        expect(offered).not.toContain('Organic chemistry');
        await app.shot(page, `board-admin-enrolments-${viewport}`);
        expect(await seriousAxeViolations(page), viewport).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
    for (const viewport of ['mobile', 'desktop'] as const) {
      const page = await app.signedInPage(viewport, board.admin.email, '/app/org/users');
      try {
        await page.getByText(board.artsStudent.email).waitFor();
        await app.shot(page, `board-admin-users-${viewport}`);
        expect(await seriousAxeViolations(page), viewport).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
  });

  it('enrols one of their people in their board’s course', async () => {
    const page = await app.signedInPage('desktop', board.admin.email, '/app/org/enrolments');
    try {
      await page.getByRole('heading', { level: 1, name: 'Enrolments' }).waitFor();
      const form = page.getByRole('region', { name: 'Enrol one person' });
      await form.getByLabel('Email').fill(board.artsStudent.email);
      await form.getByLabel('Course').selectOption({ label: 'Poetry of the Romantics' });
      await form.getByRole('button', { name: 'Enrol' }).click();
      const list = page.getByRole('region', { name: 'Enrolments', exact: true });
      await list.getByText(board.artsStudent.email).waitFor();
      await list
        .getByRole('button', { name: 'Unenrol Amy Arts from Poetry of the Romantics' })
        .waitFor();
    } finally {
      await page.context().close();
    }
  });
});
