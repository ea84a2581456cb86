/**
 * Mailed one-time codes. One live token per user and purpose; the link carries
 * sha256(email || code) and the mail shows the code, so either proves receipt of the mail.
 */
import type { Queryable } from '../db/types';
import { emailTokenHash, randomOtp } from './crypto';

export type OneTimeTokenType = 'confirmation' | 'recovery' | 'email_change' | 'reauthentication';

export const ONE_TIME_TOKEN_TTL_MS = 3600 * 1000;

export async function issueOneTimeToken(
  tx: Queryable,
  userId: string,
  type: OneTimeTokenType,
  email: string,
): Promise<{ code: string; tokenHash: string }> {
  const code = randomOtp();
  const tokenHash = emailTokenHash(email, code);
  await tx.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to)
     values ($1, $2, $3, $4)
     on conflict (user_id, token_type) do update
       set token_hash = excluded.token_hash, relates_to = excluded.relates_to, created_at = now()`,
    [userId, type, tokenHash, email.toLowerCase()],
  );
  return { code, tokenHash };
}

export interface ConsumedToken {
  userId: string;
  relatesTo: string;
}

/** Takes a token by its hash and type; expired or unknown tokens give undefined. */
export async function consumeOneTimeToken(
  tx: Queryable,
  types: OneTimeTokenType[],
  tokenHash: string,
): Promise<(ConsumedToken & { type: OneTimeTokenType }) | undefined> {
  const { rows } = await tx.query<{
    id: string;
    user_id: string;
    relates_to: string;
    token_type: OneTimeTokenType;
    created_at: Date;
  }>(
    `delete from auth.one_time_tokens
     where id = (select id from auth.one_time_tokens where token_hash = $1 and token_type = any($2::text[]) limit 1)
     returning id, user_id, relates_to, token_type, created_at`,
    [tokenHash, types],
  );
  const row = rows[0];
  if (!row) return undefined;
  if (Date.now() - new Date(row.created_at).getTime() > ONE_TIME_TOKEN_TTL_MS) return undefined;
  return { userId: row.user_id, relatesTo: row.relates_to, type: row.token_type };
}
