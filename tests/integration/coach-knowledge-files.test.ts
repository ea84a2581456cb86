/**
 * General Knowledge mode over files (decision 0221), through supabase-js: the text of a
 * course's PDF (extracted by the library) is found and cited as its lesson and page; a
 * learner's own files in the private `kb_files` bucket are theirs alone to upload, read and
 * delete, their text is extracted through the library's code, found for them and nobody else,
 * and gone with the file; bad files and other people's paths get clear refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../support/minimal-pdf';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildCoachWorld, chat, type CoachUser, type CoachWorld } from './coach-world';

const NOTES = `# My revision notes

Gradient descent walks downhill on the loss surface, taking steps proportional to the negative gradient.

The learning rate sets the size of each gradient descent step: too large and it overshoots.`;

describe.each(databaseKinds)('General Knowledge over files on %s', (kind) => {
  let server: TestServer;
  let w: CoachWorld;
  let owner: CoachUser;

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    w = await buildCoachWorld(server);
    owner = await w.newLearner('kb-owner');
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function extractOwn(who: CoachUser, path: string) {
    const response = await fetch(`${server.url}/functions/v1/library/extract-own`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${who.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ path }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function ask(who: CoachUser, message: string) {
    const { status, body } = await chat(server, who, { mode: 'general', message });
    expect(status, JSON.stringify(body)).toBe(200);
    return body.reply;
  }

  it("cites a course PDF's page, found through the library's extracted text", async () => {
    const path = `${w.course}/elimination-reader.pdf`;
    const upload = await w.teacher.client.storage
      .from('course-files')
      .upload(path, minimalPdf('Cramer rule solves a linear system with determinants'), {
        contentType: 'application/pdf',
      });
    expect(upload.error).toBeNull();
    const modules = await server.service().from('modules').select('id').eq('course_id', w.course);
    const lesson = await server
      .service()
      .from('lessons')
      .insert({
        course_id: w.course,
        module_id: modules.data![0]!.id,
        position: 99,
        slug: 'cramer-reader',
        title: 'Cramer reader',
        kind: 'pdf',
        file_path: path,
      })
      .select('id')
      .single();
    expect(lesson.error).toBeNull();
    const extracted = await w.teacher.client.functions.invoke('library/extract', {
      body: { path },
    });
    expect(extracted.error).toBeNull();

    const reply = await ask(w.learner, 'What does the Cramer rule solve with determinants?');
    expect(reply).toContain('Cramer rule solves a linear system with determinants');
    expect(reply).toContain(
      `Source: the file of the lesson [Cramer reader, page 1](/app/courses/${w.course}/lessons/${lesson.data!.id})`,
    );
    expect(await ask(w.outsider, 'What does the Cramer rule solve with determinants?')).toMatch(
      /^I don't know/,
    );
  });

  it("keeps a learner's own files to themselves, and answers from them for their owner alone", async () => {
    const path = `${owner.id}/revision-notes.md`;
    const upload = await owner.client.storage
      .from('kb_files')
      .upload(path, new TextEncoder().encode(NOTES), { contentType: 'text/markdown' });
    expect(upload.error).toBeNull();

    // Nobody else reads it, writes into the owner's folder, or lists it; the teacher neither.
    for (const other of [w.learner, w.teacher]) {
      const read = await other.client.storage.from('kb_files').download(path);
      expect(read.data).toBeNull();
      const write = await other.client.storage
        .from('kb_files')
        .upload(`${owner.id}/planted.md`, new TextEncoder().encode('# Planted'), {
          contentType: 'text/markdown',
        });
      expect(write.error).not.toBeNull();
      const listed = await other.client.storage.from('kb_files').list(owner.id);
      expect(listed.data ?? []).toEqual([]);
    }
    const anonymous = await server.anon().storage.from('kb_files').download(path);
    expect(anonymous.data).toBeNull();

    const extracted = await extractOwn(owner, path);
    expect(extracted).toEqual({
      status: 200,
      body: {
        filePath: path,
        kind: 'text',
        title: 'My revision notes',
        sections: 1,
        textChars: expect.any(Number) as number,
      },
    });
    const pages = await w.learner.client.from('kb_document_pages').select('object_id');
    expect(pages.data).toEqual([]);
    const own = await owner.client.from('kb_documents').select('file_path, title');
    expect(own.data).toEqual([{ file_path: path, title: 'My revision notes' }]);

    const reply = await ask(owner, 'Why does gradient descent overshoot the loss surface?');
    expect(reply).toMatch(/overshoots|loss surface/);
    expect(reply).toContain('Source: your file *My revision notes*');
    expect(await ask(w.learner, 'Why does gradient descent overshoot the loss surface?')).toMatch(
      /^I don't know/,
    );

    // Deleting the file deletes its text: the coach no longer knows.
    const removed = await owner.client.storage.from('kb_files').remove([path]);
    expect(removed.error).toBeNull();
    expect((await owner.client.from('kb_documents').select('object_id')).data).toEqual([]);
    expect(await ask(owner, 'Why does gradient descent overshoot the loss surface?')).toMatch(
      /^I don't know/,
    );
  });

  it('refuses files it cannot read and paths that are not the caller’s, storing nothing', async () => {
    const put = async (name: string, bytes: Uint8Array, type: string) => {
      const { error } = await owner.client.storage
        .from('kb_files')
        .upload(`${owner.id}/${name}`, bytes, { contentType: type, upsert: true });
      expect(error).toBeNull();
      return `${owner.id}/${name}`;
    };
    const latin1 = await put('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/plain');
    expect(await extractOwn(owner, latin1)).toMatchObject({
      status: 422,
      body: { code: 'corrupt', message: expect.stringContaining('not UTF-8') as string },
    });
    const fake = await put('fake.pdf', new TextEncoder().encode('not a pdf'), 'application/pdf');
    const fakeAnswer = await extractOwn(owner, fake);
    expect(fakeAnswer.status).toBeGreaterThanOrEqual(400);
    expect(fakeAnswer.body.code).toMatch(/not_pdf|corrupt/);
    expect(await extractOwn(owner, `${owner.id}/notes.docx`)).toMatchObject({
      status: 400,
      body: { code: 'invalid_input' },
    });
    // Another learner's folder reads as missing, whether the file exists or not.
    const theirs = await put(
      'mine.md',
      new TextEncoder().encode('# Mine\n\nprivate'),
      'text/markdown',
    );
    expect(await extractOwn(w.learner, theirs)).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    expect(await extractOwn(owner, `${owner.id}/missing.md`)).toMatchObject({ status: 404 });
    const stored = await owner.client.from('kb_documents').select('file_path');
    expect(stored.data).toEqual([]);
    // The bucket refuses other kinds of file at upload.
    const exe = await owner.client.storage
      .from('kb_files')
      .upload(`${owner.id}/tool.exe`, new Uint8Array([0x4d, 0x5a]), {
        contentType: 'application/x-msdownload',
      });
    expect(exe.error).not.toBeNull();
  });
});
