/**
 * Fulfilling access, portability and erasure requests from the personal-data registry
 * (privacy.personal_data, decision 0421). Below HTTP: the job queue runs these, the
 * privacy-export function only queues them and serves the finished zip.
 *
 * - `buildExport` streams one zip into the private `privacy-exports` bucket: each registry
 *   table's rows about the person as JSON and CSV, their stored files and README.md. The rows
 *   are read once, in one read-only snapshot (decision 0437).
 * - `eraseAccount` removes the person's stored files, then deletes or anonymises every
 *   registry table's rows in one transaction (privacy.erase_personal_data) and completes the
 *   request with what was done and what was kept, and why.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { strToU8, Zip, ZipDeflate, type ZipInputFile } from 'fflate';
import { csvLine, type CsvValue } from '../../common/csv';
import type { Database, Queryable } from '../db/types';
import type { Storage } from '../storage/storage';
import { recordAuditEvent } from './audit';
import { createExportSpool } from './export-spool';
import { IEP_BUCKET } from './iep-documents';

export const EXPORT_BUCKET = 'privacy-exports';
/** How long a prepared export can be downloaded. */
export const EXPORT_LIFETIME_DAYS = 7;
/**
 * Rows of one table read, zipped and written per query (decision 0429): with the zip's own
 * buffers and one storage part, what the export holds in memory whatever the person's data.
 */
export const EXPORT_PAGE_ROWS = 500;
/** The largest export: fflate writes no ZIP64, whose archives start at 4 GiB. */
export const EXPORT_MAX_BYTES = 2 * 1024 ** 3;

type ExportRow = {
  id: string;
  user_id: string;
  request_id: string | null;
  requested_by: string | null;
  status: string;
};

type TableExport = {
  table_name: string;
  subject_column: string;
  description: string;
  rows: Record<string, unknown>[];
};

/** A registry entry the export includes, and how many of its rows it wrote. */
type ExportedTable = Omit<TableExport, 'rows'> & { records: number };

/**
 * The registry's rows about a person, one entry per registry table and column, all at once
 * (the bench compares it with the paged export; the export job reads pages).
 */
export async function personalData(db: Queryable, userId: string): Promise<TableExport[]> {
  const { rows } = await db.query<TableExport>(
    'select table_name, subject_column, description, rows from privacy.export_personal_data($1)',
    [userId],
  );
  return rows;
}

/** One registry entry's rows about the person, a page at a time, in primary-key order. */
async function* pagesOf(
  db: Queryable,
  userId: string,
  table: Omit<TableExport, 'rows'>,
): AsyncGenerator<Record<string, unknown>[]> {
  let after: unknown = null;
  for (;;) {
    const { rows } = await db.query<{ rows: Record<string, unknown>[]; last_key: unknown }>(
      'select rows, last_key from privacy.export_personal_data_page($1, $2, $3, $4::jsonb, $5)',
      [
        userId,
        table.table_name,
        table.subject_column,
        after === null ? null : JSON.stringify(after),
        EXPORT_PAGE_ROWS,
      ],
    );
    const page = rows[0]!;
    if (page.rows.length > 0) yield page.rows;
    if (page.rows.length < EXPORT_PAGE_ROWS) return;
    after = page.last_key;
  }
}

/** A cell of a table's CSV: objects and arrays as JSON. */
function csvValue(value: unknown): CsvValue {
  return value === null || value === undefined
    ? null
    : typeof value === 'object'
      ? JSON.stringify(value)
      : (value as CsvValue);
}

/** A row as `JSON.stringify(rows, null, 2)` writes an element of the array. */
function jsonElement(row: Record<string, unknown>): string {
  return `  ${JSON.stringify(row, null, 2).replaceAll('\n', '\n  ')}`;
}

function fileName(table: Omit<TableExport, 'rows'>): string {
  const base = table.table_name.replace('.', '-');
  return table.subject_column === defaultColumn(table.table_name)
    ? base
    : `${base}.${table.subject_column}`;
}

function defaultColumn(table: string): string {
  return table === 'auth.users' || table === 'public.profiles' ? 'id' : 'user_id';
}

function readme(
  userId: string,
  tables: ExportedTable[],
  files: string[],
  createdAt: string,
): string {
  const lines = [
    '# Your data at Lyceum',
    '',
    `Prepared ${createdAt} for the account ${userId}, in answer to an access or portability request.`,
    '',
    'Each kind of record is in `data/` twice: as JSON (exact values) and as CSV (for spreadsheets;',
    'nested values are written as JSON). Files you stored are in `files/<bucket>/`. Passwords,',
    'tokens and other secrets are never included. Audit entries list what was done with your',
    'records; the values they recorded are included where the audit log kept them.',
    '',
    '| File | What it holds | Records |',
    '| --- | --- | --- |',
    ...tables.map(
      (t) => `| data/${fileName(t)}.json | ${t.description} | ${t.records.toLocaleString('en')} |`,
    ),
    '',
    files.length === 0
      ? 'You have no stored files.'
      : `Stored files (${files.length}):\n\n${files.map((f) => `- ${f}`).join('\n')}`,
    '',
  ];
  return lines.join('\n');
}

/** Stored files of the person (their avatar, uploads), excluding earlier exports. */
async function filesOf(db: Queryable, userId: string) {
  const { rows } = await db.query<{ bucket_id: string; name: string }>(
    'select bucket_id, name from privacy.storage_objects_of($1) order by 1, 2',
    [userId],
  );
  return rows;
}

/** What the zip held, known once it is written. */
interface ZipContents {
  tables: ExportedTable[];
  files: string[];
  iepFiles: string[];
}

/**
 * One zip entry deflated ahead of the zip (decision 0437): its compressed bytes in a file of
 * the spool, and what the zip's headers need (fflate's `ZipInputFile` with compression 8).
 */
interface SpooledEntry {
  name: string;
  file: string;
  crc: number;
  size: number;
  flag: number;
}

/** Deflates one entry into a file as it is written, a page at a time; memory stays flat. */
async function spoolEntry(dir: string, index: number, name: string) {
  const file = path.join(dir, `${index}.deflate`);
  const handle: FileHandle = await open(file, 'wx', 0o600);
  const deflate = new ZipDeflate(name, { level: 6 });
  let pending: Uint8Array[] = [];
  let failure: Error | null = null;
  deflate.ondata = (error, chunk) => {
    if (error) failure = error;
    else pending.push(chunk);
  };
  const write = async (text: string, final: boolean) => {
    deflate.push(strToU8(text), final);
    if (failure) throw failure;
    const chunks = pending;
    pending = [];
    if (chunks.length > 0) await handle.write(Buffer.concat(chunks));
  };
  return {
    write: (text: string) => write(text, false),
    /** Ends the entry (with its last text) and says where it is and what it holds. */
    async end(text: string): Promise<SpooledEntry> {
      try {
        await write(text, true);
      } finally {
        await handle.close();
      }
      return { name, file, crc: deflate.crc, size: deflate.size, flag: deflate.flag ?? 0 };
    },
    close: () => handle.close().catch(() => undefined),
  };
}

/**
 * Reads the person's records once, in one read-only snapshot (REPEATABLE READ, decision 0437):
 * each registry table's pages are written to its JSON and its CSV entry in the same pass, both
 * deflated into the spool directory, so a record written meanwhile is in neither (nor in the
 * README's counts) and no table is read twice. The stored files are listed in the snapshot too;
 * their bytes are read when the zip is made.
 */
async function readSnapshot(
  db: Database,
  userId: string,
  dir: string,
  contents: ZipContents,
): Promise<{ entries: SpooledEntry[]; files: { bucket_id: string; name: string }[] }> {
  return db.transaction(async (tx) => {
    await tx.query('set transaction isolation level repeatable read, read only');
    const { rows: registry } = await tx.query<Omit<TableExport, 'rows'>>(
      `select table_name, subject_column, description from privacy.personal_data
        where export order by table_name, subject_column`,
    );
    const entries: SpooledEntry[] = [];
    for (const table of registry) {
      const name = fileName(table);
      const json = await spoolEntry(dir, entries.length, `data/${name}.json`);
      const csv = await spoolEntry(dir, entries.length + 1, `data/${name}.csv`);
      try {
        let records = 0;
        // The CSV's columns are the table's (every row has the same keys), so the header is the
        // first row's keys.
        let header: string[] | undefined;
        for await (const page of pagesOf(tx, userId, table)) {
          await json.write(`${records === 0 ? '[\n' : ',\n'}${page.map(jsonElement).join(',\n')}`);
          let text = '';
          if (!header) {
            header = Object.keys(page[0]!);
            text = csvLine(header);
          }
          for (const row of page) text += csvLine(header.map((key) => csvValue(row[key])));
          await csv.write(text);
          records += page.length;
        }
        entries.push(await json.end(records === 0 ? '[]' : '\n]'));
        entries.push(await csv.end(header ? '' : '\r\n'));
        contents.tables.push({ ...table, records });
      } finally {
        await json.close();
        await csv.close();
      }
    }
    return { entries, files: await filesOf(tx, userId) };
  });
}

/**
 * The export's zip as it is made: the records (read by `readSnapshot` into the spool), then the
 * stored files a chunk at a time, then the README (which counts what came before). A
 * generator, so a chunk is read only when storage has taken the bytes of the one before.
 */
async function* exportZip(
  storage: Storage,
  userId: string,
  snapshot: Awaited<ReturnType<typeof readSnapshot>>,
  contents: ZipContents,
  createdAt: string,
): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else out.push(chunk);
  });
  // Entries are written one after the other (each is ended before the next is added), so the
  // zip passes each compressed chunk on at once instead of buffering it.
  const entry = (name: string) => {
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    return file;
  };
  const produced = () => {
    if (failure) throw failure;
    return out.splice(0);
  };
  for (const spooled of snapshot.entries) {
    // Already deflated: the zip takes the bytes as they are, with the CRC and size it needs.
    const file: ZipInputFile = {
      filename: spooled.name,
      compression: 8,
      crc: spooled.crc,
      size: spooled.size,
      flag: spooled.flag,
    };
    zip.add(file);
    for await (const chunk of createReadStream(spooled.file)) {
      file.ondata!(null, new Uint8Array(chunk as Buffer), false);
      yield* produced();
    }
    file.ondata!(null, new Uint8Array(0), true);
    yield* produced();
  }
  for (const file of snapshot.files) {
    if (file.bucket_id === EXPORT_BUCKET) continue;
    const stored = await storage.openObject(file.bucket_id, file.name);
    if (!stored) continue;
    const entryName = `files/${file.bucket_id}/${file.name}`;
    const zipped = entry(entryName);
    for await (const chunk of stored.body) {
      zipped.push(chunk as Uint8Array);
      yield* produced();
    }
    zipped.push(new Uint8Array(0), true);
    yield* produced();
    contents.files.push(entryName);
    if (file.bucket_id === IEP_BUCKET) contents.iepFiles.push(file.name);
  }
  entry('README.md').push(
    strToU8(readme(userId, contents.tables, contents.files, createdAt)),
    true,
  );
  zip.end();
  yield* produced();
}

export interface BuiltExport {
  objectPath: string;
  sizeBytes: number;
  tables: number;
  records: number;
  files: number;
  /** How long the records' snapshot was held (on PGlite, the database's one connection). */
  snapshotMs: number;
}

/**
 * Builds and stores the zip for one queued export, and marks it ready (or failed). The records
 * are read once in one snapshot and deflated into a spool on local disk (decision 0437), then
 * the zip is streamed into storage (decision 0429): memory does not grow with the data.
 */
export async function buildExport(
  deps: { db: Database; storage: Storage },
  exportId: string,
): Promise<BuiltExport> {
  const { db, storage } = deps;
  const { rows } = await db.query<ExportRow>(
    'select id, user_id, request_id, requested_by, status from privacy.data_exports where id = $1',
    [exportId],
  );
  const entry = rows[0];
  if (!entry) throw new Error(`no export ${exportId}`);
  if (entry.status !== 'queued') throw new Error(`export ${exportId} is ${entry.status}`);
  const spool = await createExportSpool();
  try {
    const contents: ZipContents = { tables: [], files: [], iepFiles: [] };
    const createdAt = new Date().toISOString();
    const snapshotStart = performance.now();
    const snapshot = await readSnapshot(db, entry.user_id, spool, contents);
    const snapshotMs = performance.now() - snapshotStart;
    const hash = createHash('sha256');
    let sizeBytes = 0;
    async function* measured() {
      for await (const chunk of exportZip(storage, entry!.user_id, snapshot, contents, createdAt)) {
        hash.update(chunk);
        sizeBytes += chunk.byteLength;
        yield chunk;
      }
    }
    const objectPath = `${entry.user_id}/${entry.id}.zip`;
    await storage.putObjectStream(
      EXPORT_BUCKET,
      objectPath,
      Readable.from(measured(), { objectMode: false }),
      'application/zip',
      { maxBytes: EXPORT_MAX_BYTES, owner: null },
    );
    const { tables, files, iepFiles } = contents;
    const records = tables.reduce((sum, t) => sum + t.records, 0);
    await db.transaction(async (tx) => {
      await tx.query(
        `update privacy.data_exports
            set status = 'ready', object_path = $2, size_bytes = $3, sha256 = $4, ready_at = now(),
                expires_at = now() + make_interval(days => $5)
          where id = $1`,
        [entry.id, objectPath, sizeBytes, hash.digest('hex'), EXPORT_LIFETIME_DAYS],
      );
      // IEP documents are PHI: each one the export delivers gets its HIPAA access-log row, as
      // every other read of them does (decision 0426).
      if (iepFiles.length > 0)
        await tx.query('select privacy.log_iep_export($1, $2)', [entry.id, iepFiles]);
      // The export answers the request: the person reads where to get it.
      await tx.query(
        `update public.data_subject_requests
            set status = 'completed', completed_at = now(), resolution = $2
          where id = $1 and status in ('pending', 'in_progress')`,
        [
          entry.request_id,
          `Your data is ready: download it from the Privacy page within ${EXPORT_LIFETIME_DAYS} days (JSON and CSV files with a README, and your stored files).`,
        ],
      );
      await recordAuditEvent(tx, {
        action: 'privacy.export',
        purpose: 'data subject rights',
        legalBasis: 'legal_obligation',
        tableName: 'privacy.data_exports',
        recordId: entry.id,
        userId: entry.requested_by,
        subjectUserId: entry.user_id,
        details: { tables: tables.length, records, files: files.length, bytes: sizeBytes },
      });
    });
    return {
      objectPath,
      sizeBytes,
      tables: tables.length,
      records,
      files: files.length,
      snapshotMs,
    };
  } catch (error) {
    await db.query("update privacy.data_exports set status = 'failed', error = $2 where id = $1", [
      entry.id,
      (error as Error).message.slice(0, 500),
    ]);
    throw error;
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

export type ErasureStep = {
  table_name: string;
  subject_column: string;
  action: 'delete' | 'anonymise' | 'keep';
  rows_affected: number;
};

/** What the person reads as the outcome of their erasure request. */
export function erasureSummary(steps: readonly ErasureStep[], files: number): string {
  const sum = (action: ErasureStep['action']) =>
    steps.filter((s) => s.action === action).reduce((n, s) => n + s.rows_affected, 0);
  const tables = (action: ErasureStep['action']) =>
    new Set(
      steps.filter((s) => s.action === action && s.rows_affected > 0).map((s) => s.table_name),
    ).size;
  return (
    `Your account was erased: ${sum('delete').toLocaleString('en')} records deleted from ` +
    `${tables('delete')} kinds of data and ${files} stored files removed; ` +
    `${sum('anonymise').toLocaleString('en')} records that belong to other people no longer name you. ` +
    'Kept by law: the audit log (for its 7-year period, with the recorded values erased) and this ' +
    'request, as the record that it was carried out.'
  );
}

/** Removes the person's stored files (`filesOf`) from storage; how many went. */
export async function removeFilesOf(
  deps: { db: Queryable; storage: Storage },
  userId: string,
): Promise<number> {
  const files = await filesOf(deps.db, userId);
  const byBucket = new Map<string, string[]>();
  for (const file of files)
    byBucket.set(file.bucket_id, [...(byBucket.get(file.bucket_id) ?? []), file.name]);
  let removed = 0;
  for (const [bucket, paths] of byBucket) removed += await deps.storage.remove(bucket, paths);
  return removed;
}

/**
 * Deletes or anonymises every registry table's rows about the person, the account last
 * (privacy.erase_personal_data); run in the caller's transaction.
 */
export async function erasePersonalData(tx: Queryable, userId: string): Promise<ErasureStep[]> {
  const { rows } = await tx.query<ErasureStep>(
    'select table_name, subject_column, action, rows_affected::int from privacy.erase_personal_data($1)',
    [userId],
  );
  return rows;
}

/**
 * Erases the person an erasure request concerns and completes the request. Refuses (with the
 * database's sentence) while a legal hold is active, before anything is removed.
 */
export async function eraseAccount(
  deps: { db: Database; storage: Storage },
  requestId: string,
): Promise<{ steps: ErasureStep[]; files: number }> {
  const { db, storage } = deps;
  const { rows } = await db.query<{ user_id: string; handled_by: string | null; status: string }>(
    `select user_id, handled_by, status from public.data_subject_requests
      where id = $1 and request_type = 'erasure'`,
    [requestId],
  );
  const request = rows[0];
  if (!request) throw new Error(`no erasure request ${requestId}`);
  if (request.status !== 'in_progress')
    throw new Error(`request ${requestId} is ${request.status}`);
  const { rows: holds } = await db.query(
    'select 1 from privacy.legal_holds where user_id = $1 and released_at is null',
    [request.user_id],
  );
  if (holds.length > 0) throw new Error('the account is under a legal hold');

  const removed = await removeFilesOf({ db, storage }, request.user_id);
  const steps = await db.transaction(async (tx) => {
    const done = await erasePersonalData(tx, request.user_id);
    await tx.query(
      `update public.data_subject_requests
          set status = 'completed', completed_at = now(), resolution = $2
        where id = $1`,
      [requestId, erasureSummary(done, removed)],
    );
    await recordAuditEvent(tx, {
      action: 'privacy.erasure',
      purpose: 'data subject rights',
      legalBasis: 'legal_obligation',
      tableName: 'public.data_subject_requests',
      recordId: requestId,
      userId: request.handled_by,
      subjectUserId: request.user_id,
      details: {
        deleted: done.filter((s) => s.action === 'delete').reduce((n, s) => n + s.rows_affected, 0),
        anonymised: done
          .filter((s) => s.action === 'anonymise')
          .reduce((n, s) => n + s.rows_affected, 0),
        files: removed,
      },
    });
    return done;
  });
  return { steps, files: removed };
}
