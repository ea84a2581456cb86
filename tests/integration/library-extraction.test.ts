/**
 * The library's text (decision 0151) through supabase-js: an instructor's upload is extracted
 * by the library function (PDF pages with the outline, ePub chapters), the learner's search
 * finds lesson text and file text ranked with marked snippets and the page or chapter of the
 * hit; bad files (not a PDF, damaged, password-protected, DRM) get a clear error and store
 * nothing; a learner cannot extract, and nobody outside the course finds anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, insertRow, type LearningFixture } from './learning-fixture';

const library = path.resolve('content/library');
const samplePdf = fs.readFileSync(path.join(library, 'respiratory-system-reader.pdf'));
const sampleEpub = fs.readFileSync(path.join(library, 'cell-biology-reader.epub'));

/** A PDF whose user password is not empty: its /U entry matches no key pdf.js can derive. */
function passwordPdf(): Buffer {
  const hex = (n: number) => 'ab'.repeat(n);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${hex(32)}> /U <${hex(32)}> /P -4 >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 4 0 R /ID [<${hex(16)}> <${hex(16)}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** An ePub whose chapter is listed as encrypted (DRM). */
function drmEpub(): Uint8Array {
  return zipSync({
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    'META-INF/encryption.xml': strToU8(
      '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData><enc:CipherReference URI="OEBPS/one.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>',
    ),
    'OEBPS/content.opf': strToU8(
      '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Locked</dc:title></metadata><manifest><item id="one" href="one.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="one"/></spine></package>',
    ),
    'OEBPS/one.xhtml': new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
  });
}

interface Hit {
  lesson_id: string;
  kind: string;
  position: number | null;
  label: string;
  snippet: string;
  rank: number;
  total_count: number;
}

describe.each(databaseKinds)('library text on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  let instructor: SupabaseClient;
  let learner: SupabaseClient;

  async function upload(name: string, bytes: Uint8Array, type: string) {
    const filePath = `${f.course}/${name}`;
    const { error } = await instructor.storage
      .from('course-files')
      .upload(filePath, bytes, { contentType: type });
    expect(error).toBeNull();
    return filePath;
  }

  async function extract(client: SupabaseClient, filePath: string) {
    const { data, error } = await client.functions.invoke('library/extract', {
      body: { path: filePath },
    });
    if (!error) return { status: 200, body: data as Record<string, unknown> };
    const response = (error as { context?: Response }).context!;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function storedPages(filePath: string) {
    const { data } = await f.service
      .from('course_document_pages')
      .select('position, course_documents!inner(file_path)')
      .eq('course_documents.file_path', filePath);
    return data ?? [];
  }

  async function search(
    client: SupabaseClient,
    query: string,
    extra: Record<string, unknown> = {},
  ) {
    const { data, error } = await client.rpc('search_library', { query, ...extra });
    expect(error).toBeNull();
    return data as Hit[];
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
    instructor = f.users.instructor.client;
    learner = f.users.learner.client;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('extracts a PDF page by page with its outline, and the learner finds it ranked with a snippet', async () => {
    const filePath = await upload('reader.pdf', samplePdf, 'application/pdf');
    const extracted = await extract(instructor, filePath);
    expect(extracted.status).toBe(200);
    expect(extracted.body).toMatchObject({ kind: 'pdf', sections: 33, outline: 8 });
    const lesson = await insertRow<{ id: string }>(f.service, 'lessons', {
      module_id: f.module,
      course_id: f.course,
      position: 20,
      title: 'Course reader',
      kind: 'pdf',
      file_path: filePath,
    });

    const hits = await search(learner, 'alveoli surfactant');
    const fromFile = hits.filter((h) => h.lesson_id === lesson.id);
    expect(fromFile.length).toBeGreaterThan(0);
    const best = fromFile[0]!;
    expect(best.kind).toBe('pdf');
    expect(best.position).toBeGreaterThan(1);
    expect(best.snippet).toMatch(/\uE000(alveol|surfact)\w*\uE001/i);
    expect(hits.map((h) => h.rank)).toEqual([...hits.map((h) => h.rank)].sort((a, b) => b - a));
    // The page it names holds the words.
    const { data: page } = await learner
      .from('course_document_pages')
      .select('body')
      .eq('position', best.position!)
      .limit(1)
      .single();
    expect((page as { body: string }).body.toLowerCase()).toContain('surfactant');
  });

  it('extracts an ePub chapter by chapter with titles from its contents', async () => {
    const filePath = await upload('reader.epub', sampleEpub, 'application/epub+zip');
    const extracted = await extract(instructor, filePath);
    expect(extracted.status).toBe(200);
    expect(extracted.body).toMatchObject({ kind: 'epub', sections: 9, outline: 8 });
    await insertRow(f.service, 'lessons', {
      module_id: f.module,
      course_id: f.course,
      position: 21,
      title: 'Cell biology reader',
      kind: 'epub',
      file_path: filePath,
    });
    const hits = await search(learner, 'mitochondria cristae', { kinds: ['epub'] });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.kind === 'epub')).toBe(true);
    expect(hits[0]!.label).toMatch(/Mitochondria/);
  });

  it('searches lesson text too, and lists every readable lesson without a query', async () => {
    const { data: lessons } = await f.service
      .from('lessons')
      .select('id, title')
      .eq('course_id', f.course);
    const listed = await search(learner, '', { course: f.course, row_limit: 100 });
    expect(new Set(listed.map((h) => h.lesson_id))).toEqual(
      new Set((lessons as { id: string }[]).map((l) => l.id)),
    );
    const title = (lessons as { title: string }[])[0]!.title.split(/\s+/)[0]!;
    const hits = await search(learner, title);
    expect(hits.some((h) => h.position === null)).toBe(true);
  });

  it('refuses bad files with a clear error and stores nothing', async () => {
    const cases = [
      ['not-a.pdf', Buffer.from('just some text, not a PDF'), 400, 'not_pdf', /not a PDF/],
      [
        'damaged.pdf',
        Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >>\n%%EOF'),
        422,
        'corrupt',
        /damaged/,
      ],
      ['locked.pdf', passwordPdf(), 422, 'encrypted', /password/],
      ['locked.epub', Buffer.from(drmEpub()), 422, 'encrypted', /DRM/],
      ['broken.epub', Buffer.from('PK\u0003\u0004broken'), 422, 'corrupt', /damaged/],
    ] as const;
    for (const [name, bytes, status, code, message] of cases) {
      const filePath = await upload(
        name,
        bytes,
        name.endsWith('pdf') ? 'application/pdf' : 'application/epub+zip',
      );
      const result = await extract(instructor, filePath);
      expect({ name, status: result.status, code: result.body.code }).toEqual({
        name,
        status,
        code,
      });
      expect(String(result.body.message)).toMatch(message);
      expect(await storedPages(filePath)).toEqual([]);
      const { data } = await f.service
        .from('course_documents')
        .select('object_id')
        .eq('file_path', filePath);
      expect(data).toEqual([]);
    }
  });

  it('lets only those who teach the course extract, and shows nothing outside it', async () => {
    const filePath = `${f.course}/reader.pdf`;
    expect((await extract(learner, filePath)).status).toBe(403);
    for (const outsider of ['other_learner', 'personal', 'deactivated', 'board_admin'] as const) {
      const client = f.users[outsider].client;
      expect(await search(client, 'alveoli')).toEqual([]);
      expect(await search(client, '')).toEqual([]);
      const { data } = await client.from('course_document_pages').select('position').limit(1);
      expect(data).toEqual([]);
    }
  });

  it('removes the text with the file', async () => {
    const filePath = await upload('gone.pdf', samplePdf, 'application/pdf');
    expect((await extract(instructor, filePath)).status).toBe(200);
    expect((await storedPages(filePath)).length).toBe(33);
    await instructor.storage.from('course-files').remove([filePath]);
    expect(await storedPages(filePath)).toEqual([]);
  });
});
