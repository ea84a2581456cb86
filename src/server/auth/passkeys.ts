/**
 * Passkeys (GoTrue's passkey API): first-factor WebAuthn credentials kept in auth.mfa_factors
 * as factor_type 'passkey', and their ceremonies in progress kept in auth.flow_state. Plain
 * queries; the HTTP layer decides what to refuse.
 */
import type { Queryable } from '../db/types';
import type { CeremonyState, StoredCredential } from './webauthn';

export interface PasskeyRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  web_authn_credential: StoredCredential;
  created_at: Date;
  last_used_at: Date | null;
}

export type CeremonyKind = 'passkey_registration' | 'passkey_authentication';

/** GoTrue's WEBAUTHN_CHALLENGE_EXPIRY_DURATION default. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export function passkeyJson(row: PasskeyRow) {
  return {
    id: row.id,
    friendly_name: row.friendly_name ?? '',
    created_at: new Date(row.created_at).toISOString(),
    ...(row.last_used_at ? { last_used_at: new Date(row.last_used_at).toISOString() } : {}),
  };
}

export async function userPasskeys(db: Queryable, userId: string): Promise<PasskeyRow[]> {
  const { rows } = await db.query<PasskeyRow & Record<string, unknown>>(
    `select id, user_id, friendly_name, web_authn_credential, created_at, last_used_at
       from auth.mfa_factors where user_id = $1 and factor_type = 'passkey' order by created_at`,
    [userId],
  );
  return rows;
}

export async function passkeyByCredentialId(
  db: Queryable,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const { rows } = await db.query<PasskeyRow & Record<string, unknown>>(
    `select id, user_id, friendly_name, web_authn_credential, created_at, last_used_at
       from auth.mfa_factors where factor_type = 'passkey' and web_authn_credential ->> 'id' = $1`,
    [credentialId],
  );
  return rows[0];
}

/** Starts a ceremony; returns its id and when it expires. Expired ones are swept here. */
export async function startCeremony(
  db: Queryable,
  kind: CeremonyKind,
  userId: string | null,
  state: CeremonyState,
): Promise<{ id: string; expiresAt: Date }> {
  await db.query(
    `delete from auth.flow_state where authentication_method in ('passkey_registration', 'passkey_authentication')
       and expires_at < now() - interval '1 hour'`,
  );
  const { rows } = await db.query<{ id: string; expires_at: Date }>(
    `insert into auth.flow_state (user_id, authentication_method, web_authn_session_data, expires_at)
     values ($1, $2, $3, now() + $4 * interval '1 millisecond') returning id, expires_at`,
    [userId, kind, JSON.stringify(state), PASSKEY_CHALLENGE_TTL_MS],
  );
  return { id: rows[0]!.id, expiresAt: new Date(rows[0]!.expires_at) };
}

/**
 * Takes a ceremony for good, as GoTrue consumes its challenge whatever the answer: one try per
 * challenge. Undefined when there is none of this kind (for this user); `expired` when late.
 */
export async function consumeCeremony(
  db: Queryable,
  id: string,
  kind: CeremonyKind,
  userId: string | null,
): Promise<{ state: CeremonyState; expired: boolean } | undefined> {
  const { rows } = await db.query<{ state: CeremonyState; expired: boolean }>(
    `delete from auth.flow_state
      where id = $1 and authentication_method = $2 and user_id is not distinct from $3
      returning web_authn_session_data as state, expires_at < now() as expired`,
    [id, kind, userId],
  );
  return rows[0];
}
