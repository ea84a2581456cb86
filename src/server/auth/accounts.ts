/** Account changes shared by several endpoints: creating users, confirming, sending mail. */
import { brand } from '../../common/brand';
import type { Queryable } from '../db/types';
import type { MailMessage } from './mail';
import { clearPasswordFailures } from './password-lockout';
import { mailTemplates } from './mail';
import type { OneTimeTokenType } from './one-time-tokens';
import type { UserRow } from './users';

export async function createUser(
  tx: Queryable,
  input: {
    email: string;
    passwordHash: string | null;
    userMetadata: Record<string, unknown>;
    appMetadata?: Record<string, unknown>;
    confirmed: boolean;
    provider?: string;
  },
): Promise<UserRow> {
  const provider = input.provider ?? 'email';
  const { rows } = await tx.query<UserRow & Record<string, unknown>>(
    `insert into auth.users (email, encrypted_password, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
     values ($1, $2, $3, $4, case when $5 then now() end) returning *`,
    [
      input.email,
      input.passwordHash,
      JSON.stringify(input.userMetadata),
      JSON.stringify({ ...(input.appMetadata ?? {}), provider }),
      input.confirmed,
    ],
  );
  const user = rows[0]!;
  if (provider === 'email') await addEmailIdentity(tx, user.id, input.email, input.confirmed);
  return user;
}

/** GoTrue's anonymous user: no address, no identity, no provider in `app_metadata`. */
export async function createAnonymousUser(
  tx: Queryable,
  userMetadata: Record<string, unknown>,
): Promise<UserRow> {
  const { rows } = await tx.query<UserRow & Record<string, unknown>>(
    `insert into auth.users (raw_user_meta_data, raw_app_meta_data, is_anonymous)
     values ($1, '{}', true) returning *`,
    [JSON.stringify(userMetadata)],
  );
  return rows[0]!;
}

export async function addEmailIdentity(
  tx: Queryable,
  userId: string,
  email: string,
  verified: boolean,
): Promise<void> {
  await tx.query(
    `insert into auth.identities (provider_id, user_id, provider, identity_data, email)
     values ($1::text, $4::uuid, 'email', $2, $3)
     on conflict (provider, provider_id) do update set identity_data = excluded.identity_data, email = excluded.email, updated_at = now()`,
    [
      userId,
      JSON.stringify({ sub: userId, email, email_verified: verified, phone_verified: false }),
      email,
      userId,
    ],
  );
}

export async function confirmEmail(tx: Queryable, userId: string): Promise<void> {
  await tx.query(
    'update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = $1',
    [userId],
  );
  await tx.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [userId],
  );
}

/**
 * Applies a confirmed email change: the new address replaces the old one everywhere. An
 * anonymous user who confirms an address becomes a permanent one (GoTrue's linking).
 */
export async function applyEmailChange(
  tx: Queryable,
  userId: string,
  newEmail: string,
): Promise<void> {
  await tx.query(
    `update auth.users set email = $2, email_change = null, email_change_sent_at = null,
       email_confirmed_at = coalesce(email_confirmed_at, now()), is_anonymous = false,
       raw_app_meta_data = case when is_anonymous
         then raw_app_meta_data || '{"provider": "email"}' else raw_app_meta_data end,
       updated_at = now() where id = $1`,
    [userId, newEmail],
  );
  await addEmailIdentity(tx, userId, newEmail, true);
}

/**
 * Sets a new password and ends what the old one opened, as Supabase Auth does: every session
 * but `keepSessionId` (the one the user changed it in; none for an administrator's change),
 * their refresh tokens with them, pending recovery and reauthentication codes, and the
 * address's failed-password count. Returns how many sessions ended.
 */
export async function setPassword(
  tx: Queryable,
  user: Pick<UserRow, 'id' | 'email'>,
  passwordHash: string,
  keepSessionId: string | undefined,
): Promise<number> {
  await tx.query(
    'update auth.users set encrypted_password = $2, updated_at = now() where id = $1',
    [user.id, passwordHash],
  );
  const { rows } = await tx.query<{ id: string }>(
    'delete from auth.sessions where user_id = $1 and ($2::uuid is null or id <> $2::uuid) returning id',
    [user.id, keepSessionId ?? null],
  );
  await tx.query(
    `delete from auth.one_time_tokens where user_id = $1 and token_type in ('recovery', 'reauthentication')`,
    [user.id],
  );
  if (user.email) await clearPasswordFailures(tx, user.email);
  return rows.length;
}

export function composeAuthMail(
  kind: Exclude<OneTimeTokenType, 'sms' | 'phone_change'> | 'magiclink',
  to: string,
  code: string,
  link: string | undefined,
): MailMessage {
  const input = { product: brand.product, code, link };
  switch (kind) {
    case 'confirmation':
      return mailTemplates.confirmation(to, input);
    case 'recovery':
      return mailTemplates.recovery(to, input);
    case 'magiclink':
      return mailTemplates.magicLink(to, input);
    case 'email_change':
      return mailTemplates.emailChange(to, input);
    case 'reauthentication':
      return mailTemplates.reauthentication(to, input);
  }
}
