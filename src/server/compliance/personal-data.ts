/**
 * Fulfilling access, portability and erasure requests from the personal-data registry
 * (privacy.personal_data, decision 0421). Below HTTP: the job queue runs these, the
 * privacy-export function only queues them and serves the finished zip.
 *
 * - `buildExport` writes one zip to the private `privacy-exports` bucket: README.md, each
 *   registry table's rows about the person as JSON and CSV, and their stored files.
 * - `eraseAccount` removes the person's stored files, then deletes or anonymises every
 *   registry table's rows in one transaction (privacy.erase_personal_data) and completes the
 *   request with what was done and what was kept, and why.
 */
import { createHash } from 'node:crypto';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { toCsv, type CsvValue } from '../../common/csv';
import type { Database, Queryable } from '../db/types';
import type { Storage } from '../storage/storage';
import { recordAuditEvent } from './audit';
import { IEP_BUCKET } from './iep-documents';

export const EXPORT_BUCKET = 'privacy-exports';
/** How long a prepared export can be downloaded. */
export const EXPORT_LIFETIME_DAYS = 7;

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

/** The registry's rows about a person, one entry per registry table and column. */
export async function personalData(db: Queryable, userId: string): Promise<TableExport[]> {
  const { rows } = await db.query<TableExport>(
    'select table_name, subject_column, description, rows from privacy.export_personal_data($1)',
    [userId],
  );
  return rows;
}

/** A table's rows as CSV: one column per key any row has; objects and arrays as JSON. */
export function rowsToCsv(rows: readonly Record<string, unknown>[]): string {
  const header = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: unknown): CsvValue =>
    value === null || value === undefined
      ? null
      : typeof value === 'object'
        ? JSON.stringify(value)
        : (value as CsvValue);
  return toCsv(
    header,
    rows.map((row) => header.map((key) => cell(row[key]))),
  );
}

function fileName(table: TableExport): string {
  const base = table.table_name.replace('.', '-');
  return table.subject_column === defaultColumn(table.table_name)
    ? base
    : `${base}.${table.subject_column}`;
}

function defaultColumn(table: string): string {
  return table === 'auth.users' || table === 'public.profiles' ? 'id' : 'user_id';
}

function readme(userId: string, tables: TableExport[], files: string[], createdAt: string): string {
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
      (t) =>
        `| data/${fileName(t)}.json | ${t.description} | ${t.rows.length.toLocaleString('en')} |`,
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

export interface BuiltExport {
  objectPath: string;
  sizeBytes: number;
  tables: number;
  records: number;
  files: number;
}

/** Builds and stores the zip for one queued export, and marks it ready (or failed). */
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
  try {
    const tables = await personalData(db, entry.user_id);
    const createdAt = new Date().toISOString();
    const zip: Zippable = {};
    for (const table of tables) {
      const name = fileName(table);
      zip[`data/${name}.json`] = strToU8(JSON.stringify(table.rows, null, 2));
      zip[`data/${name}.csv`] = strToU8(rowsToCsv(table.rows));
    }
    const files: string[] = [];
    const iepFiles: string[] = [];
    for (const file of await filesOf(db, entry.user_id)) {
      if (file.bucket_id === EXPORT_BUCKET) continue;
      const stored = await storage.getObject(file.bucket_id, file.name);
      if (!stored) continue;
      const path = `files/${file.bucket_id}/${file.name}`;
      zip[path] = new Uint8Array(stored.bytes);
      files.push(path);
      if (file.bucket_id === IEP_BUCKET) iepFiles.push(file.name);
    }
    zip['README.md'] = strToU8(readme(entry.user_id, tables, files, createdAt));
    const bytes = zipSync(zip, { level: 6 });
    const objectPath = `${entry.user_id}/${entry.id}.zip`;
    await storage.putObject(EXPORT_BUCKET, objectPath, bytes, 'application/zip', { owner: null });
    const records = tables.reduce((sum, t) => sum + t.rows.length, 0);
    await db.transaction(async (tx) => {
      await tx.query(
        `update privacy.data_exports
            set status = 'ready', object_path = $2, size_bytes = $3, sha256 = $4, ready_at = now(),
                expires_at = now() + make_interval(days => $5)
          where id = $1`,
        [
          entry.id,
          objectPath,
          bytes.byteLength,
          createHash('sha256').update(bytes).digest('hex'),
          EXPORT_LIFETIME_DAYS,
        ],
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
        details: { tables: tables.length, records, files: files.length, bytes: bytes.byteLength },
      });
    });
    return {
      objectPath,
      sizeBytes: bytes.byteLength,
      tables: tables.length,
      records,
      files: files.length,
    };
  } catch (error) {
    await db.query("update privacy.data_exports set status = 'failed', error = $2 where id = $1", [
      entry.id,
      (error as Error).message.slice(0, 500),
    ]);
    throw error;
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

  const files = await filesOf(db, request.user_id);
  const byBucket = new Map<string, string[]>();
  for (const file of files)
    byBucket.set(file.bucket_id, [...(byBucket.get(file.bucket_id) ?? []), file.name]);
  let removed = 0;
  for (const [bucket, paths] of byBucket) removed += await storage.remove(bucket, paths);

  const steps = await db.transaction(async (tx) => {
    const { rows: done } = await tx.query<ErasureStep>(
      'select table_name, subject_column, action, rows_affected::int from privacy.erase_personal_data($1)',
      [request.user_id],
    );
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
