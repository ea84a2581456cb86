/**
 * A data-room grant is a real token of this deployment (signed with the current key, verified
 * by every API service like any other token) with role anon, a `data_room` claim and a grant
 * id. The grants table lets access events name the grant and lets a visitor end it early.
 */
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';
import type { Database, JwtClaims } from '../db/types';
import type { SigningKey } from '../keys/key-store';

export const GRANT_TTL_SECONDS = 8 * 3600;

export interface IssuedGrant {
  token: string;
  grantId: string;
  expiresAt: number;
}

export async function issueGrant(
  db: Database,
  key: SigningKey,
  clientAddress: string,
  now = Date.now(),
): Promise<IssuedGrant> {
  const grantId = randomUUID();
  const issuedAt = Math.floor(now / 1000);
  const expiresAt = issuedAt + GRANT_TTL_SECONDS;
  await db.query(
    `insert into data_room.grants (id, client_address, issued_at, expires_at)
     values ($1, $2, to_timestamp($3), to_timestamp($4))`,
    [grantId, clientAddress, issuedAt, expiresAt],
  );
  const token = await new jose.SignJWT({ role: 'anon', data_room: true, iss: 'lyceum' })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setJti(grantId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key.privateKey);
  return { token, grantId, expiresAt };
}

/** The grant id of verified claims, if they are a data-room grant at all. */
export function grantIdOf(claims: JwtClaims): string | undefined {
  return claims.data_room === true && typeof claims.jti === 'string' ? claims.jti : undefined;
}

/** Asks the database (the same check RLS uses) whether the claims carry a live grant. */
export async function hasLiveGrant(db: Database, claims: JwtClaims): Promise<boolean> {
  const { rows } = await db.asRole(claims, (tx) =>
    tx.query<{ ok: boolean }>('select data_room.has_grant() as ok'),
  );
  return rows[0]?.ok === true;
}

/** Service role, or a signed-in user with the admin role. */
export async function isDataRoomAdmin(db: Database, claims: JwtClaims): Promise<boolean> {
  if (claims.role === 'service_role') return true;
  if (claims.role !== 'authenticated') return false;
  const { rows } = await db.asRole(claims, (tx) =>
    tx.query<{ ok: boolean }>('select data_room.is_admin() as ok'),
  );
  return rows[0]?.ok === true;
}

export async function revokeGrant(db: Database, grantId: string): Promise<void> {
  await db.query(
    'update data_room.grants set revoked_at = now() where id = $1 and revoked_at is null',
    [grantId],
  );
}
