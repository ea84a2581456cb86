/**
 * The live room in headless Chromium against the built app, on this file's own server and
 * database, with two people at once: a learner (phone width) and the course's instructor
 * (desktop). Each sees the other arrive, reads the other's chat, and the learner's answer to
 * the instructor's poll shows in the results; axe on both screens at 390 and 1280 px
 * (screenshots in SCREENSHOTS_DIR/live-hub when set).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Viewport } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';

let app: AppBrowser;
let world: {
  course: string;
  learner: { id: string; email: string };
  instructor: { id: string; email: string };
};

beforeAll(async () => {
  app = await startAppBrowser('live-hub');
  const owner = await app.createUser('live-owner', 'Olu Owner');
  const instructor = await app.createUser('live-instructor', 'Ines Instructor');
  const learner = await app.createUser('live-learner', 'Leo Learner');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Live Test University',
    slug: `live-${Date.now().toString(36)}`,
    owner_id: owner.id,
  });
  for (const [user, role] of [
    [instructor.id, 'instructor'],
    [learner.id, 'learner'],
  ] as const) {
    await insertRow(app.service, 'memberships', { user_id: user, organization_id: org.id, role });
  }
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'The respiratory system',
    slug: 'lungs',
    published: true,
    visibility: 'organization',
  });
  await insertRow(app.service, 'course_instructors', {
    course_id: course.id,
    user_id: instructor.id,
  });
  await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: course.id });
  world = { course: course.id, learner, instructor };
}, 180_000);

afterAll(() => app?.close());

const roomPath = () => `/app/courses/${world.course}/live`;

async function openRoom(viewport: Viewport, email: string): Promise<Page> {
  const page = await app.signedInPage(viewport, email, roomPath());
  await page
    .getByRole('heading', { level: 1, name: 'Live room: The respiratory system' })
    .waitFor();
  return page;
}

describe('the live room with a learner and an instructor', () => {
  it('shows each the other, their chat and the poll results, by keyboard', async () => {
    const learner = await openRoom('mobile', world.learner.email);
    const instructor = await openRoom('desktop', world.instructor.email);
    try {
      // Presence: each sees the other in the room.
      const learnerPeople = learner.getByRole('list', { name: 'People in the room' });
      const instructorPeople = instructor.getByRole('list', { name: 'People in the room' });
      await learnerPeople.getByText('Ines Instructor').waitFor();
      await instructorPeople.getByText('Leo Learner').waitFor();

      // The learner's status reaches the instructor.
      await learner.getByLabel('Your status').selectOption({ label: 'Has a question' });
      await instructorPeople
        .getByRole('listitem')
        .filter({ hasText: 'Leo Learner' })
        .getByText('Has a question')
        .waitFor();

      // Chat by keyboard: Enter sends.
      const message = learner.getByLabel('Message', { exact: true });
      await message.fill('What does surfactant do in the alveoli?');
      await message.press('Enter');
      await learner
        .getByRole('list', { name: 'Chat messages' })
        .getByText('What does surfactant do in the alveoli?')
        .waitFor();
      // Delivered to the instructor as it happens: no refresh.
      await instructor
        .getByRole('list', { name: 'Chat messages' })
        .getByText('What does surfactant do in the alveoli?')
        .waitFor();
      const reply = instructor.getByLabel('Message', { exact: true });
      await reply.fill('It lowers surface tension, so the alveoli do not collapse.');
      await instructor.getByRole('button', { name: 'Send' }).click();
      await learner
        .getByRole('list', { name: 'Chat messages' })
        .getByText('It lowers surface tension, so the alveoli do not collapse.')
        .waitFor();
      // Announced politely to the learner's screen reader.
      await learner
        .locator('[aria-live="polite"]')
        .getByText('Ines Instructor says: It lowers surface tension')
        .waitFor();

      // Moderation: the instructor removes the learner's message; its removal reaches the
      // learner's screen as it happens (postgres changes), and the text is gone there too.
      await instructor
        .getByRole('list', { name: 'Chat messages' })
        .getByRole('listitem')
        .filter({ hasText: 'What does surfactant do in the alveoli?' })
        .getByRole('button', { name: /^Remove/ })
        .click();
      const learnerChat = learner.getByRole('list', { name: 'Chat messages' });
      await learnerChat.getByText('Removed by an instructor.').waitFor();
      expect(await learnerChat.getByText('What does surfactant do in the alveoli?').count()).toBe(
        0,
      );

      // The instructor opens a poll; the learner answers; the results show the answer.
      await instructor
        .getByLabel('Question', { exact: true })
        .fill('Where does gas exchange happen?');
      await instructor.getByLabel('Choice 1').fill('In the bronchi');
      await instructor.getByLabel('Choice 2').fill('In the alveoli');
      await instructor.getByRole('button', { name: 'Open to the room' }).click();
      await instructor.getByText('The question is open to the room.').waitFor();
      await learner.getByLabel('In the alveoli').check();
      await learner.getByRole('button', { name: 'Send my answer' }).click();
      await learner.getByText('Your answer:').waitFor();
      const learnerResults = learner.getByRole('list', { name: 'Poll results' });
      await learnerResults.getByText('1 (100%)').waitFor();
      const results = instructor.getByRole('list', { name: 'Poll results' });
      await results
        .getByRole('listitem')
        .filter({ hasText: 'In the alveoli' })
        .getByText('1 (100%)')
        .waitFor();
      await results
        .getByRole('listitem')
        .filter({ hasText: 'In the bronchi' })
        .getByText('0 (0%)')
        .waitFor();

      await app.shot(learner, 'room-learner-mobile');
      await app.shot(instructor, 'room-instructor-desktop');
      expect(await seriousAxeViolations(learner), 'learner at 390').toEqual([]);
      expect(await seriousAxeViolations(instructor), 'instructor at 1280').toEqual([]);

      // Closed on the instructor's word.
      await instructor.getByRole('button', { name: 'Close the question' }).click();
      await instructor.getByText('The question is closed.').waitFor();
    } finally {
      await learner.context().close();
      await instructor.context().close();
    }
  });

  it('passes axe for each of them at the other width too', async () => {
    const learner = await openRoom('desktop', world.learner.email);
    const instructor = await openRoom('mobile', world.instructor.email);
    try {
      await learner.getByRole('list', { name: 'Chat messages' }).waitFor();
      await instructor.getByRole('list', { name: 'Chat messages' }).waitFor();
      await app.shot(learner, 'room-learner-desktop');
      await app.shot(instructor, 'room-instructor-mobile');
      expect(await seriousAxeViolations(learner), 'learner at 1280').toEqual([]);
      expect(await seriousAxeViolations(instructor), 'instructor at 390').toEqual([]);
    } finally {
      await learner.context().close();
      await instructor.context().close();
    }
  });
});
