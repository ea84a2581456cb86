/**
 * The document registry. Reads run under the caller's claims so the database's grant check
 * (data_room.has_grant, also used by the bucket's policy) decides what a caller sees.
 */
import type { Database, JwtClaims, Queryable } from '../db/types';
import type { DataRoomDocument, DataRoomOverview, DataRoomTab } from '../../common/data-room';
import { recordAuditEvent } from '../compliance/audit';

export interface DocumentVersion {
  version: string;
  date: string;
  sizeBytes: number;
  sha256: string;
  note: string | null;
  uploadedBy: string;
  uploadedAt: string;
}

export class GrantRequiredError extends Error {
  constructor() {
    super('A valid data room grant is required. Enter the access PIN to continue.');
    this.name = 'GrantRequiredError';
  }
}

/** Maps the database's "insufficient privilege" to our own error; rethrows anything else. */
function asGrantError(error: unknown): never {
  const code = (error as { code?: string }).code;
  if (code === '42501') throw new GrantRequiredError();
  throw error;
}

export async function listDocuments(db: Database, claims: JwtClaims): Promise<DataRoomDocument[]> {
  const rows = await db
    .asRole(claims, (tx) =>
      tx.query<{
        id: string;
        tab: DataRoomTab;
        section_number: string;
        section_title: string;
        position: number;
        name: string;
        path: string;
        version: string;
        document_date: string;
        available: boolean;
        size_bytes: number | null;
      }>(
        `select id, tab, section_number, section_title, position, name, path, version,
                document_date::text as document_date, available, size_bytes
           from public.get_data_room_documents()`,
      ),
    )
    .catch(asGrantError);
  return rows.rows.map((row) => ({
    id: row.id,
    tab: row.tab,
    sectionNumber: row.section_number,
    sectionTitle: row.section_title,
    position: row.position,
    name: row.name,
    path: row.path,
    version: row.version,
    date: row.document_date,
    status: row.available ? 'Available' : 'Unavailable',
    sizeBytes: row.size_bytes,
  }));
}

export async function getOverview(db: Database, claims: JwtClaims): Promise<DataRoomOverview> {
  const { rows } = await db
    .asRole(claims, (tx) =>
      tx.query<{ overview: Record<string, unknown> }>(
        'select public.get_data_room_overview() as overview',
      ),
    )
    .catch(asGrantError);
  const o = rows[0]?.overview ?? {};
  return {
    totalDocuments: Number(o.total_documents ?? 0),
    categories: Number(o.categories ?? 0),
    availableDocuments: Number(o.available_documents ?? 0),
    availabilityPercent: Number(o.availability_percent ?? 0),
    lastUpdated: typeof o.last_updated === 'string' ? o.last_updated : null,
    edition: typeof o.edition === 'string' ? o.edition : null,
  };
}

export type DocumentRef = {
  id: string;
  path: string;
  name: string;
  version: string;
};

/** The active registry entry for a path, as the caller may see it (undefined if none). */
export async function findDocument(
  db: Database,
  claims: JwtClaims,
  path: string,
): Promise<DocumentRef | undefined> {
  const { rows } = await db
    .asRole(claims, async (tx) => {
      await tx.query('select data_room.require_grant()');
      return tx.query<DocumentRef>(
        `select id, path, name, version from data_room.documents
          where path = $1 and status = 'active'`,
        [path],
      );
    })
    .catch(asGrantError);
  return rows[0];
}

export async function recordAccess(
  db: Database,
  event: {
    documentId: string;
    path: string;
    action: 'open' | 'download';
    grantId: string;
    clientAddress?: string;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into data_room.access_events (document_id, document_path, action, grant_id)
       values ($1, $2, $3, $4)`,
      [event.documentId, event.path, event.action, event.grantId],
    );
    await recordAuditEvent(tx, {
      action:
        event.action === 'download' ? 'data_room.document_download' : 'data_room.document_view',
      purpose: 'investor data room access record',
      legalBasis: 'legitimate_interests',
      tableName: 'data_room.documents',
      recordId: event.documentId,
      details: { path: event.path, grant_id: event.grantId },
      ip: event.clientAddress,
    });
  });
}

export interface AccessEvent {
  path: string;
  action: 'open' | 'download';
  grantId: string;
  occurredAt: string;
}

/** For the room's owner (service role): what was viewed, newest first. */
export async function listAccessEvents(db: Queryable, limit = 500): Promise<AccessEvent[]> {
  const { rows } = await db.query<{
    document_path: string;
    action: 'open' | 'download';
    grant_id: string;
    occurred_at: Date | string;
  }>(
    `select document_path, action, grant_id, occurred_at from data_room.access_events
      order by occurred_at desc, id desc limit $1`,
    [limit],
  );
  return rows.map((row) => ({
    path: row.document_path,
    action: row.action,
    grantId: row.grant_id,
    occurredAt: new Date(row.occurred_at).toISOString(),
  }));
}

export async function listVersions(db: Queryable, path: string): Promise<DocumentVersion[]> {
  const { rows } = await db.query<{
    version: string;
    document_date: string;
    size_bytes: number;
    sha256: string;
    note: string | null;
    uploaded_by: string;
    created_at: Date | string;
  }>(
    `select v.version, v.document_date::text as document_date, v.size_bytes, v.sha256, v.note, v.uploaded_by, v.created_at
       from data_room.document_versions v
       join data_room.documents d on d.id = v.document_id
      where d.path = $1
      order by v.created_at desc`,
    [path],
  );
  return rows.map((row) => ({
    version: row.version,
    date: row.document_date,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    note: row.note,
    uploadedBy: row.uploaded_by,
    uploadedAt: new Date(row.created_at).toISOString(),
  }));
}
