/**
 * Removing factors, and MFA recovery codes: ten one-time codes, shown once and stored as
 * SHA-256 hashes, that stand in for the authenticator at the second sign-in step. The set is
 * a factor of type `recovery_code` (supabase-js's recovery-codes API), which never stands
 * alone: it goes when the last other verified factor goes.
 */
import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/types';
import { sha256Hex } from './crypto';
import { AuthError } from './errors';
import type { FactorRow } from './users';

export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_LENGTH = 16;
export const RECOVERY_CODES_NAME = 'Recovery codes';
/** Wrong recovery codes in a row before the set refuses codes for ten minutes. */
export const MAX_FAILED_RECOVERY_CODES = 10;

// Crockford's base32: no i, l, o or u, so a code read aloud or from paper is not misread.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** 16 characters of 5 bits: 80 random bits, so a plain SHA-256 cannot be reversed. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/**
 * A code as typed: case, spaces and dashes ignored, and the letters Crockford's base32 reads
 * as digits (o → 0, i and l → 1) mapped. Undefined when it cannot be a code.
 */
export function canonicalRecoveryCode(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const code = input.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  if (code.length !== RECOVERY_CODE_LENGTH) return undefined;
  return [...code].every((ch) => ALPHABET.includes(ch)) ? code : undefined;
}

export async function recoveryCodeFactor(
  db: Queryable,
  userId: string,
): Promise<FactorRow | undefined> {
  const { rows } = await db.query<FactorRow & Record<string, unknown>>(
    `select * from auth.mfa_factors where user_id = $1 and factor_type = 'recovery_code'`,
    [userId],
  );
  return rows[0];
}

/** How many codes the set has and how many are left. */
export async function recoveryCodeCounts(
  db: Queryable,
  factorId: string,
): Promise<{ total: number; remaining: number }> {
  const { rows } = await db.query<{ total: number; remaining: number }>(
    `select count(*)::int as total, (count(*) filter (where used_at is null))::int as remaining
     from auth.mfa_recovery_codes where factor_id = $1`,
    [factorId],
  );
  return rows[0] ?? { total: 0, remaining: 0 };
}

/**
 * Creates the set (or replaces its codes, keeping the factor) and returns the codes: the only
 * time they exist in plain text.
 */
export async function issueRecoveryCodes(
  tx: Queryable,
  userId: string,
  existing: FactorRow | undefined,
  friendlyName: string,
): Promise<{ factor: FactorRow; codes: string[] }> {
  let factor = existing;
  if (factor) {
    await tx.query('delete from auth.mfa_recovery_codes where factor_id = $1', [factor.id]);
    await tx.query(
      'update auth.mfa_factors set failed_attempts = 0, locked_until = null, updated_at = now() where id = $1',
      [factor.id],
    );
  } else {
    const { rows } = await tx.query<FactorRow & Record<string, unknown>>(
      `insert into auth.mfa_factors (user_id, friendly_name, factor_type, status, secret)
       values ($1, $2, 'recovery_code', 'verified', null) returning *`,
      [userId, friendlyName],
    );
    factor = rows[0]!;
  }
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.query(
    `insert into auth.mfa_recovery_codes (factor_id, user_id, code_hash)
     select $1, $2, unnest($3::text[])`,
    [factor.id, userId, codes.map(sha256Hex)],
  );
  return { factor, codes };
}

/**
 * Uses one code of the user's set. Wrong codes count against the set; after ten in a row it
 * refuses codes for ten minutes (`mfa_recovery_codes_locked`). Run it in a transaction that
 * commits even when the code is refused, so failures are counted.
 */
export async function useRecoveryCode(
  tx: Queryable,
  factor: FactorRow & { locked_until?: Date | null },
  input: unknown,
): Promise<{ ok: true } | { ok: false; error: AuthError }> {
  const lockedUntil = factor.locked_until ? new Date(factor.locked_until).getTime() : 0;
  if (lockedUntil > Date.now()) {
    const minutes = Math.ceil((lockedUntil - Date.now()) / 60_000);
    return {
      ok: false,
      error: new AuthError(
        429,
        'mfa_recovery_codes_locked',
        `Too many wrong recovery codes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      ),
    };
  }
  const code = canonicalRecoveryCode(input);
  const { rows } = code
    ? await tx.query<{ id: string }>(
        `update auth.mfa_recovery_codes set used_at = now()
         where factor_id = $1 and code_hash = $2 and used_at is null returning id`,
        [factor.id, sha256Hex(code)],
      )
    : { rows: [] };
  if (rows.length === 0) {
    await tx.query(
      `update auth.mfa_factors set
         locked_until = case when failed_attempts + 1 >= $2 then now() + interval '10 minutes' end,
         failed_attempts = case when failed_attempts + 1 >= $2 then 0 else failed_attempts + 1 end
       where id = $1`,
      [factor.id, MAX_FAILED_RECOVERY_CODES],
    );
    return {
      ok: false,
      error: new AuthError(
        422,
        'mfa_verification_failed',
        'Invalid recovery code entered, or the code was already used',
      ),
    };
  }
  await tx.query(
    'update auth.mfa_factors set failed_attempts = 0, updated_at = now() where id = $1',
    [factor.id],
  );
  return { ok: true };
}

/**
 * Removes a factor. Recovery codes never stand alone, so they go with the last other verified
 * factor; with no verified factor left, the user's sessions are aal1 again.
 */
export async function removeFactor(tx: Queryable, userId: string, factorId: string): Promise<void> {
  await tx.query('delete from auth.mfa_factors where id = $1 and user_id = $2', [factorId, userId]);
  const { rows } = await tx.query<{ n: number }>(
    `select count(*)::int as n from auth.mfa_factors
     where user_id = $1 and status = 'verified' and factor_type not in ('recovery_code', 'passkey')`,
    [userId],
  );
  if (rows[0]!.n > 0) return;
  await tx.query(
    `delete from auth.mfa_factors where user_id = $1 and factor_type = 'recovery_code'`,
    [userId],
  );
  await tx.query(
    `update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1 and aal = 'aal2'`,
    [userId],
  );
}
