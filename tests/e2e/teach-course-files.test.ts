/**
 * A PDF lesson end to end in headless Chromium against the built app, on this file's own
 * server and database: the course editor refuses a .pdf that is not a PDF and a file over the
 * bucket's 100 MB with a message at the file field, uploads a small PDF made by hand
 * (tests/support/minimal-pdf.ts), and an enrolled learner opens the lesson and downloads the
 * very same bytes. axe on the lesson editor and the learner's lesson at 390 and 1280 px.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Person } from '../support/app-browser';
import { minimalPdf } from '../support/minimal-pdf';

let app: AppBrowser;
let instructor: Person;
let learner: Person;
let courseId: string;
let tmpDir: string;
const pdf = minimalPdf('Gas exchange in the alveoli');

beforeAll(async () => {
  app = await startAppBrowser('teach-course-files');
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-course-files-'));
  instructor = await app.createUser('instructor', 'Ines Instructor');
  learner = await app.createUser('learner', 'Ada Student');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Files Test University',
    slug: `files-${Date.now().toString(36)}`,
  });
  for (const [user, role] of [
    [instructor, 'instructor'],
    [learner, 'learner'],
  ] as const) {
    await insertRow(app.service, 'memberships', {
      user_id: user.id,
      organization_id: org.id,
      role,
    });
  }
  const course = await insertRow<{ id: string }>(app.service, 'courses', {
    organization_id: org.id,
    title: 'The respiratory system',
    subject: 'Human anatomy',
    published: true,
    visibility: 'organization',
  });
  courseId = course.id;
  await insertRow(app.service, 'course_instructors', {
    course_id: courseId,
    user_id: instructor.id,
  });
  await insertRow(app.service, 'modules', { course_id: courseId, position: 1, title: 'The lungs' });
  await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: courseId });
}, 180_000);

afterAll(async () => {
  await app?.close();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('a PDF lesson', () => {
  it('refuses a wrong file with a clear message, uploads a PDF, and the learner downloads the same bytes', async () => {
    let lessonId = '';
    const page = await app.signedInPage(
      'desktop',
      instructor.email,
      `/app/course-editor/${courseId}`,
    );
    try {
      await page.getByRole('link', { name: 'Add a lesson to “The lungs”' }).click();
      await page.getByRole('heading', { level: 1, name: 'New lesson' }).waitFor();
      await page.getByLabel('Title').fill('Reading: the alveoli');
      await page.getByLabel('Kind').selectOption('pdf');
      const fileInput = page.getByLabel('PDF file');

      // Named .pdf, but not a PDF inside.
      await fileInput.setInputFiles({
        name: 'notes.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('These are plain notes, not a PDF.'),
      });
      await page.getByRole('button', { name: 'Add lesson' }).click();
      await page
        .getByText('This is not a PDF file, whatever its name says. Choose the PDF itself.')
        .first()
        .waitFor();

      // Over the bucket's 100 MB: a sparse file, so the test writes almost nothing to disk.
      const big = path.join(tmpDir, 'big.pdf');
      fs.writeFileSync(big, pdf);
      fs.truncateSync(big, 101 * 1024 * 1024);
      await fileInput.setInputFiles(big);
      await page.getByRole('button', { name: 'Add lesson' }).click();
      await page.getByText('Files are limited to 100 MB; this one is 101.0 MB.').first().waitFor();
      const { data: none } = await app.service
        .from('lessons')
        .select('id')
        .eq('course_id', courseId);
      expect(none).toEqual([]);

      await fileInput.setInputFiles({
        name: 'alveoli.pdf',
        mimeType: 'application/pdf',
        buffer: pdf,
      });
      await page.getByRole('button', { name: 'Add lesson' }).click();
      await page.getByText('Lesson “Reading: the alveoli” added.').waitFor();
      await page.waitForURL(/\/lessons\/[0-9a-f-]{36}$/);
      lessonId = page.url().split('/').pop()!;
      await page.getByText('Current file: alveoli.pdf.', { exact: false }).waitFor();
      await app.shot(page, 'lesson-editor-pdf-desktop');

      const { data: lesson } = await app.service
        .from('lessons')
        .select('kind, file_path')
        .eq('id', lessonId)
        .single();
      expect(lesson?.kind).toBe('pdf');
      const stored = await app.service.storage
        .from('course-files')
        .download((lesson as { file_path: string }).file_path);
      expect(Buffer.from(await stored.data!.arrayBuffer()).equals(pdf)).toBe(true);
    } finally {
      await page.context().close();
    }

    // The enrolled learner opens the lesson and downloads the very same bytes.
    const learnerPage = await app.signedInPage(
      'desktop',
      learner.email,
      `/app/courses/${courseId}/lessons/${lessonId}`,
    );
    try {
      await learnerPage.getByRole('heading', { level: 1, name: 'Reading: the alveoli' }).waitFor();
      const link = learnerPage.getByRole('link', { name: 'Download alveoli.pdf', exact: true });
      await link.waitFor();
      await app.shot(learnerPage, 'lesson-pdf-learner-desktop');
      const [download] = await Promise.all([learnerPage.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe('alveoli.pdf');
      const bytes = fs.readFileSync((await download.path())!);
      expect(bytes.equals(pdf)).toBe(true);
    } finally {
      await learnerPage.context().close();
    }
  });

  it('has no serious axe violations on the lesson editor and the lesson, at 390 and 1280 px', async () => {
    // Its own PDF lesson, stored through the API, so it runs alone (-t).
    const filePath = `${courseId}/axe-${Date.now().toString(36)}-alveoli.pdf`;
    const uploaded = await app.service.storage
      .from('course-files')
      .upload(filePath, pdf, { contentType: 'application/pdf' });
    expect(uploaded.error).toBeNull();
    const { data: module } = await app.service
      .from('modules')
      .select('id')
      .eq('course_id', courseId)
      .single();
    const lesson = await insertRow<{ id: string }>(app.service, 'lessons', {
      module_id: (module as { id: string }).id,
      course_id: courseId,
      position: 9,
      title: 'Reading: the bronchi',
      kind: 'pdf',
      file_path: filePath,
      estimated_minutes: 10,
    });
    const lessonId = lesson.id;
    await app.expectNoSeriousAxeViolations(
      instructor.email,
      `/app/course-editor/${courseId}/lessons/${lessonId}`,
      'lesson-editor-pdf',
      'Reading: the bronchi',
    );
    await app.expectNoSeriousAxeViolations(
      learner.email,
      `/app/courses/${courseId}/lessons/${lessonId}`,
      'lesson-pdf-learner',
      'Reading: the bronchi',
    );
  });
});
