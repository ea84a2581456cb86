/**
 * LE Adapt's job (issue 14, decisions 0500–0502) through supabase-js on PGlite and PostgreSQL:
 * an upload of each format runs through extraction (source positions kept) and structuring
 * (objectives with measurable verbs, sections, glossary, a quiz of the three kinds); every bad
 * input fails its job's first stage with the reason, stores nothing outside the job's folder,
 * and leaves the worker running; retry, cancel, section review and approval follow the roles.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  corruptPdf,
  docxWithExternalImage,
  imageOnlyPdf,
  LAUGHS_MANIFEST,
  lessonDocx,
  lessonPdf,
  lessonTxt,
  passwordPdf,
  ratioBombPackage,
  scormPackage,
  symlinkPackage,
  totalSizeBombPackage,
  XXE_MANIFEST,
  zipSlipPackage,
} from '../support/adapt-documents';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, type Actor, type LearningFixture } from './learning-fixture';

interface JobRow {
  id: string;
  status: string;
  organization_id: string | null;
  source_path: string | null;
  approved_by: string | null;
  adapt_job_stages: Array<{
    stage: number;
    name: string;
    status: string;
    error: string | null;
    engine: string | null;
    duration_ms: number | null;
    output: unknown;
    report: { changes: string[]; engine: { label: string } } | null;
  }>;
}

describe.each(databaseKinds)('LE Adapt pipeline on %s', (kind) => {
  let server: TestServer;
  let fx: LearningFixture;

  beforeAll(async () => {
    server = await startTestServer(kind);
    fx = await buildLearningFixture(server);
  }, 120_000);
  afterAll(() => server?.stop());

  async function upload(
    actor: Actor,
    name: string,
    bytes: Uint8Array,
    options: Record<string, string> = {},
  ): Promise<{ data: JobRow | null; status: number; error: string | null }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    for (const [key, value] of Object.entries(options)) form.append(key, value);
    const response = await fetch(`${server.url}/functions/v1/adapt/jobs`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        Authorization: `Bearer ${actor === 'anon' ? server.anonKey : fx.users[actor].token}`,
      },
      body: form,
    });
    const body = (await response.json()) as JobRow & { error?: string };
    return {
      data: response.ok ? body : null,
      status: response.status,
      error: body.error ?? null,
    };
  }

  async function call(actor: Actor, route: string, method = 'POST', body: unknown = {}) {
    const response = await fetch(`${server.url}/functions/v1/adapt/${route}`, {
      method,
      headers: {
        apikey: server.anonKey,
        Authorization: `Bearer ${actor === 'anon' ? server.anonKey : fx.users[actor].token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function read(client: SupabaseClient, id: string): Promise<JobRow | null> {
    const { data, error } = await client
      .from('adapt_jobs')
      .select('*, adapt_job_stages(*)')
      .eq('id', id)
      .maybeSingle();
    if (error) throw new Error(error.message);
    if (data) (data as JobRow).adapt_job_stages.sort((a, b) => a.stage - b.stage);
    return data as JobRow | null;
  }

  /** The job once the worker has finished with it (done, failed or cancelled). */
  async function settled(id: string, client: SupabaseClient = fx.service): Promise<JobRow> {
    await expect
      .poll(async () => (await read(client, id))?.status, { timeout: 90_000, interval: 200 })
      .toMatch(/^(done|failed|cancelled)$/);
    return (await read(client, id))!;
  }

  const orgA = () => ({ organizationId: fx.orgA });

  it('extracts a PDF page by page and structures it into a lesson', async () => {
    const created = await upload('instructor', 'reader.pdf', await lessonPdf(), {
      ...orgA(),
      readingLevel: '7',
      learnerProfile: 'dyslexia',
    });
    expect(created.status).toBe(201);
    const job = await settled(created.data!.id, fx.client('instructor'));
    expect(job.status).toBe('done');
    const [extract, structure] = job.adapt_job_stages;
    expect(extract).toMatchObject({ name: 'extract', status: 'done', error: null });
    expect(extract!.engine).toMatch(/pdf\.js/);
    const extracted = extract!.output as {
      format: string;
      blocks: Array<{ text: string; source: { kind: string; page: number } }>;
    };
    expect(extracted.format).toBe('pdf');
    expect(extracted.blocks.length).toBeGreaterThan(10);
    expect(extracted.blocks.every((b) => b.source.kind === 'page')).toBe(true);
    expect(extracted.blocks.map((b) => b.source.page)).toEqual(
      [...extracted.blocks.map((b) => b.source.page)].sort((a, b) => a - b),
    );
    expect(extract!.report!.changes[0]).toMatch(/^Read \d+ pages with text/);

    expect(structure).toMatchObject({ name: 'structure', status: 'done' });
    const lesson = structure!.output as {
      objectives: Array<{ verb: string; text: string }>;
      sections: Array<{ id: string; heading: string; body: string; sources: unknown[] }>;
      glossary: Array<{ term: string; definition: string }>;
      quiz: Array<{ kind: string; keyPoints: string[] }>;
    };
    expect(lesson.objectives.length).toBeGreaterThanOrEqual(3);
    for (const objective of lesson.objectives) {
      expect(objective.text.toLowerCase().startsWith(objective.verb)).toBe(true);
    }
    expect(lesson.sections.length).toBeGreaterThan(3);
    expect(lesson.sections.every((s) => s.sources.length > 0 && s.body.length > 0)).toBe(true);
    expect(lesson.glossary.length).toBeGreaterThanOrEqual(4);
    expect(new Set(lesson.quiz.map((q) => q.kind))).toEqual(
      new Set(['multiple_choice', 'cloze', 'short_answer']),
    );
    expect(structure!.report!.engine.label).toBe('Built-in offline engine');

    // Stages 3 and 4 (adapt-outputs' engines) run from the stored lesson, with the options.
    const [, , accessible, review] = job.adapt_job_stages;
    expect(accessible).toMatchObject({ name: 'accessible', status: 'done' });
    expect(accessible!.output).toMatchObject({ profile: 'dyslexia', readingLevel: { target: 7 } });
    expect(review).toMatchObject({ name: 'review', status: 'done' });
    expect(review!.output).toHaveProperty('fidelity.facts');
    for (const stage of job.adapt_job_stages) {
      expect(stage.duration_ms).toBeGreaterThanOrEqual(0);
      expect(stage.report!.changes.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ['reader.docx', () => lessonDocx(), 'docx', 'paragraph'],
    ['reader.txt', () => lessonTxt(), 'txt', 'paragraph'],
    ['scorm-12.zip', () => scormPackage({ version: '1.2' }), 'scorm', 'sco'],
    ['scorm-2004.zip', () => scormPackage({ version: '2004' }), 'scorm', 'sco'],
  ])('reads %s with its source positions', async (name, make, format, position) => {
    const created = await upload('instructor', name, make(), orgA());
    const job = await settled(created.data!.id);
    expect(job.adapt_job_stages.map((s) => [s.name, s.status, s.error])).toEqual([
      ['extract', 'done', null],
      ['structure', 'done', null],
      ['accessible', 'done', null],
      ['review', 'done', null],
    ]);
    const extracted = job.adapt_job_stages[0]!.output as {
      format: string;
      blocks: Array<{ source: { kind: string; order?: number } }>;
    };
    expect(extracted.format).toBe(format);
    expect(extracted.blocks.every((b) => b.source.kind === position)).toBe(true);
    if (format === 'scorm') {
      expect(extracted.blocks.map((b) => b.source.order)).toEqual(
        extracted.blocks.map((_, i) => i + 1),
      );
      expect(job.adapt_job_stages[0]!.report!.changes.join(' ')).toMatch(
        name.includes('2004') ? /SCORM 2004/ : /SCORM 1\.2/,
      );
    }
  });

  const badInputs: Array<[string, string, () => Uint8Array | Promise<Uint8Array>, RegExp]> = [
    ['zip bomb (ratio)', 'bomb.zip', ratioBombPackage, /inflates \d+ times.*ZIP bomb/],
    ['zip bomb (total size)', 'big.zip', totalSizeBombPackage, /unpacks to more than .*ZIP bomb/],
    ['zip slip', 'slip.zip', () => zipSlipPackage(), /climbs out with "\.\."/],
    [
      'absolute path',
      'absolute.zip',
      () => zipSlipPackage('/tmp/adapt-absolute.html'),
      /absolute path/,
    ],
    ['symlink', 'link.zip', symlinkPackage, /symbolic link/],
    [
      'XXE manifest',
      'xxe.zip',
      () => scormPackage({ version: '1.2', manifest: XXE_MANIFEST }),
      /DTD or entities/,
    ],
    [
      'entity expansion',
      'laughs.zip',
      () => scormPackage({ version: '2004', manifest: LAUGHS_MANIFEST }),
      /DTD or entities/,
    ],
    ['encrypted PDF', 'locked.pdf', passwordPdf, /protected by a password/],
    ['corrupt PDF', 'broken.pdf', corruptPdf, /damaged/],
    ['image-only PDF', 'scan.pdf', imageOnlyPdf, /OCR is not available/],
    [
      'DOCX with an external reference',
      'linked.docx',
      docxWithExternalImage,
      /refers to files outside itself.*file:\/\/\/etc\/passwd/,
    ],
    [
      'PDF named .docx',
      'really-a-pdf.docx',
      () => lessonPdf(),
      /named \.docx but holds a PDF document/,
    ],
    [
      'DOCX named .pdf',
      'really-a-docx.pdf',
      () => lessonDocx(),
      /named \.pdf but holds a Word document/,
    ],
    [
      'binary named .txt',
      'noise.txt',
      () => new Uint8Array([0, 1, 2, 3, 255, 0, 7]),
      /named \.txt but holds binary data/,
    ],
    [
      'file over the size limit',
      'huge.txt',
      () => new Uint8Array(50 * 1024 * 1024 + 1).fill(65),
      /50\.0 MB; files of up to 50\.0 MB/,
    ],
  ];

  it('fails each bad input on its first stage with the reason, stores nothing outside the job, and keeps working', async () => {
    const storageRoot = path.join(server.dataDir, 'storage');
    // Every file is built first, then uploaded one after another (the jobs run meanwhile), so
    // no upload waits on a builder long enough for the server to close its idle connection.
    const files = [];
    for (const [, name, make] of badInputs) files.push({ name, bytes: await make() });
    const created: Awaited<ReturnType<typeof upload>>[] = [];
    for (const { name, bytes } of files)
      created.push(await upload('instructor', name, bytes, orgA()));
    for (const [index, [what, , , reason]] of badInputs.entries()) {
      expect(created[index]!.status, what).toBe(201);
      const job = await settled(created[index]!.data!.id);
      expect(job.status, what).toBe('failed');
      expect(job.adapt_job_stages[0]!.status, what).toBe('failed');
      expect(job.adapt_job_stages[0]!.error, what).toMatch(reason);
      expect(job.adapt_job_stages[1]!.status, what).toBe('queued');
    }
    // Only the uploads themselves, each under its job's folder; nothing the archives named.
    const { data: stored } = await fx.service.storage
      .from('adapt-sources')
      .list('', { limit: 1000 });
    const folders = new Set(created.map((c) => c.data!.id));
    for (const entry of stored ?? [])
      expect(folders.has(entry.name) || entry.name.length === 36).toBe(true);
    expect(fs.existsSync(path.resolve(storageRoot, '../../../adapt-zip-slip.html'))).toBe(false);
    expect(fs.existsSync('/tmp/adapt-absolute.html')).toBe(false);
    // The oversized file was not stored at all.
    const huge = created[badInputs.findIndex(([, name]) => name === 'huge.txt')]!.data!;
    expect(huge.source_path).toBeNull();

    // The worker is still there.
    const after = await upload('instructor', 'after.txt', lessonTxt(), orgA());
    expect((await settled(after.data!.id)).status).toBe('done');
  }, 240_000);

  it('lets Educators and Admins create jobs, Personal-mode users their own, and nobody else', async () => {
    const txt = lessonTxt();
    expect((await upload('learner', 'a.txt', txt, orgA())).status).toBe(403);
    expect((await upload('compliance', 'a.txt', txt, orgA())).status).toBe(403);
    expect((await upload('other_admin', 'a.txt', txt, orgA())).status).toBe(403);
    expect((await upload('anon', 'a.txt', txt, orgA())).status).toBe(401);
    expect((await upload('instructor', 'a.txt', txt)).status).toBe(403);
    const personal = await upload('personal', 'mine.txt', txt);
    expect(personal.status).toBe(201);
    expect(personal.data!.organization_id).toBeNull();
    await settled(personal.data!.id);
    expect(await read(fx.client('personal'), personal.data!.id)).not.toBeNull();
    expect(await read(fx.client('org_admin'), personal.data!.id)).toBeNull();
  });

  it('retries a failed job, cancels a queued one, and approves through a Reviewer or Admin only', async () => {
    const failed = await upload('instructor', 'scan.pdf', await imageOnlyPdf(), orgA());
    await settled(failed.data!.id);
    expect((await call('learner', `jobs/${failed.data!.id}/retry`)).status).toBe(404);
    expect((await call('board_admin', `jobs/${failed.data!.id}/retry`)).status).toBe(403);
    const retried = await call('instructor', `jobs/${failed.data!.id}/retry`);
    expect(retried.status).toBe(200);
    const again = await settled(failed.data!.id);
    expect(again.status).toBe('failed');
    expect(again.adapt_job_stages[0]!.error).toMatch(/OCR is not available/);

    const good = await upload('instructor', 'good.txt', lessonTxt(), orgA());
    const done = await settled(good.data!.id);
    expect(done.status).toBe('done');
    expect((await call('instructor', `jobs/${good.data!.id}/cancel`)).status).toBe(409);
    expect((await call('instructor', `jobs/${good.data!.id}/retry`)).status).toBe(409);

    const sectionId = (done.adapt_job_stages[1]!.output as { sections: Array<{ id: string }> })
      .sections[0]!.id;
    const edit = await call('board_admin', `jobs/${good.data!.id}/sections/${sectionId}`, 'PUT', {
      state: 'edited',
      heading: 'A clearer heading',
      body: 'A clearer first section.',
    });
    expect(edit.status).toBe(200);
    const { data: reviews } = await fx
      .client('instructor')
      .from('adapt_section_reviews')
      .select('section_id, state, heading, reviewed_by')
      .eq('job_id', good.data!.id);
    expect(reviews).toEqual([
      {
        section_id: sectionId,
        state: 'edited',
        heading: 'A clearer heading',
        reviewed_by: fx.users.board_admin.id,
      },
    ]);

    // The creator is the Educator; another Educator (the board admin) reviews it.
    expect((await call('instructor', `jobs/${good.data!.id}/approve`)).status).toBe(403);
    expect((await call('learner', `jobs/${good.data!.id}/approve`)).status).toBe(404);
    const approved = await call('board_admin', `jobs/${good.data!.id}/approve`, 'POST', {
      note: 'Checked against the source.',
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ approved_by: fx.users.board_admin.id });
    expect((await call('org_admin', `jobs/${good.data!.id}/approve`)).status).toBe(409);
    expect(
      (
        await call('org_admin', `jobs/${good.data!.id}/sections/${sectionId}`, 'PUT', {
          state: 'accepted',
        })
      ).status,
    ).toBe(409);
  });

  it('finds past jobs by the words of their text, under row-level security', async () => {
    const created = await upload('instructor', 'archive.txt', lessonTxt(), {
      ...orgA(),
      title: 'Archive check',
    });
    await settled(created.data!.id);
    const { data } = await fx
      .client('org_admin')
      .from('adapt_jobs')
      .select('id, title')
      .textSearch('search', 'alveoli', { type: 'websearch' })
      .eq('id', created.data!.id);
    expect(data).toEqual([{ id: created.data!.id, title: 'Archive check' }]);
    const { data: hidden } = await fx
      .client('other_admin')
      .from('adapt_jobs')
      .select('id')
      .textSearch('search', 'alveoli', { type: 'websearch' });
    expect(hidden).toEqual([]);
  });
});
