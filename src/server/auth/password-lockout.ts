/**
 * Failed passwords counted per email address, in the database so every gateway process sees
 * one count. Addresses without an account are counted and locked exactly like real ones: the
 * lockout answer must not tell an attacker which addresses have accounts.
 */
import type { Queryable } from '../db/types';
import { AuthError } from './errors';

export interface LockoutPolicy {
  /** Failed passwords within the window that lock the address. */
  maxFailures: number;
  /** The counting window and the length of a lock. */
  lockMs: number;
}

/** The end of the address's lock, if it is locked now. */
export async function passwordLockedUntil(db: Queryable, email: string): Promise<Date | undefined> {
  const { rows } = await db.query<{ locked_until: Date }>(
    'select locked_until from auth.password_failures where email = $1 and locked_until > now()',
    [email],
  );
  return rows[0] ? new Date(rows[0].locked_until) : undefined;
}

/** Counts one failed password; returns the end of the lock when the address is now locked. */
export async function recordPasswordFailure(
  db: Queryable,
  email: string,
  policy: LockoutPolicy,
): Promise<Date | undefined> {
  // A count older than the window starts again at 1. A lock is as long as the window, so the
  // count after a lock always starts afresh.
  const stale = `f.window_started_at <= now() - $2::int * interval '1 millisecond'`;
  const count = `case when ${stale} then 1 else f.failures + 1 end`;
  const { rows } = await db.query<{ locked_until: Date | null }>(
    `insert into auth.password_failures as f (email, failures, window_started_at, locked_until, updated_at)
     values ($1, 1, now(), case when 1 >= $3::int then now() + $2::int * interval '1 millisecond' end, now())
     on conflict (email) do update set
       failures = ${count},
       window_started_at = case when ${stale} then now() else f.window_started_at end,
       locked_until = case when ${count} >= $3::int
                           then now() + $2::int * interval '1 millisecond' else f.locked_until end,
       updated_at = now()
     returning case when locked_until > now() then locked_until end as locked_until`,
    [email, policy.lockMs, policy.maxFailures],
  );
  // Addresses nobody tried for a day are forgotten.
  await db.query(`delete from auth.password_failures where updated_at < now() - interval '1 day'`);
  const lockedUntil = rows[0]?.locked_until;
  return lockedUntil ? new Date(lockedUntil) : undefined;
}

/** A correct password, or a new one, clears the address's count and lock. */
export async function clearPasswordFailures(db: Queryable, email: string): Promise<void> {
  await db.query('delete from auth.password_failures where email = $1', [email.toLowerCase()]);
}

/** The same answer for every locked address, with or without an account. */
export function passwordLockedError(lockedUntil: Date, now = Date.now()): AuthError {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AuthError(
    429,
    'over_request_rate_limit',
    `Too many wrong passwords for this email address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or reset your password.`,
    { retry_after: seconds },
  );
}
