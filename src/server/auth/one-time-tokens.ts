/**
 * Mailed (and texted) one-time secrets. One live token per user and purpose, holding two secrets: the
 * link's 32 random bytes (stored as a SHA-256 hash) and a six-digit code for typing (stored as
 * sha256(email || code)). Wrong codes are counted per address; the fifth kills the token.
 */
import type { Queryable } from '../db/types';
import { emailTokenHash, randomOtp, randomToken, sha256Hex } from './crypto';

export type OneTimeTokenType =
  'confirmation' | 'recovery' | 'email_change' | 'reauthentication' | 'sms' | 'phone_change';

export const ONE_TIME_TOKEN_TTL_MS = 3600 * 1000;
export const MAX_CODE_ATTEMPTS = 5;

export async function issueOneTimeToken(
  tx: Queryable,
  userId: string,
  type: OneTimeTokenType,
  email: string,
): Promise<{ code: string; tokenHash: string }> {
  const code = randomOtp();
  // What the link carries (and what `verifyOtp({token_hash})` sends back); stored hashed.
  const linkToken = randomToken(32);
  await tx.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, otp_hash, relates_to)
     values ($1, $2, $3, $4, $5)
     on conflict (user_id, token_type) do update
       set token_hash = excluded.token_hash, otp_hash = excluded.otp_hash,
           relates_to = excluded.relates_to, failed_attempts = 0, created_at = now()`,
    [userId, type, sha256Hex(linkToken), emailTokenHash(email, code), email.toLowerCase()],
  );
  return { code, tokenHash: linkToken };
}

export interface ConsumedToken {
  userId: string;
  relatesTo: string;
  type: OneTimeTokenType;
}

export type TokenProof = { link: string } | { email: string; code: string };

/**
 * Takes a token by its link secret or by address and code. Unknown or expired tokens give
 * undefined; a wrong code also counts against the address's live tokens of these types.
 * Run it in a transaction that commits even when the caller then refuses the request.
 */
export async function consumeOneTimeToken(
  tx: Queryable,
  types: OneTimeTokenType[],
  proof: TokenProof,
): Promise<ConsumedToken | undefined> {
  const [column, value] =
    'link' in proof
      ? ['token_hash', sha256Hex(proof.link)]
      : ['otp_hash', emailTokenHash(proof.email, proof.code)];
  const { rows } = await tx.query<{
    user_id: string;
    relates_to: string;
    token_type: OneTimeTokenType;
    created_at: Date;
  }>(
    `delete from auth.one_time_tokens
     where id = (select id from auth.one_time_tokens
                 where ${column} = $1 and token_type = any($2::text[]) and failed_attempts < $3 limit 1)
     returning user_id, relates_to, token_type, created_at`,
    [value, types, MAX_CODE_ATTEMPTS],
  );
  const row = rows[0];
  if (!row) {
    if ('email' in proof) {
      await tx.query(
        `update auth.one_time_tokens set failed_attempts = failed_attempts + 1
         where relates_to = lower($1) and token_type = any($2::text[])`,
        [proof.email, types],
      );
    }
    return undefined;
  }
  if (Date.now() - new Date(row.created_at).getTime() > ONE_TIME_TOKEN_TTL_MS) return undefined;
  return { userId: row.user_id, relatesTo: row.relates_to, type: row.token_type };
}
