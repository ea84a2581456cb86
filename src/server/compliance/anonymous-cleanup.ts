/**
 * Anonymous accounts (decision 0038) left unused are deleted with their data, as an erasure
 * deletes an account (decision 0059): their stored files, then every registry table's rows and
 * the account itself in one transaction, with an audit entry. Run daily by the job queue
 * (`anonymous-users-cleanup`); an account is inactive when neither it nor any of its sessions
 * has changed, signed in or refreshed for `inactiveDays`. Accounts under a legal hold stay.
 */
import type { Database } from '../db/types';
import type { Storage } from '../storage/storage';
import { recordAuditEvent } from './audit';
import { erasePersonalData, removeFilesOf } from './personal-data';

/** Accounts deleted per run at most; the next day's run takes the rest. */
export const ANONYMOUS_CLEANUP_BATCH = 1000;

/** An anonymous account idle for $1 days, not under a legal hold (`u` is auth.users). */
const INACTIVE_ANONYMOUS = `u.is_anonymous
  and greatest(u.created_at, u.updated_at, coalesce(u.last_sign_in_at, u.created_at),
        coalesce((select max(s.refreshed_at) from auth.sessions s where s.user_id = u.id),
                 u.created_at))
      < now() - make_interval(days => $1::int)
  and not exists (select 1 from privacy.legal_holds h
                   where h.user_id = u.id and h.released_at is null)`;

export interface AnonymousCleanupResult {
  deleted: number;
  files: number;
  /** Accounts that could not be deleted this time (each logged by the job), by id. */
  failed: { userId: string; error: string }[];
}

export async function deleteInactiveAnonymousUsers(
  deps: { db: Database; storage: Storage },
  options: { inactiveDays: number; limit?: number },
): Promise<AnonymousCleanupResult> {
  const { db, storage } = deps;
  const { rows: candidates } = await db.query<{ id: string }>(
    `select u.id from auth.users u
      where ${INACTIVE_ANONYMOUS}
      order by u.created_at
      limit $2`,
    [options.inactiveDays, options.limit ?? ANONYMOUS_CLEANUP_BATCH],
  );
  const result: AnonymousCleanupResult = { deleted: 0, files: 0, failed: [] };
  for (const { id } of candidates) {
    try {
      // Signed in or made permanent since it was picked: it stays, files and all.
      const { rows: still } = await db.query(
        `select 1 from auth.users u where u.id = $2 and ${INACTIVE_ANONYMOUS}`,
        [options.inactiveDays, id],
      );
      if (still.length === 0) continue;
      const files = await removeFilesOf({ db, storage }, id);
      await db.transaction(async (tx) => {
        const steps = await erasePersonalData(tx, id);
        await recordAuditEvent(tx, {
          action: 'privacy.anonymous_user_cleanup',
          purpose: 'storage limitation of unused anonymous accounts',
          legalBasis: 'legal_obligation',
          tableName: 'auth.users',
          recordId: id,
          subjectUserId: id,
          details: {
            inactive_days: options.inactiveDays,
            deleted: steps
              .filter((s) => s.action === 'delete')
              .reduce((n, s) => n + s.rows_affected, 0),
            anonymised: steps
              .filter((s) => s.action === 'anonymise')
              .reduce((n, s) => n + s.rows_affected, 0),
            files,
          },
        });
        result.deleted += 1;
      });
      result.files += files;
    } catch (error) {
      result.failed.push({
        userId: id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return result;
}
