/**
 * The organization owner's screens in headless Chromium against the built app, on this file's
 * own server and database: the owner creates, renames and removes a board, names a board admin,
 * distributes a course that the board's learner then finds (and loses when it is withdrawn),
 * looks through every user; a learner sees none of it; axe at 390 and 1280 px on every screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;

interface World {
  owner: { id: string; email: string };
  learner: { id: string; email: string };
  colleague: { id: string; email: string };
  orgName: string;
  org: string;
  arts: string;
  course: string;
}
let world: World;

async function buildWorld(): Promise<World> {
  const owner = await app.createUser('owner', 'Olive Owner');
  const learner = await app.createUser('learner', 'Ada Student');
  const colleague = await app.createUser('colleague', 'Bea Colleague');
  const orgName = 'Owner Test University';
  // The owner gets an organization-wide org_admin membership from the database itself.
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: orgName,
    slug: `owner-${Date.now().toString(36)}`,
    owner_id: owner.id,
  });
  const arts = await insertRow<{ id: string }>(app.service, 'boards', {
    organization_id: org.id,
    name: 'Faculty of Arts',
    slug: 'arts',
  });
  await insertRow(app.service, 'memberships', {
    user_id: learner.id,
    organization_id: org.id,
    board_id: arts.id,
    role: 'learner',
  });
  await insertRow(app.service, 'memberships', {
    user_id: colleague.id,
    organization_id: org.id,
    role: 'instructor',
  });
  // Private: its learners find it only once it is distributed to their board.
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'Renaissance art',
    subject: 'Art history',
    description: 'Florence, perspective and the workshop system.',
    published: true,
    visibility: 'private',
  });
  return { owner, learner, colleague, orgName, org: org.id, arts: arts.id, course: course.id };
}

beforeAll(async () => {
  app = await startAppBrowser('org-owner');
  world = await buildWorld();
}, 180_000);

afterAll(() => app?.close());

async function distributedBoards(): Promise<string[]> {
  const { data, error } = await app.service
    .from('course_boards')
    .select('board_id')
    .eq('course_id', world.course);
  if (error) throw new Error(error.message);
  return (data as { board_id: string }[]).map((row) => row.board_id);
}

async function learnerLibraryTitles(): Promise<string[]> {
  const page = await app.signedInPage('desktop', world.learner.email, '/app/courses');
  try {
    await page.getByRole('heading', { level: 1, name: 'Course library' }).waitFor();
    await page.waitForLoadState('networkidle');
    return await page.locator('main li h2').allTextContents();
  } finally {
    await page.context().close();
  }
}

describe('the owner', () => {
  it('creates, renames and removes a board, with field errors for bad names', async () => {
    const page = await app.signedInPage('desktop', world.owner.email, '/app');
    try {
      await page.getByRole('link', { name: 'Boards', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Boards' }).waitFor();
      await page.getByText('1 member · 0 board admins · 0 courses').waitFor();

      const name = page.getByLabel('Board name');
      await page.getByRole('button', { name: 'Create board' }).click();
      await page.getByText('Enter a name for the board.').waitFor();
      expect(await name.getAttribute('aria-invalid')).toBe('true');

      await name.fill('faculty of ARTS');
      await page.getByRole('button', { name: 'Create board' }).click();
      await page
        .getByText('A board named "faculty of ARTS" already exists. Choose another name.')
        .waitFor();

      await name.fill('Faculty of Music');
      await page.getByRole('button', { name: 'Create board' }).click();
      await page.getByText('Board Faculty of Music created.').waitFor();
      await page.getByRole('link', { name: 'Faculty of Music' }).waitFor();
      expect(await name.inputValue()).toBe('');

      await page.getByRole('button', { name: 'Rename Faculty of Music' }).click();
      const renameDialog = page.getByRole('dialog', { name: 'Rename Faculty of Music' });
      await renameDialog.getByLabel('New name').fill('School of Music');
      await renameDialog.getByRole('button', { name: 'Rename board' }).click();
      await page.getByText('Faculty of Music is now School of Music.').waitFor();
      await page.getByRole('link', { name: 'School of Music' }).waitFor();

      // The workspace switcher follows: the owner may scope to any board.
      const workspace = page.getByLabel('Workspace');
      await expect
        .poll(() => workspace.evaluate((s: HTMLSelectElement) => [...s.options].map((o) => o.text)))
        .toEqual([
          world.orgName,
          `${world.orgName} — Faculty of Arts`,
          `${world.orgName} — School of Music`,
        ]);

      await page.getByRole('button', { name: 'Remove School of Music' }).click();
      const removeDialog = page.getByRole('dialog', { name: 'Remove School of Music?' });
      await removeDialog.getByText('Nobody belongs to this board.').waitFor();
      await removeDialog.getByRole('button', { name: 'Remove board' }).click();
      await page.getByText('School of Music removed.').waitFor();
      // The toast comes with the server's answer; the list is read again after it.
      await expect.poll(() => page.getByRole('link', { name: 'School of Music' }).count()).toBe(0);
      const { data } = await app.service
        .from('boards')
        .select('name')
        .eq('organization_id', world.org);
      expect(data).toEqual([{ name: 'Faculty of Arts' }]);
    } finally {
      await page.context().close();
    }
  });

  it("distributes a course that the board's learner then finds, and withdraws it", async () => {
    expect(await learnerLibraryTitles()).not.toContain('Renaissance art');

    const page = await app.signedInPage('desktop', world.owner.email, '/app/owner/distribution');
    try {
      await page.getByRole('heading', { level: 1, name: 'Course distribution' }).waitFor();
      await page.getByText('Not distributed to any board').waitFor();
      await page.getByRole('button', { name: 'Choose boards for Renaissance art' }).click();
      const dialog = page.getByRole('dialog', { name: 'Boards for Renaissance art' });
      await dialog.getByLabel('Faculty of Arts').check();
      await app.shot(page, 'distribution-dialog-desktop');
      await dialog.getByRole('button', { name: 'Save distribution' }).click();
      await page.getByText('Renaissance art distributed to 1 board.').waitFor();
      await page.getByRole('main').getByText('Faculty of Arts', { exact: true }).waitFor();
      expect(await distributedBoards()).toEqual([world.arts]);
    } finally {
      await page.context().close();
    }

    expect(await learnerLibraryTitles()).toContain('Renaissance art');

    const board = await app.signedInPage(
      'desktop',
      world.owner.email,
      `/app/owner/boards/${world.arts}`,
    );
    try {
      await board.getByRole('heading', { level: 1, name: 'Faculty of Arts' }).waitFor();
      await board
        .getByRole('button', { name: 'Withdraw Renaissance art from Faculty of Arts' })
        .click();
      await board.getByText('Renaissance art withdrawn from Faculty of Arts.').waitFor();
      await board
        .getByText('No course is distributed to Faculty of Arts yet.', { exact: false })
        .waitFor();
      expect(await distributedBoards()).toEqual([]);
    } finally {
      await board.context().close();
    }

    expect(await learnerLibraryTitles()).not.toContain('Renaissance art');
  });

  it('names a board admin by address, refusing bad or unknown ones, and removes them', async () => {
    const page = await app.signedInPage(
      'desktop',
      world.owner.email,
      `/app/owner/boards/${world.arts}`,
    );
    try {
      await page.getByRole('heading', { level: 1, name: 'Faculty of Arts' }).waitFor();
      await page.getByText('Faculty of Arts has no admin yet.', { exact: false }).waitFor();
      const field = page.getByLabel('Name a board admin (sign-in address)');
      const submit = page.getByRole('button', { name: 'Name board admin' });

      await field.fill('not an address');
      await submit.click();
      await page.getByText('Enter an address such as name@example.org.').waitFor();

      await field.fill('nobody@example.com');
      await submit.click();
      await page
        .getByText(`Nobody in ${world.orgName} signs in with nobody@example.com.`, { exact: false })
        .waitFor();

      await field.fill(world.colleague.email.toUpperCase());
      await submit.click();
      await page.getByText('Bea Colleague is now an admin of Faculty of Arts.').waitFor();
      await page.getByRole('button', { name: 'Remove Bea Colleague as board admin' }).waitFor();
      const { data } = await app.service
        .from('memberships')
        .select('role, board_id')
        .eq('user_id', world.colleague.id)
        .order('role');
      expect(data).toEqual([
        { role: 'instructor', board_id: null },
        { role: 'org_admin', board_id: world.arts },
      ]);
      await app.shot(page, 'board-desktop');

      await page.getByRole('button', { name: 'Remove Bea Colleague as board admin' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('They keep their 1 other membership in the organization.').waitFor();
      await dialog.getByRole('button', { name: 'Remove board admin' }).click();
      await page.getByText('Bea Colleague is no longer an admin of Faculty of Arts.').waitFor();
      const after = await app.service
        .from('memberships')
        .select('role')
        .eq('user_id', world.colleague.id);
      expect(after.data).toEqual([{ role: 'instructor' }]);
    } finally {
      await page.context().close();
    }
  });

  it('sees every user with their memberships, searched and filtered by board on the server', async () => {
    const page = await app.signedInPage('desktop', world.owner.email, '/app/owner/people');
    try {
      await page.getByRole('heading', { level: 1, name: 'All users' }).waitFor();
      await page.getByText('3 people · page 1 of 1').waitFor();
      await page
        .getByRole('list', { name: 'Memberships of Olive Owner' })
        .getByText('Owner')
        .waitFor();
      await page.getByText('Student · Faculty of Arts').waitFor();

      await page.getByLabel('Board', { exact: true }).selectOption({ label: 'Faculty of Arts' });
      await page.getByText('1 person · page 1 of 1').waitFor();
      await page.getByRole('list', { name: 'Memberships of Ada Student' }).waitFor();

      await page.getByLabel('Board', { exact: true }).selectOption({ label: 'All boards' });
      await page.getByLabel('Search by name or address').fill('zzz-nobody');
      await page.getByRole('button', { name: 'Search' }).click();
      await page
        .getByText('Nobody’s name or address contains “zzz-nobody”', { exact: false })
        .waitFor();
      await page.getByRole('button', { name: 'Show everyone' }).click();
      await page.getByText('3 people · page 1 of 1').waitFor();
    } finally {
      await page.context().close();
    }
  });
});

describe('anyone but the owner', () => {
  it('has no owner links, and an owner address tells them whose screen it is', async () => {
    const page = await app.signedInPage('desktop', world.learner.email, '/app/owner/boards');
    try {
      await page
        .getByText('This screen belongs to an organization’s owner.', { exact: false })
        .waitFor();
      expect(await page.getByRole('link', { name: 'Boards', exact: true }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'All users', exact: true }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });
});

describe('every owner screen', () => {
  const screens: [string, () => string, string][] = [
    ['boards', () => '/app/owner/boards', 'Boards'],
    ['board', () => `/app/owner/boards/${world.arts}`, 'Faculty of Arts'],
    ['distribution', () => '/app/owner/distribution', 'Course distribution'],
    ['people', () => '/app/owner/people', 'All users'],
  ];

  it.each(screens)(
    '%s has no serious axe violations at 390 and 1280 px',
    async (name, at, heading) => {
      await app.expectNoSeriousAxeViolations(world.owner.email, at(), name, heading);
    },
  );

  it('the remove-board dialog has no serious axe violations at 390 px', async () => {
    const page = await app.signedInPage('mobile', world.owner.email, '/app/owner/boards');
    try {
      await page.getByRole('button', { name: 'Remove Faculty of Arts' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove Faculty of Arts?' });
      await dialog.getByLabel('Move its 1 member to').waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await app.shot(page, 'remove-board-dialog-mobile');
    } finally {
      await page.context().close();
    }
  });
});
