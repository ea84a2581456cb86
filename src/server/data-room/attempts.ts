/**
 * Wrong-PIN rate limit per client address, kept in the database so every gateway process
 * counts the same attempts. A slot is reserved before the PIN is compared, so parallel
 * guesses cannot slip past the limit.
 */
import type { Database } from '../db/types';

export const MAX_WRONG_ATTEMPTS = 5;
export const ATTEMPT_WINDOW_MINUTES = 15;

export type AttemptReservation =
  { allowed: true; attemptId: number } | { allowed: false; retryAfterSeconds: number };

export async function reserveAttempt(
  db: Database,
  clientAddress: string,
): Promise<AttemptReservation> {
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') {
      await tx.query(`select pg_advisory_xact_lock(hashtext('data-room-pin:' || $1))`, [
        clientAddress,
      ]);
    }
    const { rows } = await tx.query<{ failures: number; retry_after: number | null }>(
      `select count(*)::int as failures,
              ceil(extract(epoch from min(attempted_at) + make_interval(mins => $2::int) - now()))::int
                as retry_after
         from data_room.pin_attempts
        where client_address = $1 and not succeeded
          and attempted_at > now() - make_interval(mins => $2::int)`,
      [clientAddress, ATTEMPT_WINDOW_MINUTES],
    );
    const { failures, retry_after } = rows[0] ?? { failures: 0, retry_after: null };
    if (failures >= MAX_WRONG_ATTEMPTS) {
      return { allowed: false, retryAfterSeconds: Math.max(1, retry_after ?? 1) };
    }
    const inserted = await tx.query<{ id: number }>(
      'insert into data_room.pin_attempts (client_address) values ($1) returning id',
      [clientAddress],
    );
    return { allowed: true, attemptId: inserted.rows[0]!.id };
  });
}

/** A right PIN does not count against the address. */
export async function markAttemptSucceeded(db: Database, attemptId: number): Promise<void> {
  await db.query('update data_room.pin_attempts set succeeded = true where id = $1', [attemptId]);
}

/**
 * Retention for the client addresses the data room keeps (personal data): attempts are only
 * needed for the rate-limit window, grants for 90 days after they expire (access events keep
 * the grant id).
 */
export async function pruneAttempts(db: Database): Promise<void> {
  await db.query(
    `delete from data_room.pin_attempts where attempted_at < now() - interval '1 day'`,
  );
  await db.query(`delete from data_room.grants where expires_at < now() - interval '90 days'`);
}
