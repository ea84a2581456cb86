/**
 * Accounts by phone number (GoTrue's phone provider): finding and creating them, the SMS codes
 * that prove a number (`sms` for the account's own, `phone_change` for a new one), and what a
 * verified code changes.
 */
import type { Queryable } from '../db/types';
import { AuthError } from './errors';
import { issueOneTimeToken } from './one-time-tokens';
import type { UserRow } from './users';

export type PhoneCodeType = 'sms' | 'phone_change';

export async function findUserByPhone(db: Queryable, phone: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow & Record<string, unknown>>(
    'select * from auth.users where phone = $1',
    [phone],
  );
  return rows[0];
}

/** A new account signed up with a number; unconfirmed until the SMS code comes back. */
export async function createPhoneUser(
  tx: Queryable,
  input: { phone: string; passwordHash: string | null; userMetadata: Record<string, unknown> },
): Promise<UserRow> {
  const { rows } = await tx.query<UserRow & Record<string, unknown>>(
    `insert into auth.users (phone, encrypted_password, raw_user_meta_data, raw_app_meta_data)
     values ($1, $2, $3, '{"provider": "phone"}') returning *`,
    [input.phone, input.passwordHash, JSON.stringify(input.userMetadata)],
  );
  const user = rows[0]!;
  await upsertPhoneIdentity(tx, user.id, input.phone, false);
  return user;
}

async function upsertPhoneIdentity(
  tx: Queryable,
  userId: string,
  phone: string,
  verified: boolean,
): Promise<void> {
  await tx.query(
    `insert into auth.identities (provider_id, user_id, provider, identity_data)
     values ($1::text, $1::uuid, 'phone', $2)
     on conflict (provider, provider_id) do update set identity_data = excluded.identity_data, updated_at = now()`,
    [
      userId,
      JSON.stringify({ sub: userId, phone, phone_verified: verified, email_verified: false }),
    ],
  );
}

const sentAtColumn = { sms: 'confirmation_sent_at', phone_change: 'phone_change_sent_at' } as const;

/** GoTrue's refusal of another text to a number while `waitMs` of its frequency limit remain. */
export function refuseSmsBeforeWait(waitMs: number | null | undefined): void {
  if (waitMs == null || waitMs <= 0) return;
  throw new AuthError(
    429,
    'over_sms_send_rate_limit',
    `For security purposes, you can only request this after ${Math.ceil(waitMs / 1000)} seconds.`,
  );
}

/**
 * Issues the code for one SMS, after GoTrue's per-account frequency limit; stamps when it was
 * sent (and, for a change, the number it would change to). The caller sends the text after
 * the transaction commits, and calls `retractPhoneCode` if the provider refuses it.
 */
export async function issuePhoneCode(
  tx: Queryable,
  user: UserRow,
  phone: string,
  type: PhoneCodeType,
  maxFrequencyMs: number,
): Promise<string> {
  const column = sentAtColumn[type];
  const { rows } = await tx.query<{ wait_ms: number | null }>(
    `select ceil(extract(epoch from (${column} + $2 * interval '1 millisecond' - now())) * 1000)::int as wait_ms
     from auth.users where id = $1`,
    [user.id, maxFrequencyMs],
  );
  refuseSmsBeforeWait(rows[0]?.wait_ms);
  const { code } = await issueOneTimeToken(tx, user.id, type, phone);
  await tx.query(
    type === 'sms'
      ? 'update auth.users set confirmation_sent_at = now() where id = $1'
      : 'update auth.users set phone_change = $2, phone_change_sent_at = now(), updated_at = now() where id = $1',
    type === 'sms' ? [user.id] : [user.id, phone],
  );
  return code;
}

/** Undoes `issuePhoneCode` when the text could not be sent, so asking again is not blocked. */
export async function retractPhoneCode(
  tx: Queryable,
  userId: string,
  type: PhoneCodeType,
): Promise<void> {
  await tx.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [
    userId,
    type,
  ]);
  await tx.query(`update auth.users set ${sentAtColumn[type]} = null where id = $1`, [userId]);
}

/** A verified `sms` code: the number is confirmed (and an anonymous account permanent). */
export async function confirmPhone(tx: Queryable, userId: string, phone: string): Promise<void> {
  await tx.query(
    `update auth.users set phone_confirmed_at = coalesce(phone_confirmed_at, now()),
       is_anonymous = false, updated_at = now() where id = $1`,
    [userId],
  );
  await upsertPhoneIdentity(tx, userId, phone, true);
}

/** A verified `phone_change` code: the new number replaces the old one, confirmed. */
export async function applyPhoneChange(
  tx: Queryable,
  userId: string,
  phone: string,
): Promise<void> {
  const taken = await findUserByPhone(tx, phone);
  if (taken && taken.id !== userId) {
    throw new AuthError(
      422,
      'phone_exists',
      'A user with this phone number has already been registered',
    );
  }
  await tx.query(
    `update auth.users set phone = $2, phone_confirmed_at = now(), phone_change = null,
       phone_change_sent_at = null, is_anonymous = false,
       raw_app_meta_data = case when is_anonymous
         then raw_app_meta_data || '{"provider": "phone"}' else raw_app_meta_data end,
       updated_at = now() where id = $1`,
    [userId, phone],
  );
  await upsertPhoneIdentity(tx, userId, phone, true);
}
