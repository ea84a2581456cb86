/**
 * IEP documents (decision 0422): a learner's individual education plan, stored in the private
 * `iep-documents` bucket, which has no storage policy. The database decides who may do what
 * and logs each access in `hipaa_audit_log` (db/app 0753, through `log_hipaa_access`) before
 * this module touches a file, so no file is read or written without its log row.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { Database, JwtClaims, Queryable } from '../db/types';
import type { Logger } from '../logger';
import { StorageError, type Storage } from '../storage/storage';

export const IEP_BUCKET = 'iep-documents';

/** The caller and where they call from: the address and browser go into the access log. */
export interface IepCaller {
  claims: JwtClaims;
  ip: string | null;
  userAgent: string | null;
}

export interface IepDeps {
  db: Database;
  storage: Storage;
  /** Where a deleted document's file that could not be removed is reported. */
  log?: Logger;
}

export class IepError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 410 | 500,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The database's refusals (sentences written for people) as IepErrors. */
function refusal(error: unknown): never {
  if (error instanceof IepError) throw error;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === '42501') throw new IepError(403, 'forbidden', message);
  if (code === '22023' || code === '23514') throw new IepError(400, 'invalid_request', message);
  if (code === 'PT404') throw new IepError(404, 'not_found', message);
  throw error;
}

/** What a caller tried to do, as the access log files a refusal of it. */
interface Attempt {
  action: 'upload' | 'list' | 'view' | 'delete';
  purpose: string;
  /** The document (its learner and organization are looked up), or the learner's list. */
  documentId?: string;
  learnerId?: string;
  organizationId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOrNull = (value: unknown): string | null =>
  typeof value === 'string' && UUID.test(value) ? value : null;

/**
 * A refused attempt is logged too (decision 0426). The refusal rolled the caller's transaction
 * back, row and all, so the platform writes it in a transaction of its own, with the identity
 * of the caller's verified token (none for an anonymous caller): no API role may run
 * privacy.log_refused_iep_access.
 */
async function logRefusal(db: Queryable, caller: IepCaller, attempt: Attempt, reason: string) {
  const session = caller.claims.session_id;
  await db.query('select privacy.log_refused_iep_access($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [
    uuidOrNull(caller.claims.sub),
    typeof session === 'string' ? session : null,
    attempt.action,
    attempt.learnerId ?? null,
    attempt.documentId ?? null,
    attempt.organizationId ?? null,
    attempt.purpose,
    reason,
    caller.ip && isIP(caller.ip) ? caller.ip : null,
    caller.userAgent,
  ]);
}

type Args = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The database procedures that reach IEP documents, which REST also exposes
 * (`/rest/v1/rpc/<name>`), and what a call of each, by its named arguments, tried to do.
 * `log_hipaa_access` is not one: no API role may execute it (decision 0435), so a call of it
 * reaches nobody's records and files nothing.
 */
const PROCEDURES: Record<string, (args: Args) => Attempt> = {
  list_iep_documents: (a) => ({
    action: 'list',
    purpose: text(a.purpose),
    learnerId: uuidOrNull(a.learner) ?? undefined,
    organizationId: uuidOrNull(a.organization) ?? undefined,
  }),
  open_iep_document: (a) => ({
    action: 'view',
    purpose: text(a.purpose),
    documentId: uuidOrNull(a.document) ?? undefined,
  }),
  delete_iep_document: (a) => ({
    action: 'delete',
    purpose: text(a.purpose),
    documentId: uuidOrNull(a.document) ?? undefined,
  }),
  store_iep_document: (a) => ({
    action: 'upload',
    purpose: text(a.purpose),
    learnerId: uuidOrNull(a.learner) ?? undefined,
    organizationId: uuidOrNull(a.organization) ?? undefined,
  }),
};

/** Whether a call of this public procedure reaches IEP documents (its refusals are logged). */
export function isIepProcedure(name: string): boolean {
  return Object.hasOwn(PROCEDURES, name);
}

/**
 * Logs a refused direct call of an IEP procedure (decision 0430), for the REST layer, after the
 * call's transaction rolled back: the same row a refusal through the iep function leaves. The
 * caller's arguments say which learner or document they tried to reach; the identity is the
 * verified token's. A call that names no existing document or learner is not logged (it reached
 * nobody's records), as in the iep function.
 */
export async function logRefusedIepCall(
  db: Queryable,
  caller: IepCaller,
  procedure: string,
  args: unknown,
  reason: string,
): Promise<void> {
  if (!isIepProcedure(procedure)) return;
  const named = typeof args === 'object' && args !== null && !Array.isArray(args) ? args : {};
  await logRefusal(db, caller, PROCEDURES[procedure]!(named as Args), reason);
}

/**
 * Runs as the caller, with their address and browser set for log_hipaa_access to record; a
 * refusal of the attempt is logged before it is reported.
 */
async function asCaller<T>(
  deps: IepDeps,
  caller: IepCaller,
  attempt: Attempt,
  work: (tx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    return await deps.db.asRole(caller.claims, async (tx) => {
      await tx.query(
        `select set_config('lyceum.client_address', $1, true),
                set_config('lyceum.user_agent', $2, true)`,
        [caller.ip ?? '', (caller.userAgent ?? '').slice(0, 512)],
      );
      return work(tx);
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === '42501')
      await logRefusal(deps.db, caller, attempt, (error as Error).message);
    return refusal(error);
  }
}

export interface IepLearner {
  user_id: string;
  display_name: string;
  email: string;
  may_store: boolean;
}

export async function iepLearners(
  deps: IepDeps,
  caller: IepCaller,
  organizationId: string,
): Promise<IepLearner[]> {
  const { rows } = await deps.db
    .queryAsRole<IepLearner & Record<string, unknown>>(
      caller.claims,
      'select * from public.iep_learners($1)',
      [organizationId],
    )
    .catch(refusal);
  return rows;
}

export interface IepDocument {
  id: string;
  title: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  uploaded_at: string;
  uploaded_by: string | null;
}

/** A learner's documents; the listing is logged as an access. */
export async function listIepDocuments(
  deps: IepDeps,
  caller: IepCaller,
  input: { learnerId: string; organizationId: string; purpose: string },
): Promise<IepDocument[]> {
  const attempt = { action: 'list', ...input } as const;
  return asCaller(deps, caller, attempt, async (tx) => {
    const { rows } = await tx.query<IepDocument & Record<string, unknown>>(
      `select id, title, file_name, content_type, size_bytes, uploaded_at, uploaded_by
         from public.list_iep_documents($1, $2, $3)`,
      [input.learnerId, input.organizationId, input.purpose],
    );
    return rows;
  });
}

export interface IepUpload {
  learnerId: string;
  organizationId: string;
  title: string;
  purpose: string;
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * Stores a document: the right is checked first, then the file is written under a path the
 * server chooses, then the row and its upload log entry; a refusal there removes the file.
 */
export async function storeIepDocument(
  deps: IepDeps,
  caller: IepCaller,
  upload: IepUpload,
): Promise<{ id: string }> {
  const { rows } = await deps.db
    .queryAsRole<{ ok: boolean }>(
      caller.claims,
      'select public.may_store_iep_document($1, $2) as ok',
      [upload.learnerId, upload.organizationId],
    )
    .catch(refusal);
  const attempt: Attempt = {
    action: 'upload',
    purpose: upload.purpose,
    learnerId: upload.learnerId,
    organizationId: upload.organizationId,
  };
  if (!rows[0]?.ok) {
    const reason = "Only an admin of the learner's organization stores IEP documents.";
    await logRefusal(deps.db, caller, attempt, reason);
    throw new IepError(403, 'forbidden', reason);
  }
  const id = randomUUID();
  const path = `${upload.organizationId}/${upload.learnerId}/${id}`;
  try {
    await deps.storage.putObject(IEP_BUCKET, path, upload.bytes, upload.contentType, {
      owner: null,
    });
  } catch (error) {
    if (error instanceof StorageError) throw new IepError(400, 'invalid_file', error.message);
    throw error;
  }
  try {
    await asCaller(deps, caller, attempt, (tx) =>
      tx.query('select public.store_iep_document($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
        id,
        upload.learnerId,
        upload.organizationId,
        upload.title,
        upload.fileName,
        upload.contentType,
        upload.bytes.byteLength,
        path,
        upload.purpose,
      ]),
    );
  } catch (error) {
    await deps.storage.remove(IEP_BUCKET, [path]);
    throw error;
  }
  return { id };
}

/** Opens a document: the view is logged, then the file is read. */
export async function openIepDocument(
  deps: IepDeps,
  caller: IepCaller,
  documentId: string,
  purpose: string,
): Promise<{ fileName: string; contentType: string; bytes: Buffer }> {
  const attempt = { action: 'view', documentId, purpose } as const;
  const found = await asCaller(deps, caller, attempt, (tx) =>
    tx.query<{ object_path: string; file_name: string; content_type: string }>(
      'select object_path, file_name, content_type from public.open_iep_document($1, $2)',
      [documentId, purpose],
    ),
  );
  const document = found.rows[0]!;
  const stored = await deps.storage.getObject(IEP_BUCKET, document.object_path);
  if (!stored)
    throw new IepError(410, 'gone', 'The file of this IEP document is no longer stored.');
  return { fileName: document.file_name, contentType: document.content_type, bytes: stored.bytes };
}

/**
 * Deletes a document (organization admins): logged, then the file is removed. If the removal
 * fails, the document stays deleted (its id is never recorded again, decision 0438) and the
 * admin is told to delete it again: that retry is logged too and removes the file left behind.
 */
export async function deleteIepDocument(
  deps: IepDeps,
  caller: IepCaller,
  documentId: string,
  purpose: string,
): Promise<void> {
  const attempt = { action: 'delete', documentId, purpose } as const;
  const { rows } = await asCaller(deps, caller, attempt, (tx) =>
    tx.query<{ path: string }>('select public.delete_iep_document($1, $2) as path', [
      documentId,
      purpose,
    ]),
  );
  const path = rows[0]!.path;
  try {
    await deps.storage.remove(IEP_BUCKET, [path]);
  } catch (error) {
    deps.log?.error('iep document file not removed', {
      document: documentId,
      path,
      error: error instanceof Error ? error.message : String(error),
    });
    throw new IepError(
      500,
      'file_not_removed',
      "The document's file could not be removed, though the document no longer shows in lists: delete it again to remove the file.",
    );
  }
}
