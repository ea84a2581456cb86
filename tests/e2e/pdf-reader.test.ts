/**
 * The PDF reader in headless Chromium against the built app (decision 0163): a library search
 * hit opens the reader at the hit's page; find steps through marked hits; zoom and fit to
 * width; the keyboard moves by page; a selection becomes a highlight with a note that is drawn
 * again after a reload; the page is restored in a second browser context; active reading
 * time reaches lesson_progress; a corrupt or missing file says so; a font the file names
 * without embedding it comes from our own standard-font data (decision 0168); Chinese,
 * Japanese and Korean text is read through character maps from our own origin (decision
 * 0169); axe at 390 and 1280 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDocument } from '../../src/server/library/documents';
import { extractDocument } from '../../src/server/library/extract';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser } from '../support/app-browser';
import { cjkPdf } from '../support/cjk-pdf';
import { minimalPdf } from '../support/minimal-pdf';

let app: AppBrowser;
let learner: { id: string; email: string };
let courseId: string;
let lessonId: string;
let corruptLessonId: string;
let missingLessonId: string;
let symbolLessonId: string;
let cjkLessonId: string;
let pageCount: number;

const readerPath = (lesson: string) => `/app/courses/${courseId}/lessons/${lesson}/read`;

beforeAll(async () => {
  app = await startAppBrowser('pdf-reader');
  learner = await app.createUser('pdfreader', 'Petra Pages');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Reader Test University',
    slug: `reader-${Date.now().toString(36)}`,
  });
  await insertRow(app.service, 'memberships', {
    user_id: learner.id,
    organization_id: org.id,
    role: 'learner',
  });
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'The respiratory system',
    published: true,
    visibility: 'organization',
  });
  courseId = course.id;
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course.id,
    position: 1,
    title: 'Gas exchange',
  });
  const { storage, db } = app.server.deps;
  const bytes = new Uint8Array(
    fs.readFileSync(path.resolve('content/library/respiratory-system-reader.pdf')),
  );
  const filePath = `${course.id}/lessons/reader.pdf`;
  const object = await storage.putObject('course-files', filePath, bytes, 'application/pdf');
  const document = await extractDocument('pdf', bytes);
  pageCount = (await PDFDocument.load(bytes)).getPageCount();
  await db.transaction((tx) =>
    storeDocument(tx, { id: object.id, path: filePath, courseId: course.id }, document),
  );
  const lesson = (position: number, title: string, file: string) =>
    insertRow<{ id: string }>(app.service, 'lessons', {
      module_id: module.id,
      course_id: course.id,
      position,
      title,
      kind: 'pdf',
      file_path: file,
    });
  lessonId = (await lesson(1, 'Course reader', filePath)).id;
  const corruptPath = `${course.id}/lessons/corrupt.pdf`;
  await storage.putObject(
    'course-files',
    corruptPath,
    new TextEncoder().encode('%PDF-1.7 this is not really a PDF at all'),
    'application/pdf',
  );
  corruptLessonId = (await lesson(2, 'Damaged handout', corruptPath)).id;
  missingLessonId = (await lesson(3, 'Lost handout', `${course.id}/lessons/gone.pdf`)).id;
  const symbolPath = `${course.id}/lessons/symbols.pdf`;
  await storage.putObject(
    'course-files',
    symbolPath,
    new Uint8Array(minimalPdf('abg', { font: 'Symbol' })),
    'application/pdf',
  );
  symbolLessonId = (await lesson(4, 'Greek letters', symbolPath)).id;
  const cjkPath = `${course.id}/lessons/cjk.pdf`;
  await storage.putObject(
    'course-files',
    cjkPath,
    new Uint8Array(
      cjkPdf([
        { text: '中文文本', collection: 'GB1' },
        { text: '日本語の文章', collection: 'Japan1' },
        { text: '한국어 문장', collection: 'Korea1' },
      ]),
    ),
    'application/pdf',
  );
  cjkLessonId = (await lesson(5, 'Chinese, Japanese and Korean', cjkPath)).id;
  await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: course.id });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

async function pageField(page: Page): Promise<string> {
  return page.getByLabel(/Page number, 1 to/).inputValue();
}

async function savedProgress() {
  const { data } = await app.service
    .from('lesson_progress')
    .select('position, time_spent_seconds')
    .eq('user_id', learner.id)
    .eq('lesson_id', lessonId)
    .maybeSingle();
  return data as { position: { page?: number } | null; time_spent_seconds: number } | null;
}

describe('PDF reader', () => {
  it('opens at a search hit’s page, finds, zooms, moves by keyboard and highlights', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/library?q=surfactant');
    const open = page.getByRole('link', { name: /Open the PDF at page \d+/ }).first();
    const label = (await open.textContent()) ?? '';
    const hitPage = Number(/page (\d+)/.exec(label)?.[1]);
    expect(hitPage).toBeGreaterThan(1);
    await open.click();
    await page.waitForURL(new RegExp(`/lessons/${lessonId}/read\\?page=${hitPage}$`));
    await page.getByRole('heading', { level: 1, name: /Course reader/ }).waitFor();
    await expect.poll(() => pageField(page)).toBe(String(hitPage));
    await page.getByRole('region', { name: `Page ${hitPage} of ${pageCount}` }).waitFor();
    // The hit's page has its text layer: the word is there to select and to read aloud.
    await expect
      .poll(() =>
        page.locator(`[data-text-layer][data-page="${hitPage}"]`).textContent({ timeout: 1000 }),
      )
      .toMatch(/surfactant/i);
    // Virtualised: far fewer pages are in the document than the file has.
    expect(await page.locator('section[data-page-number]').count()).toBeLessThan(pageCount);
    await app.shot(page, 'reader-search-hit-desktop');

    // Find in document: a count, marked hits, next.
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Find in the document' }).fill('alveoli');
    await page.keyboard.press('Enter');
    const status = page.getByText(/\d+ of \d+ matches/);
    await expect.poll(() => status.textContent()).toMatch(/^\d+ of \d+ matches$/);
    const [first, total] = /(\d+) of (\d+)/
      .exec((await status.textContent())!)!
      .slice(1)
      .map(Number);
    expect(total).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'Next match' }).click();
    await expect
      .poll(() => status.textContent())
      .toBe(`${(first! % total!) + 1} of ${total} matches`);
    await expect.poll(() => page.locator('[data-mark^="f-"]').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Close find' }).click();

    // Zoom in, then back to fit to width.
    const zoom = page.getByRole('status', { name: 'Zoom' });
    const before = Number((await zoom.textContent())!.replace('%', ''));
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect
      .poll(async () => Number((await zoom.textContent())!.replace('%', '')))
      .toBeGreaterThan(before);
    const fit = page.getByRole('button', { name: 'Fit to width' });
    expect(await fit.getAttribute('aria-pressed')).toBe('false');
    await fit.click();
    await expect.poll(() => fit.getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(async () => Number((await zoom.textContent())!.replace('%', '')))
      .toBe(before);

    // Keyboard: End, Home, → and Page Down move by page.
    await page.getByRole('region', { name: /^Pages of / }).focus();
    await page.keyboard.press('End');
    await expect.poll(() => pageField(page)).toBe(String(pageCount));
    await page.keyboard.press('Home');
    await expect.poll(() => pageField(page)).toBe('1');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => pageField(page)).toBe('2');
    await page.keyboard.press('PageDown');
    await expect.poll(() => pageField(page)).toBe('3');
    // The page number field takes a page, and refuses one the file does not have.
    await page.getByLabel(/Page number, 1 to/).fill('2');
    await page.keyboard.press('Enter');
    await expect.poll(() => pageField(page)).toBe('2');
    await page.getByRole('region', { name: /^Pages of / }).focus();
    await page.keyboard.press('PageDown');
    await expect.poll(() => pageField(page)).toBe('3');

    // A selection on page 3's text layer becomes a green highlight with a note.
    const layer = page.locator('[data-text-layer][data-page="3"]');
    await expect.poll(() => layer.locator('span').count()).toBeGreaterThan(3);
    const selected = await layer.evaluate((root) => {
      const span = Array.from(root.querySelectorAll('span')).find(
        (s) => (s.textContent ?? '').trim().length > 12,
      )!;
      const range = document.createRange();
      range.setStart(span.firstChild!, 0);
      range.setEnd(span.firstChild!, 12);
      const selection = document.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return range.toString();
    });
    const bar = page.getByRole('region', { name: 'Highlight the selection' });
    await bar.waitFor();
    await bar.getByRole('button', { name: 'Green' }).click();
    await bar.getByLabel('Note (optional)').fill('Ask about this in the seminar.');
    await bar.getByRole('button', { name: 'Highlight', exact: true }).click();
    await page.getByText('Highlight and note saved.').waitFor();
    await expect.poll(() => page.locator('[data-mark^="h-"]').count()).toBeGreaterThan(0);
    const { data: notes } = await app.service
      .from('notes')
      .select('body, highlight_id')
      .eq('user_id', learner.id);
    expect(notes).toHaveLength(1);
    expect(notes![0]!.body).toContain(selected.trim());
    expect(notes![0]!.body).toContain('Ask about this in the seminar.');
    await app.shot(page, 'reader-highlight-desktop');

    // The page is saved on the server (it stays on page 3 while the learner reads).
    await expect.poll(async () => (await savedProgress())?.position?.page).toBe(3);

    // After a reload the highlight is drawn again and listed.
    await page.reload({ waitUntil: 'networkidle' });
    await expect.poll(() => pageField(page)).toBe(String(hitPage));
    await page.getByLabel(/Page number, 1 to/).fill('3');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-mark^="h-"]').count()).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'Highlights (1)' }).click();
    await expect.poll(() => page.getByRole('tabpanel').textContent()).toContain(selected.trim());

    // Leaving the reader sends the reading time counted while the learner was active.
    await page.getByRole('link', { name: 'Back to the lesson' }).click();
    await page.waitForURL(new RegExp(`/lessons/${lessonId}$`));
    await expect
      .poll(async () => (await savedProgress())?.time_spent_seconds ?? 0)
      .toBeGreaterThan(0);
    await page.context().close();
  }, 180_000);

  it('opens on the saved page in another browser context, at 390 px too', async () => {
    const page = await app.signedInPage('mobile', learner.email, readerPath(lessonId));
    await expect.poll(() => pageField(page)).toBe('3');
    await page.getByRole('region', { name: `Page 3 of ${pageCount}` }).waitFor();
    await app.shot(page, 'reader-restored-mobile');
    await page.context().close();
  });

  it('says clearly when a file is damaged or missing', async () => {
    const corrupt = await app.signedInPage('desktop', learner.email, readerPath(corruptLessonId));
    await expect
      .poll(() => corrupt.getByRole('alert').allTextContents())
      .toContainEqual(expect.stringMatching(/damaged or is not a PDF/));
    await app.shot(corrupt, 'reader-corrupt-desktop');
    await corrupt.context().close();
    const missing = await app.signedInPage('desktop', learner.email, readerPath(missingLessonId));
    await expect
      .poll(() => missing.getByText(/could not be fetched|missing from the course/).count())
      .toBeGreaterThan(0);
    await missing.context().close();
  });

  it('draws a font the file names without embedding it from our own standard-font data', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app');
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (/standardFontDataUrl|font data/i.test(message.text())) warnings.push(message.text());
    });
    const fontFile = page.waitForResponse((response) =>
      /\/standard_fonts\/FoxitSymbol\.pfb$/.test(response.url()),
    );
    await page.goto(new URL(readerPath(symbolLessonId), page.url()).href);
    const response = await fontFile;
    expect(response.status()).toBe(200);
    expect(new URL(response.url()).origin).toBe(new URL(page.url()).origin);
    await page.getByRole('region', { name: 'Page 1 of 1' }).waitFor();
    await expect
      .poll(() => page.locator('[data-text-layer][data-page="1"]').textContent())
      .toContain('αβγ');
    expect(warnings).toEqual([]);
    await page.context().close();
  });

  it('reads Chinese, Japanese and Korean text through character maps from our own origin', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app');
    const cmaps: string[] = [];
    page.on('response', (response) => {
      if (/\/cmaps\/[^/]+\.bcmap$/.test(response.url())) {
        expect(response.status()).toBe(200);
        expect(new URL(response.url()).origin).toBe(new URL(page.url()).origin);
        cmaps.push(new URL(response.url()).pathname.replace(/^.*\//, ''));
      }
    });
    await page.goto(new URL(readerPath(cjkLessonId), page.url()).href);
    await page.getByRole('region', { name: 'Page 1 of 1' }).waitFor();
    const textLayer = page.locator('[data-text-layer][data-page="1"]');
    await expect.poll(() => textLayer.textContent()).toContain('中文文本');
    const text = (await textLayer.textContent())!.replace(/\s+/g, ' ');
    expect(text).toContain('日本語の文章');
    expect(text).toContain('한국어 문장');
    // Fetched because this file needs them: one map per encoding and its collection's Unicode map.
    expect(cmaps).toEqual(expect.arrayContaining(['UniJIS-UCS2-H.bcmap', 'UniKS-UCS2-H.bcmap']));
    await page.context().close();
  });

  it('fetches no character map for a file that needs none', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app');
    const cmaps: string[] = [];
    page.on('request', (request) => {
      if (/\/cmaps\//.test(request.url())) cmaps.push(request.url());
    });
    await page.goto(new URL(readerPath(symbolLessonId), page.url()).href);
    await page.getByRole('region', { name: 'Page 1 of 1' }).waitFor();
    await expect
      .poll(() => page.locator('[data-text-layer][data-page="1"]').textContent())
      .toContain('αβγ');
    expect(cmaps).toEqual([]);
    await page.context().close();
  });

  it('passes axe at 390 and 1280 px', async () => {
    await app.expectNoSeriousAxeViolations(
      learner.email,
      readerPath(lessonId),
      'pdf-reader',
      /Course reader/,
    );
  }, 180_000);
});
