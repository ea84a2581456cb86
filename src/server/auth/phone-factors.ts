/**
 * Phone MFA factors (GoTrue's MFA phone): each challenge texts a fresh code, stored only as
 * SHA-256 of (challenge id || code), and a factor is texted at most once per
 * AUTH_MFA_PHONE_MAX_FREQUENCY_SECONDS.
 */
import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/types';
import { safeEqual, sha256Hex } from './crypto';
import { refuseSmsBeforeWait } from './phone';

/** A code of `length` digits, uniformly distributed. */
export function randomDigits(length: number): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += String(randomInt(10));
  return code;
}

export function phoneChallengeHash(challengeId: string, code: string): string {
  return sha256Hex(`${challengeId}:${code}`);
}

export function phoneCodeMatches(challengeId: string, storedHash: string, code: string): boolean {
  return safeEqual(phoneChallengeHash(challengeId, code.trim()), storedHash);
}

/**
 * GoTrue's frequency limit between challenges of one phone factor: refuses with its 429 while
 * the last challenge is younger than `maxFrequencyMs`.
 */
export async function assertPhoneChallengeAllowed(
  db: Queryable,
  factorId: string,
  maxFrequencyMs: number,
): Promise<void> {
  const { rows } = await db.query<{ wait_ms: number | null }>(
    `select ceil(extract(epoch from (max(created_at) + $2 * interval '1 millisecond' - now())) * 1000)::int as wait_ms
       from auth.mfa_challenges where factor_id = $1`,
    [factorId, maxFrequencyMs],
  );
  refuseSmsBeforeWait(rows[0]?.wait_ms);
}
