/**
 * Server-side entries in the audit log (decision 0401): reads and actions no table trigger
 * sees — sign-ins, refresh-token reuse, data-room document views, exports. The database checks
 * the purpose and legal basis (`validate_legal_basis`) and refuses an entry without them.
 */
import type { Queryable } from '../db/types';

/** GDPR Article 6(1). */
export const legalBases = [
  'consent',
  'contract',
  'legal_obligation',
  'vital_interests',
  'public_task',
  'legitimate_interests',
] as const;
export type LegalBasis = (typeof legalBases)[number];

export interface AuditEvent {
  /** Lower-case dotted name, e.g. `auth.sign_in`, `data_room.document_view`. */
  action: string;
  purpose: string;
  legalBasis: LegalBasis;
  tableName?: string;
  recordId?: string;
  /** Identifiers and counts only: never passwords, tokens or the content of a record. */
  details?: Record<string, unknown>;
  userId?: string | null;
  subjectUserId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  sessionId?: string | null;
}

/** Appends one entry as the platform; runs in the caller's transaction when given one. */
export async function recordAuditEvent(db: Queryable, event: AuditEvent): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `select public.record_audit_event(
       action => $1, purpose => $2, legal_basis => $3, table_name => $4, record_id => $5,
       details => $6::jsonb, user_id => $7::uuid, ip_address => $8, user_agent => $9,
       session_id => $10, subject_user_id => $11::uuid) as id`,
    [
      event.action,
      event.purpose,
      event.legalBasis,
      event.tableName ?? null,
      event.recordId ?? null,
      event.details ? JSON.stringify(event.details) : null,
      event.userId ?? null,
      event.ip ?? null,
      event.userAgent ?? null,
      event.sessionId ?? null,
      event.subjectUserId ?? event.userId ?? null,
    ],
  );
  return rows[0]!.id;
}
