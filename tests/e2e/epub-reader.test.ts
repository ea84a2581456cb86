/**
 * The ePub reader in headless Chromium against the built app (decision 0165): a library hit
 * opens the book at the hit's chapter; find lists every place with its context and opens one;
 * the table of contents, page buttons and arrow keys move through the book; text size and
 * theme reach the book's text, and the dark theme darkens the whole page, margins included;
 * the position (a CFI) is restored in a second browser context; a selection becomes a
 * highlight with a note by keyboard, is drawn over the text and listed again in another
 * browser context, and opens a new flashcard (decision 0167); a DRM book says so; a book's
 * script never runs; axe at 390 and 1280 px.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDocument } from '../../src/server/library/documents';
import { extractDocument } from '../../src/server/library/extract';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser } from '../support/app-browser';
import { drmEpub, FIND_WORD, readerEpub, scriptedEpub } from '../support/reader-books';

let app: AppBrowser;
let learner: { id: string; email: string };
let courseId: string;
let lessonId: string;
let drmLessonId: string;
let scriptedLessonId: string;

const readerPath = (lesson: string) => `/app/courses/${courseId}/lessons/${lesson}/read`;

beforeAll(async () => {
  app = await startAppBrowser('epub-reader');
  learner = await app.createUser('epubreader', 'Elif Chapters');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'ePub Test University',
    slug: `epub-${Date.now().toString(36)}`,
  });
  await insertRow(app.service, 'memberships', {
    user_id: learner.id,
    organization_id: org.id,
    role: 'learner',
  });
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'Flying reptiles',
    published: true,
    visibility: 'organization',
  });
  courseId = course.id;
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course.id,
    position: 1,
    title: 'Pterosaurs',
  });
  const { storage, db } = app.server.deps;
  const put = (name: string, bytes: Uint8Array) =>
    storage.putObject(
      'course-files',
      `${course.id}/lessons/${name}`,
      bytes,
      'application/epub+zip',
    );
  const lesson = async (position: number, title: string, name: string) =>
    (
      await insertRow<{ id: string }>(app.service, 'lessons', {
        module_id: module.id,
        course_id: course.id,
        position,
        title,
        kind: 'epub',
        file_path: `${course.id}/lessons/${name}`,
      })
    ).id;

  const bytes = readerEpub();
  const object = await put('reader.epub', bytes);
  const document = await extractDocument('epub', bytes);
  await db.transaction((tx) =>
    storeDocument(
      tx,
      { id: object.id, path: `${course.id}/lessons/reader.epub`, courseId: course.id },
      document,
    ),
  );
  lessonId = await lesson(1, 'Pterosaur reader', 'reader.epub');
  // Put in storage directly, as the editor's extraction would refuse the DRM one.
  await put('locked.epub', drmEpub());
  drmLessonId = await lesson(2, 'Locked reader', 'locked.epub');
  await put('scripted.epub', scriptedEpub());
  scriptedLessonId = await lesson(3, 'Scripted reader', 'scripted.epub');
  await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: course.id });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** The chapter on show: foliate renders it from a blob: address in its own frame. */
function bookFrame(page: Page): Frame | undefined {
  return page
    .frames()
    .filter((frame) => frame.url().startsWith('blob:') && !frame.isDetached())
    .at(-1);
}

async function bookText(page: Page): Promise<string> {
  const frame = bookFrame(page);
  return frame
    ? frame
        .locator('body')
        .innerText()
        .catch(() => '')
    : '';
}

const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Book controls' });

async function percentRead(page: Page): Promise<number> {
  const match = /(\d+)% read/.exec((await toolbar(page).textContent()) ?? '');
  return match ? Number(match[1]) : -1;
}

/** The pixels the page shows in a rectangle (page coordinates), as [r, g, b]. */
async function pixels(
  page: Page,
  clip: { x: number; y: number; width: number; height: number },
): Promise<[number, number, number][]> {
  const png = await page.screenshot({ clip, animations: 'disabled' });
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
    const out: [number, number, number][] = [];
    for (let i = 0; i < data.length; i += 4) out.push([data[i]!, data[i + 1]!, data[i + 2]!]);
    return out;
  }, png.toString('base64'));
}

/** Where the first `length` characters of the paragraph starting with `start` are on the page. */
async function textBox(page: Page, start: string, length: number) {
  const frame = bookFrame(page)!;
  const inFrame = await frame.evaluate(
    ([prefix, count]) => {
      const paragraph = Array.from(document.querySelectorAll('p')).find((p) =>
        (p.textContent ?? '').startsWith(prefix),
      )!;
      const range = document.createRange();
      range.setStart(paragraph.firstChild!, 0);
      range.setEnd(paragraph.firstChild!, count);
      const rect = range.getClientRects()[0]!;
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    },
    [start, length] as const,
  );
  const frameBox = (await (await frame.frameElement()).boundingBox())!;
  return { ...inFrame, x: inFrame.x + frameBox.x, y: inFrame.y + frameBox.y };
}

/** Share of pixels tinted green (a green highlight over black-on-white text is). */
function greenShare(shown: [number, number, number][]): number {
  return shown.filter(([r, g, b]) => g > r + 25 && g > b + 10).length / shown.length;
}

async function savedPosition() {
  const { data } = await app.service
    .from('lesson_progress')
    .select('position')
    .eq('user_id', learner.id)
    .eq('lesson_id', lessonId)
    .maybeSingle();
  return (data as { position: { cfi?: string; fraction?: number } | null } | null)?.position;
}

describe('ePub reader', () => {
  it('opens at a library hit’s chapter and finds every place with its context', async () => {
    const page = await app.signedInPage('desktop', learner.email, `/app/library?q=${FIND_WORD}`);
    await page.getByRole('link', { name: /Open the ePub at “2\. Giants of the air”/ }).click();
    await page.waitForURL(/\/read\?chapter=3$/);
    await expect.poll(() => toolbar(page).textContent()).toContain('Giants of the air');
    await expect.poll(() => bookText(page)).toContain(`${FIND_WORD} northropi`);

    await toolbar(page).getByRole('button', { name: 'Find' }).click();
    const dialog = page.getByRole('dialog', { name: 'Find in the book' });
    await dialog.getByLabel('Words to find').fill(FIND_WORD);
    await dialog.getByRole('button', { name: 'Find' }).click();
    await expect
      .poll(() => dialog.getByText(/places? with “/).textContent())
      .toBe(`2 places with “${FIND_WORD}”`);
    const places = dialog
      .getByRole('list', { name: `Places with “${FIND_WORD}”` })
      .getByRole('button');
    expect(await places.count()).toBe(2);
    expect(await places.nth(0).textContent()).toContain('stood as tall as a giraffe');
    expect(await places.nth(0).locator('mark').textContent()).toBe(FIND_WORD);
    await places.nth(1).click();
    await expect
      .poll(() => page.getByRole('group', { name: 'Find results' }).textContent())
      .toContain(`Place 2 of 2 with “${FIND_WORD}”`);
    await app.shot(page, 'epub-find-desktop');

    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'All places' }).click();
    await dialog.getByLabel('Words to find').fill('zyzzogeton');
    await dialog.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => dialog.textContent()).toContain('“zyzzogeton” is not in this book.');
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('moves by contents, buttons and keys, and applies text size and theme to the book', async () => {
    const page = await app.signedInPage('desktop', learner.email, readerPath(lessonId));
    await expect.poll(() => bookText(page)).not.toBe('');
    await toolbar(page).getByRole('button', { name: 'Contents' }).click();
    const contents = page.getByRole('navigation', { name: 'Table of contents' });
    await contents.getByRole('button', { name: '1. Origins' }).click();
    await expect.poll(() => toolbar(page).textContent()).toContain('Origins');
    await expect.poll(() => bookText(page)).toContain('Origins paragraph 1.');

    const start = await percentRead(page);
    await toolbar(page)
      .getByRole('button', { name: /Next page/ })
      .click();
    await expect.poll(() => percentRead(page)).toBeGreaterThan(start);
    const afterButton = await percentRead(page);
    // foliate ignores a turn while the last one settles, as a reader pressing fast would find:
    // each poll presses again until the page has turned.
    const turnWith = (key: string) => async () => {
      await page.getByRole('region', { name: 'Book: Pterosaur reader' }).focus();
      await page.keyboard.press(key);
      return percentRead(page);
    };
    await expect.poll(turnWith('ArrowRight')).toBeGreaterThan(afterButton);
    const afterKey = await percentRead(page);
    await expect.poll(turnWith('ArrowLeft')).toBeLessThan(afterKey);
    await expect.poll(turnWith('PageDown')).toBeGreaterThanOrEqual(afterKey);

    const fontSize = () =>
      bookFrame(page)!.evaluate(() =>
        parseFloat(getComputedStyle(document.documentElement).fontSize),
      );
    const before = await fontSize();
    await page.getByRole('button', { name: 'Larger text' }).click();
    await page.getByRole('button', { name: 'Larger text' }).click();
    await expect.poll(() => toolbar(page).textContent()).toContain('125%');
    await expect.poll(fontSize).toBeGreaterThan(before * 1.2);

    await page.getByLabel('Theme').selectOption('dark');
    await expect
      .poll(() => bookFrame(page)!.evaluate(() => getComputedStyle(document.body).color))
      .toBe('rgb(230, 230, 230)');
    // The whole page of the book is dark, the margins around the text too (they stayed white
    // when the theme changed after the chapter had loaded).
    const region = (await page
      .getByRole('region', { name: 'Book: Pterosaur reader' })
      .boundingBox())!;
    const strip = (x: number) => ({ x, y: region.y + 8, width: 6, height: region.height - 16 });
    await expect
      .poll(async () => {
        const shown = [
          ...(await pixels(page, strip(region.x + 4))),
          ...(await pixels(page, strip(region.x + region.width - 10))),
        ];
        return Math.max(...shown.map(([r, g, b]) => Math.max(r, g, b)));
      })
      .toBeLessThan(60);
    await app.shot(page, 'epub-reader-dark-desktop');
    await page.getByLabel('Theme').selectOption('sepia');
    await expect
      .poll(() => bookFrame(page)!.evaluate(() => getComputedStyle(document.body).color))
      .toBe('rgb(59, 47, 30)');
    await page.getByLabel('Theme').selectOption('light');
    await page.getByRole('button', { name: 'Smaller text' }).click();
    await page.getByRole('button', { name: 'Smaller text' }).click();
    await expect.poll(() => toolbar(page).textContent()).toContain('100%');

    await expect.poll(async () => (await savedPosition())?.cfi ?? '').toMatch(/^epubcfi\(/);
    await page.context().close();
  });

  it('reopens at the saved place in another browser context', async () => {
    const saved = await savedPosition();
    expect(saved?.cfi).toMatch(/^epubcfi\(/);
    const page = await app.signedInPage('mobile', learner.email, readerPath(lessonId));
    await expect.poll(() => toolbar(page).textContent()).toContain('Origins');
    // A narrower screen lays the chapter out in more pages; the place is the same text. The
    // toolbar names the chapter before the book has turned to the saved page and counted it.
    await expect
      .poll(async () => Math.abs((await percentRead(page)) - (saved!.fraction ?? 0) * 100))
      .toBeLessThan(6);
    await app.shot(page, 'epub-reader-mobile');
    await page.context().close();
  });

  it('highlights a selection by keyboard, draws and lists it on another device, and makes a card of it', async () => {
    const page = await app.signedInPage('desktop', learner.email, readerPath(lessonId));
    await toolbar(page).getByRole('button', { name: 'Contents' }).click();
    await page
      .getByRole('navigation', { name: 'Table of contents' })
      .getByRole('button', { name: '1. Origins' })
      .click();
    await expect.poll(() => bookText(page)).toContain('Origins paragraph 1.');

    // The learner selects the paragraph's opening words in the book (as a mouse or caret
    // browsing would); from there on, the keyboard alone.
    const selected = await bookFrame(page)!.evaluate(() => {
      const paragraph = Array.from(document.querySelectorAll('p')).find((p) =>
        (p.textContent ?? '').startsWith('Origins paragraph 1.'),
      )!;
      const range = document.createRange();
      range.setStart(paragraph.firstChild!, 0);
      range.setEnd(paragraph.firstChild!, 30);
      const selection = document.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return range.toString();
    });
    const bar = page.getByRole('region', { name: 'Highlight the selection' });
    await bar.waitFor();
    expect(await bar.textContent()).toContain(`1. Origins: “${selected}”`);
    await bar.getByRole('button', { name: 'Green' }).focus();
    await page.keyboard.press('Space');
    await expect
      .poll(() => bar.getByRole('button', { name: 'Green' }).getAttribute('aria-pressed'))
      .toBe('true');
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await page.keyboard.type('Compare with the bird wing.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('Highlight and note saved.').waitFor();
    await bar.waitFor({ state: 'detached' });

    const { data: rows } = await app.service
      .from('highlights')
      .select('id, locator, text, colour')
      .eq('user_id', learner.id)
      .eq('lesson_id', lessonId);
    expect(rows).toHaveLength(1);
    const row = rows![0] as {
      id: string;
      locator: { kind: string; cfi: string; chapter: number; label: string };
      text: string;
      colour: string;
    };
    expect(row).toMatchObject({ text: selected, colour: 'green' });
    // A range CFI: the selection's start and end, not a point.
    expect(row.locator).toMatchObject({ kind: 'epub', chapter: 2, label: '1. Origins' });
    expect(row.locator.cfi).toMatch(/^epubcfi\([^,]+,[^,]+,[^,]+\)$/);
    const { data: notes } = await app.service
      .from('notes')
      .select('title, body, highlight_id')
      .eq('user_id', learner.id);
    expect(notes).toEqual([
      {
        title: 'Pterosaur reader, 1. Origins',
        body: `> ${selected}\n\nCompare with the bird wing.`,
        highlight_id: row.id,
      },
    ]);

    // Drawn over the words, green.
    await expect
      .poll(async () =>
        greenShare(await pixels(page, await textBox(page, 'Origins paragraph 1.', 30))),
      )
      .toBeGreaterThan(0.3);
    await app.shot(page, 'epub-highlight-desktop');
    await page.context().close();

    // Another device: the highlight is drawn where it was and listed; it makes a flashcard.
    const phone = await app.signedInPage('mobile', learner.email, readerPath(lessonId));
    await expect.poll(() => toolbar(phone).textContent()).toContain('Origins');
    await expect.poll(() => bookText(phone)).toContain('Origins paragraph 1.');
    await expect
      .poll(async () =>
        greenShare(await pixels(phone, await textBox(phone, 'Origins paragraph 1.', 30))),
      )
      .toBeGreaterThan(0.3);
    await expect
      .poll(() =>
        toolbar(phone)
          .getByRole('button', { name: /Highlights/ })
          .textContent(),
      )
      .toBe('Highlights (1)');
    await toolbar(phone)
      .getByRole('button', { name: /Highlights/ })
      .click();
    const panel = phone.getByRole('dialog', { name: 'Highlights' });
    const item = panel.getByRole('list', { name: 'Your highlights' }).getByRole('listitem');
    await expect.poll(() => item.textContent()).toContain(selected);
    expect(await item.getByRole('button', { name: '1. Origins' }).count()).toBe(1);
    await app.shot(phone, 'epub-highlights-panel-mobile');
    await item.getByRole('link', { name: 'Card from this highlight' }).click();
    await phone.waitForURL(new RegExp(`/app/flashcards/new\\?highlight=${row.id}$`));
    await phone.getByRole('heading', { name: 'Card from a highlight' }).waitFor();
    await phone.context().close();
  }, 180_000);

  it('says a DRM-protected book cannot be shown, and never runs a book’s script', async () => {
    const locked = await app.signedInPage('desktop', learner.email, readerPath(drmLessonId));
    await expect
      .poll(() => locked.getByRole('alert').allTextContents())
      .toContainEqual(expect.stringMatching(/protected by DRM/));
    await locked.context().close();

    const scripted = await app.signedInPage('desktop', learner.email, readerPath(scriptedLessonId));
    await toolbar(scripted).getByRole('button', { name: 'Contents' }).click();
    await scripted
      .getByRole('navigation', { name: 'Table of contents' })
      .getByRole('button', { name: '1. Origins' })
      .click();
    await expect.poll(() => bookText(scripted)).toContain('Origins paragraph 1.');
    expect(await scripted.title()).not.toMatch(/book (script|handler) ran/);
    expect(await scripted.evaluate(() => localStorage.getItem('book-script'))).toBeNull();
    await scripted.context().close();
  });

  it('passes axe at 390 and 1280 px', async () => {
    await app.expectNoSeriousAxeViolations(
      learner.email,
      readerPath(lessonId),
      'epub-reader',
      /Pterosaur reader/,
    );
  }, 180_000);
});
