/**
 * Notes offline in the installed app (issue 18, decision 0182), in headless Chromium with its
 * service worker and offline emulation: a learner keeps their notes on the device, and with no
 * network writes a new note, edits one, deletes another and edits one that is changed on the
 * server meanwhile. Each shows as waiting to sync; once the connection returns they reach the
 * server in order, and the note changed elsewhere is kept in both versions, the learner told.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { seriousAxeViolations, viewports } from '../support/browser';

let app: AppBrowser;

interface NoteRow {
  id: string;
  title: string;
  body: string;
}

async function noteFor(person: Person, title: string, body: string): Promise<string> {
  return (
    await insertRow<{ id: string }>(app.service, 'notes', { user_id: person.id, title, body })
  ).id;
}

const notesOf = async (userId: string): Promise<NoteRow[]> =>
  ((await app.service.from('notes').select('id, title, body').eq('user_id', userId).order('title'))
    .data ?? []) as NoteRow[];

/** A context where the service worker may run, signed in through the sign-in page. */
async function installedApp(
  email: string,
  at: string,
  viewport: keyof typeof viewports,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser.newContext({
    viewport: viewports[viewport],
    reducedMotion: 'reduce',
    serviceWorkers: 'allow',
  });
  const page = await context.newPage();
  await page.goto(`${app.baseUrl}/login?next=${encodeURIComponent(at)}`, {
    waitUntil: 'networkidle',
  });
  await app.signIn(page, email);
  await page.waitForURL(`${app.baseUrl}${at}`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  return { context, page };
}

const status = (page: Page) => page.getByTestId('sync-status').textContent();
const saveState = (page: Page) => page.getByTestId('save-state').textContent();

async function openNote(page: Page, title: string) {
  await page.getByRole('link', { name: title, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Note' }).waitFor();
  await page.getByLabel('Title').waitFor();
}

// Starting the server and Chromium takes over a minute on a loaded machine.
beforeAll(async () => {
  app = await startAppBrowser('offline-notes');
}, 180_000);
afterAll(() => app?.close());

describe('notes offline', () => {
  it('writes, edits and deletes notes offline, sends them in order online, and keeps both versions of a note changed elsewhere', async () => {
    const learner = await app.createUser('notes-offline', 'Nora Notes');
    const edited = await noteFor(learner, 'Photosynthesis', 'Light makes sugar.');
    const deleted = await noteFor(learner, 'Old list', 'Nothing useful.');
    const contested = await noteFor(learner, 'Respiration', 'Sugar makes energy.');
    const { context, page } = await installedApp(learner.email, '/app/offline', 'desktop');
    try {
      await page.getByRole('heading', { level: 1, name: 'Offline study' }).waitFor();
      await page.getByRole('button', { name: 'Keep my notes on this device' }).click();
      await page.getByText('3 notes kept offline.').waitFor();

      await context.setOffline(true);
      await page.goto(`${app.baseUrl}/app/notes`);
      await page.getByRole('heading', { level: 1, name: 'Notes' }).waitFor();
      await expect.poll(() => status(page)).toBe('Offline');

      // A new note.
      await page.getByRole('link', { name: 'New note' }).click();
      await page.getByLabel('Title').fill('Written on the train');
      await page.getByLabel('Note (Markdown)').fill('Stomata close at night.');
      await expect.poll(() => saveState(page)).toBe('Saved on this device · waiting to sync');
      await page.waitForURL(/\/app\/notes\/[0-9a-f-]{36}$/);
      expect(await seriousAxeViolations(page), 'new note, offline').toEqual([]);

      // An edit, and an edit of a note the learner changes on another device meanwhile.
      await page.goto(`${app.baseUrl}/app/notes`);
      await openNote(page, 'Photosynthesis');
      await page.getByLabel('Note (Markdown)').fill('Light and water make sugar and oxygen.');
      await expect.poll(() => saveState(page)).toBe('Saved on this device · waiting to sync');
      await page.goto(`${app.baseUrl}/app/notes`);
      await openNote(page, 'Respiration');
      await page.getByLabel('Note (Markdown)').fill('Edited on the train.');
      await expect.poll(() => saveState(page)).toBe('Saved on this device · waiting to sync');
      const { error } = await app.service
        .from('notes')
        .update({ body: 'Edited on the laptop.' })
        .eq('id', contested);
      expect(error).toBeNull();

      // A deletion.
      await page.goto(`${app.baseUrl}/app/notes`);
      await openNote(page, 'Old list');
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete note' }).click();
      await page.getByRole('heading', { level: 1, name: 'Notes' }).waitFor();
      await expect.poll(() => status(page)).toBe('Offline · 4 changes waiting');
      const list = page.getByRole('list').filter({ hasText: 'Photosynthesis' });
      await expect.poll(() => list.getByText('Waiting to sync').count()).toBe(3);
      expect(await list.getByText('Old list').count()).toBe(0);
      expect(await seriousAxeViolations(page), 'notes list, offline').toEqual([]);
      await app.shot(page, 'notes-offline-1280');
      await page.setViewportSize(viewports.mobile);
      expect(await seriousAxeViolations(page), 'notes list, offline, 390').toEqual([]);
      await app.shot(page, 'notes-offline-390');
      await page.setViewportSize(viewports.desktop);

      // Nothing reached the server while offline.
      expect((await notesOf(learner.id)).map((n) => n.body)).toEqual([
        'Nothing useful.',
        'Light makes sugar.',
        'Edited on the laptop.',
      ]);

      await context.setOffline(false);
      await expect.poll(() => status(page)).toBe('1 note kept in two versions');
      expect(await notesOf(learner.id)).toEqual([
        { id: edited, title: 'Photosynthesis', body: 'Light and water make sugar and oxygen.' },
        { id: contested, title: 'Respiration', body: 'Edited on the laptop.' },
        {
          id: expect.any(String) as string,
          title: 'Respiration (edited offline)',
          body: 'Edited on the train.',
        },
        {
          id: expect.any(String) as string,
          title: 'Written on the train',
          body: 'Stomata close at night.',
        },
      ]);
      expect((await notesOf(learner.id)).some((n) => n.id === deleted)).toBe(false);

      // The learner is told, with both versions a click away.
      await page.getByTestId('sync-status').click();
      await page.getByRole('heading', { level: 1, name: 'Offline study' }).waitFor();
      await page
        .getByText(
          '“Respiration” was changed elsewhere after your offline edit. Both versions are kept: yours is the note “Respiration (edited offline)”.',
        )
        .waitFor();
      expect(await seriousAxeViolations(page), 'offline study with a note kept twice').toEqual([]);
      await app.shot(page, 'offline-study-notes-1280');
      await page.getByRole('link', { name: 'Your offline version' }).click();
      await expect
        .poll(() => page.getByLabel('Title').inputValue())
        .toBe('Respiration (edited offline)');
      await page.getByRole('link', { name: 'Open the other version' }).click();
      await expect
        .poll(() => page.getByLabel('Note (Markdown)').inputValue())
        .toBe('Edited on the laptop.');
      await expect.poll(() => saveState(page)).toMatch(/^Saved( at .+)?$/);
    } finally {
      await context.close();
    }
  });

  it('shows a note saved on the device offline as waiting to sync at 390 px, then saved once sent', async () => {
    const learner = await app.createUser('notes-mobile', 'Milo Mobile');
    await noteFor(learner, 'Genetics', 'Alleles.');
    const { context, page } = await installedApp(learner.email, '/app/offline', 'mobile');
    try {
      await page.getByRole('button', { name: 'Keep my notes on this device' }).click();
      await page.getByText('1 note kept offline.').waitFor();
      await context.setOffline(true);
      await page.goto(`${app.baseUrl}/app/notes`);
      await openNote(page, 'Genetics');
      await page.getByLabel('Note (Markdown)').fill('Alleles and genes.');
      await expect.poll(() => saveState(page)).toBe('Saved on this device · waiting to sync');
      expect(await seriousAxeViolations(page), 'note editor, offline, 390').toEqual([]);
      await app.shot(page, 'note-waiting-390');
      await context.setOffline(false);
      await expect.poll(() => saveState(page)).toMatch(/^Saved( at .+)?$/);
      expect((await notesOf(learner.id))[0]?.body).toBe('Alleles and genes.');
    } finally {
      await context.close();
    }
  });
});
