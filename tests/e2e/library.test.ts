/**
 * The library in headless Chromium against the built app (decision 0151): a learner searches
 * lesson text and a PDF's extracted text, sees ranked hits with the words marked and the page
 * of the hit, narrows by kind, and the screen passes axe at 390 and 1280 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDocument } from '../../src/server/library/documents';
import { extractDocument } from '../../src/server/library/extract';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser } from '../support/app-browser';

let app: AppBrowser;
let learner: { id: string; email: string };

beforeAll(async () => {
  app = await startAppBrowser('library');
  learner = await app.createUser('reader', 'Rhea Reader');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Library Test University',
    slug: `library-${Date.now().toString(36)}`,
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
  const module = await insertRow<{ id: string }>(app.service, 'modules', {
    course_id: course.id,
    position: 1,
    title: 'Gas exchange',
  });
  await insertRow(app.service, 'lessons', {
    module_id: module.id,
    course_id: course.id,
    position: 1,
    title: 'Why the alveoli do not collapse',
    kind: 'markdown',
    body: 'Surfactant lowers the surface tension of the fluid lining the alveoli.',
  });
  const bytes = new Uint8Array(
    fs.readFileSync(path.resolve('content/library/respiratory-system-reader.pdf')),
  );
  const filePath = `${course.id}/reader.pdf`;
  const { storage, db } = app.server.deps;
  const object = await storage.putObject('course-files', filePath, bytes, 'application/pdf');
  const document = await extractDocument('pdf', bytes);
  await db.transaction((tx) =>
    storeDocument(tx, { id: object.id, path: filePath, courseId: course.id }, document),
  );
  await insertRow(app.service, 'lessons', {
    module_id: module.id,
    course_id: course.id,
    position: 2,
    title: 'Course reader',
    kind: 'pdf',
    file_path: filePath,
  });
  await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: course.id });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('library', () => {
  it('finds words in lesson text and inside a PDF, marked, with the page of the hit', async () => {
    const page = await app.signedInPage('desktop', learner.email, '/app/library');
    await page.getByRole('heading', { level: 1, name: 'Library' }).waitFor();
    await page.getByLabel('Search lessons and files').fill('surfactant');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=surfactant/);
    const results = page.getByRole('listitem').filter({ has: page.locator('mark') });
    await results.first().waitFor();
    expect(await page.locator('mark').first().textContent()).toMatch(/surfactant/i);
    const texts = await page.getByRole('listitem').allTextContents();
    expect(texts.some((t) => t.includes('Why the alveoli do not collapse'))).toBe(true);
    expect(texts.some((t) => /Course reader/.test(t) && /Page \d+/.test(t))).toBe(true);
    await expect
      .poll(() => page.getByRole('link', { name: /Open the PDF at page \d+/ }).count())
      .toBeGreaterThan(0);

    await page.getByLabel('Kind').selectOption('markdown');
    await page.waitForURL(/kind=markdown/);
    await expect
      .poll(async () => (await page.getByRole('listitem').allTextContents()).join('|'))
      .not.toMatch(/Course reader/);
    await app.shot(page, 'library-search-desktop');
  });

  it('passes axe at 390 and 1280 px', async () => {
    await app.expectNoSeriousAxeViolations(
      learner.email,
      '/app/library?q=surfactant',
      'library',
      'Library',
    );
  });
});
