/**
 * The GDPR export streamed into storage (decision 0429), on both databases and both blob
 * backends: a learner with more records than one page of a table and a stored file bigger
 * than one S3 part files an access request, their org admin prepares the export, and the zip
 * they download holds every record once (JSON and CSV), the README's counts and the file's
 * exact bytes. The export reads one snapshot, each table once (decision 0437): a note the
 * learner writes while it reads their notes is in neither file nor the README's counts.
 */
import { randomBytes } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildExport,
  EXPORT_BUCKET,
  EXPORT_PAGE_ROWS,
} from '../../src/server/compliance/personal-data';
import type { Database, Queryable } from '../../src/server/db/types';
import { MULTIPART_PART_BYTES } from '../../src/server/storage/s3-blob-store';
import { startBlobBackend, storageSetups, type TestBlobBackend } from '../support/blob-backends';
import { startTestServer, type TestServer } from '../support/test-server';
import { createPrivacyUser, type PrivacyUser } from './privacy-support';

const NOTES = EXPORT_PAGE_ROWS * 2 + 1;

describe.each(storageSetups)('a streamed data export on %s with %s blobs', (kind, backend) => {
  let blobs: TestBlobBackend;
  let server: TestServer;
  let learner: PrivacyUser;
  let admin: PrivacyUser;
  const upload = randomBytes(MULTIPART_PART_BYTES + 512 * 1024);

  const call = (who: PrivacyUser, method: 'GET' | 'POST', path: string, body?: object) =>
    fetch(`${server.url}/functions/v1/privacy${path}`, {
      method,
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${who.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });

  beforeAll(async () => {
    blobs = await startBlobBackend(backend);
    server = await startTestServer(kind, blobs.env);
    learner = await createPrivacyUser(server, 'streamed');
    admin = await createPrivacyUser(server, 'handler');
    const service = server.service();
    const created = await service
      .from('organizations')
      .insert({ name: 'Stream U', slug: `stream-${kind}-${backend}` })
      .select('id')
      .single();
    const org = created.data!.id as string;
    const memberships = await service.from('memberships').insert([
      { user_id: learner.id, organization_id: org, role: 'learner' },
      { user_id: admin.id, organization_id: org, role: 'org_admin' },
    ]);
    expect(memberships.error).toBeNull();
    const notes = await learner.client.from('notes').insert(
      Array.from({ length: NOTES }, (_, i) => ({
        title: `Note ${i + 1}`,
        body: i === 0 ? '=HYPERLINK("x")\nsecond line, "quoted"' : `Body ${i + 1}`,
      })),
    );
    expect(notes.error).toBeNull();
    const stored = await learner.client.storage
      .from('kb_files')
      .upload(`${learner.id}/scan.pdf`, new Blob([upload], { type: 'application/pdf' }), {
        contentType: 'application/pdf',
      });
    expect(stored.error).toBeNull();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await blobs?.stop();
  });

  it('holds every record once, the README’s counts and the stored file’s bytes', async () => {
    const { data: request, error } = await learner.client.rpc('create_data_subject_request', {
      type: 'portability',
    });
    expect(error).toBeNull();
    const queued = await call(admin, 'POST', '/exports', {
      requestId: (request as { id: string }).id,
    });
    expect(queued.status).toBe(202);
    const { exportId } = (await queued.json()) as { exportId: string };
    await expect
      .poll(
        async () =>
          (
            await server.deps.db.query<{ status: string }>(
              'select status from privacy.data_exports where id = $1',
              [exportId],
            )
          ).rows[0]?.status,
        { timeout: 90_000, interval: 250 },
      )
      .toBe('ready');
    const link = await call(learner, 'GET', `/exports/${exportId}/link`);
    const { url } = (await link.json()) as { url: string };
    const token = new URL(url, server.url).searchParams.get('token')!;
    const download = await call(learner, 'GET', `/exports/download?token=${token}`);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    const { rows: recorded } = await server.deps.db.query<{ size_bytes: number }>(
      'select size_bytes from privacy.data_exports where id = $1',
      [exportId],
    );
    expect(bytes.byteLength).toBe(Number(recorded[0]!.size_bytes));
    const zip = unzipSync(bytes);

    const notes = JSON.parse(strFromU8(zip['data/public-notes.json']!)) as {
      id: string;
      title: string;
      body: string;
    }[];
    expect(notes).toHaveLength(NOTES);
    expect(new Set(notes.map((n) => n.id)).size).toBe(NOTES);
    expect(notes.map((n) => n.title).sort()).toEqual(
      Array.from({ length: NOTES }, (_, i) => `Note ${i + 1}`).sort(),
    );
    const csv = strFromU8(zip['data/public-notes.csv']!);
    expect(csv.match(/(^|,)Note \d+,/gm)).toHaveLength(NOTES);
    expect(csv).toContain(`"'=HYPERLINK(""x"")\nsecond line, ""quoted"""`);
    expect(csv.endsWith('\r\n')).toBe(true);

    const audit = JSON.parse(
      strFromU8(zip['data/public-audit_log.subject_user_id.json']!),
    ) as unknown[];
    expect(audit.length).toBeGreaterThanOrEqual(NOTES);

    const readme = strFromU8(zip['README.md']!);
    const notesLine = readme
      .split('\n')
      .find((line) => line.startsWith('| data/public-notes.json'));
    expect(notesLine).toMatch(new RegExp(`\\| ${NOTES.toLocaleString('en')} \\|$`));
    expect(readme).toContain(`- files/kb_files/${learner.id}/scan.pdf`);
    expect(Buffer.from(zip[`files/kb_files/${learner.id}/scan.pdf`]!).equals(upload)).toBe(true);
  }, 180_000);

  it('reads one snapshot, each table once: a note written while the export reads is in no file', async () => {
    const { db, storage } = server.deps;
    // A note whose key sorts after every other, so a second read of the table would meet it on
    // its last page.
    const late = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
    let notePages = 0;
    let written: Promise<unknown> | undefined;
    // The learner writes a note while the export reads the first page of their notes. On
    // PostgreSQL the write commits (another connection) before the export reads on; on PGlite,
    // one connection, it waits its turn (awaiting it inside the export would deadlock).
    const watch = (target: Queryable): Queryable => ({
      exec: (sql) => target.exec(sql),
      async query(sql, params) {
        const result = await target.query(sql, params);
        if (sql.includes('export_personal_data_page') && params?.[1] === 'public.notes') {
          notePages += 1;
          if (notePages === 1) {
            written = db.query(
              `insert into public.notes (id, user_id, title, body)
               values ($1, $2, 'Written during the export', 'Late')`,
              [late, learner.id],
            );
            if (db.kind === 'postgres') await written;
          }
        }
        return result as never;
      },
    });
    const watched: Database = {
      ...db,
      query: (sql, params) => watch(db).query(sql, params),
      transaction: (fn) => db.transaction((tx) => fn(watch(tx))),
    };
    const { rows } = await db.query<{ id: string }>(
      'insert into privacy.data_exports (user_id, requested_by) values ($1, $1) returning id',
      [learner.id],
    );
    const built = await buildExport({ db: watched, storage }, rows[0]!.id);
    await written;
    // The note was written, and the export had begun reading the notes before it was.
    const { rows: count } = await db.query<{ n: number }>(
      'select count(*)::int as n from public.notes where user_id = $1',
      [learner.id],
    );
    expect(count[0]!.n).toBe(NOTES + 1);

    const stored = await storage.getObject(EXPORT_BUCKET, built.objectPath);
    const zip = unzipSync(new Uint8Array(stored!.bytes));
    const notes = JSON.parse(strFromU8(zip['data/public-notes.json']!)) as { id: string }[];
    expect(notes).toHaveLength(NOTES);
    expect(notes.map((n) => n.id)).not.toContain(late);
    const csv = strFromU8(zip['data/public-notes.csv']!);
    expect(csv).not.toContain(late);
    expect(csv.match(/(^|,)Note \d+,/gm)).toHaveLength(NOTES);
    const readme = strFromU8(zip['README.md']!);
    expect(readme.split('\n').find((line) => line.startsWith('| data/public-notes.json'))).toMatch(
      new RegExp(`\\| ${NOTES.toLocaleString('en')} \\|$`),
    );
    // Nor is the audit entry the write made (the learner's audit entries are exported too).
    const audit = strFromU8(zip['data/public-audit_log.subject_user_id.json']!);
    expect(audit).not.toContain(late);
    // Each page of the notes was read once: JSON and CSV come from the same pass.
    expect(notePages).toBe(Math.ceil((NOTES + 1) / EXPORT_PAGE_ROWS));
    await db.query('delete from public.notes where id = $1', [late]);
  }, 180_000);
});
