/**
 * Sessions as rows, refresh tokens stored hashed and rotated on every use, access tokens as
 * ES256 JWTs from the deployment's key set (claims as Supabase Auth issues them).
 */
import * as jose from 'jose';
import type { Config } from '../config';
import type { Database, Queryable } from '../db/types';
import type { KeySet } from '../keys/key-store';
import { sha256Hex, randomToken } from './crypto';
import { badRequest, AuthError } from './errors';
import { appMetadata, loadUser, userJson, type LoadedUser, type UserJson } from './users';
import { recordAuditEvent } from '../compliance/audit';

export interface AuthDeps {
  config: Config;
  db: Database;
  keys: KeySet;
}

export type Aal = 'aal1' | 'aal2';
export interface AmrEntry {
  method: string;
  timestamp: number;
}

export interface SessionRow {
  id: string;
  user_id: string;
  aal: Aal;
  amr: AmrEntry[];
  factor_id: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  refreshed_at: Date;
  not_after: Date;
}

export interface SessionJson {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
}

/** Inside this window a rotated refresh token returns the session's current one. */
export const REFRESH_REUSE_WINDOW_MS = 10_000;

const DAY_MS = 24 * 3600 * 1000;

export function issuer(config: Config): string {
  return `${config.siteUrl ?? 'http://localhost'}/auth/v1`;
}

export async function signAccessToken(
  deps: AuthDeps,
  user: LoadedUser,
  session: SessionRow,
): Promise<{ token: string; expiresAt: number; expiresIn: number }> {
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = deps.config.auth.accessTokenTtlSeconds;
  const key = deps.keys.current;
  const token = await new jose.SignJWT({
    aud: user.row.aud,
    role: user.row.role,
    email: user.row.email ?? '',
    phone: user.row.phone ?? '',
    app_metadata: appMetadata(user),
    user_metadata: user.row.raw_user_meta_data,
    aal: session.aal,
    amr: session.amr,
    session_id: session.id,
    is_anonymous: user.row.is_anonymous,
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setIssuer(issuer(deps.config))
    .setSubject(user.row.id)
    .setIssuedAt(now)
    .setExpirationTime(now + expiresIn)
    .sign(key.privateKey);
  return { token, expiresAt: now + expiresIn, expiresIn };
}

async function newRefreshToken(tx: Queryable, session: SessionRow): Promise<string> {
  const token = randomToken(24);
  await tx.query(
    'insert into auth.refresh_tokens (token_hash, session_id, user_id) values ($1, $2, $3)',
    [sha256Hex(token), session.id, session.user_id],
  );
  return token;
}

export async function sessionResponse(
  deps: AuthDeps,
  tx: Queryable,
  session: SessionRow,
  refreshToken: string,
): Promise<SessionJson> {
  const user = await loadUser(tx, session.user_id);
  if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
  const access = await signAccessToken(deps, user, session);
  return {
    access_token: access.token,
    token_type: 'bearer',
    expires_in: access.expiresIn,
    expires_at: access.expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/**
 * GoTrue's answer for a banned account (an operator's `ban_duration`, or an organization's
 * deactivation of its last membership, decision 0130). Every path that issues tokens asks it,
 * so no sign-in method, mail link, second factor or refresh gets past a ban.
 */
export async function assertNotBanned(tx: Queryable, userId: string): Promise<void> {
  const { rows } = await tx.query<{ banned: boolean }>(
    'select banned_until is not null and banned_until > now() as banned from auth.users where id = $1',
    [userId],
  );
  if (rows[0]?.banned) throw badRequest('user_banned', 'User is banned');
}

/** Starts a session (one per sign-in) and returns the token response. */
export async function createSession(
  deps: AuthDeps,
  tx: Queryable,
  userId: string,
  method: string,
  client: { ip?: string; userAgent?: string },
): Promise<SessionJson> {
  await assertNotBanned(tx, userId);
  const notAfter = new Date(Date.now() + deps.config.auth.sessionLifetimeDays * DAY_MS);
  const amr: AmrEntry[] = [{ method, timestamp: Math.floor(Date.now() / 1000) }];
  const { rows } = await tx.query<SessionRow & Record<string, unknown>>(
    `insert into auth.sessions (user_id, amr, user_agent, ip, not_after)
     values ($1, $2, $3, $4, $5) returning *`,
    [
      userId,
      JSON.stringify(amr),
      client.userAgent?.slice(0, 512) ?? null,
      client.ip ?? null,
      notAfter,
    ],
  );
  const session = rows[0]!;
  await tx.query('update auth.users set last_sign_in_at = now() where id = $1', [userId]);
  await recordAuditEvent(tx, {
    action: 'auth.sign_in',
    purpose: 'account security',
    legalBasis: 'legitimate_interests',
    tableName: 'auth.sessions',
    recordId: session.id,
    details: { method },
    userId,
    ip: client.ip,
    userAgent: client.userAgent,
    sessionId: session.id,
  });
  const refreshToken = await newRefreshToken(tx, session);
  return sessionResponse(deps, tx, session, refreshToken);
}

/**
 * Raises a session to aal2 after a second factor was used: records the method first in `amr`,
 * retires the session's aal1 refresh tokens (the next refresh continues at aal2) and returns
 * the new token response.
 */
export async function raiseSessionToAal2(
  deps: AuthDeps,
  tx: Queryable,
  session: SessionRow,
  factorId: string,
  method: 'totp' | 'mfa/phone' | 'mfa/webauthn' | 'mfa/recovery_code',
): Promise<SessionJson> {
  await assertNotBanned(tx, session.user_id);
  const amr: AmrEntry[] = [
    { method, timestamp: Math.floor(Date.now() / 1000) },
    ...session.amr.filter((entry) => entry.method !== method),
  ];
  const updated = await tx.query<SessionRow & Record<string, unknown>>(
    `update auth.sessions set aal = 'aal2', amr = $2, factor_id = $3, refreshed_at = now() where id = $1 returning *`,
    [session.id, JSON.stringify(amr), factorId],
  );
  await tx.query(
    'update auth.refresh_tokens set revoked_at = now() where session_id = $1 and revoked_at is null',
    [session.id],
  );
  const current = updated.rows[0]!;
  const refreshToken = await newRefreshToken(tx, current);
  return sessionResponse(deps, tx, current, refreshToken);
}

export function sessionExpiry(
  config: Config,
  session: Pick<SessionRow, 'not_after' | 'refreshed_at'>,
  now = Date.now(),
): 'lifetime' | 'inactivity' | undefined {
  if (new Date(session.not_after).getTime() <= now) return 'lifetime';
  const idleLimit = config.auth.sessionInactivityDays * DAY_MS;
  if (new Date(session.refreshed_at).getTime() + idleLimit <= now) return 'inactivity';
  return undefined;
}

export async function findSession(db: Queryable, id: unknown): Promise<SessionRow | undefined> {
  if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const { rows } = await db.query<SessionRow & Record<string, unknown>>(
    'select * from auth.sessions where id = $1',
    [id],
  );
  return rows[0];
}

/**
 * Refresh-token rotation with reuse detection: a token is usable once. Presenting a rotated
 * token again within 10 s (two tabs refreshing at once) returns a new token for the same
 * session; any later reuse means the token leaked, so the whole session is revoked.
 */
export async function refreshSession(deps: AuthDeps, refreshToken: unknown): Promise<SessionJson> {
  if (typeof refreshToken !== 'string' || refreshToken === '') {
    throw badRequest('validation_failed', 'refresh_token is required');
  }
  const outcome = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      id: string;
      session_id: string;
      revoked_at: Date | null;
    }>('select id, session_id, revoked_at from auth.refresh_tokens where token_hash = $1', [
      sha256Hex(refreshToken),
    ]);
    const stored = rows[0];
    if (!stored) {
      return {
        error: badRequest(
          'refresh_token_not_found',
          'Invalid Refresh Token: Refresh Token Not Found',
        ),
      };
    }
    // Serialises concurrent refreshes of one session (PGlite is one session already).
    const locked = await tx.query<SessionRow & Record<string, unknown>>(
      `select * from auth.sessions where id = $1${deps.db.kind === 'postgres' ? ' for update' : ''}`,
      [stored.session_id],
    );
    const session = locked.rows[0];
    if (!session) {
      return { error: badRequest('session_not_found', 'Invalid Refresh Token: Session Not Found') };
    }
    const expired = sessionExpiry(deps.config, session);
    if (expired) {
      await tx.query('delete from auth.sessions where id = $1', [session.id]);
      return {
        error: badRequest(
          'session_expired',
          expired === 'lifetime'
            ? 'Invalid Refresh Token: Session Expired'
            : 'Invalid Refresh Token: Session Expired (Inactivity)',
        ),
      };
    }
    const banned = await tx.query<{ banned: boolean }>(
      'select banned_until is not null and banned_until > now() as banned from auth.users where id = $1',
      [session.user_id],
    );
    if (banned.rows[0]?.banned) {
      await tx.query('delete from auth.sessions where id = $1', [session.id]);
      return { error: badRequest('user_banned', 'User is banned') };
    }
    if (stored.revoked_at) {
      const age = Date.now() - new Date(stored.revoked_at).getTime();
      if (age > REFRESH_REUSE_WINDOW_MS) {
        await tx.query('delete from auth.sessions where id = $1', [session.id]);
        // A leaked token: security-incident detection counts these (decision 0403).
        await recordAuditEvent(tx, {
          action: 'auth.refresh_token_reused',
          purpose: 'account security',
          legalBasis: 'legitimate_interests',
          tableName: 'auth.sessions',
          recordId: session.id,
          userId: session.user_id,
          sessionId: session.id,
        });
        return {
          error: badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
        };
      }
    } else {
      await tx.query('update auth.refresh_tokens set revoked_at = now() where id = $1', [
        stored.id,
      ]);
    }
    // Within the window the other tab's successor stays valid too; both continue the session.
    const updated = await tx.query<SessionRow & Record<string, unknown>>(
      'update auth.sessions set refreshed_at = now() where id = $1 returning *',
      [session.id],
    );
    const current = updated.rows[0]!;
    const token = await newRefreshToken(tx, current);
    return { session: await sessionResponse(deps, tx, current, token) };
  });
  if ('error' in outcome && outcome.error) throw outcome.error;
  return (outcome as { session: SessionJson }).session;
}
