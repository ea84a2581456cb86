/**
 * Per-organization API keys (decision 0610). A key is a long-lived token signed with the
 * deployment's key whose subject is the key's own principal, an organization-wide admin of
 * one organization that can never sign in, so row-level security and the procedures confine
 * it to that organization. The server keeps only the SHA-256 of a key and shows it once.
 *
 * Every operation runs the checks of db/app/0920 in one transaction with the verified
 * caller as `actor`, so a refusal writes nothing.
 */
import { hash } from 'node:crypto';
import * as jose from 'jose';
import type { ApiKey, ApiKeyList, CreatedApiKey } from '../../common/api-keys';
import type { Database, JwtClaims, Queryable } from '../db/types';
import type { SigningKey } from '../keys/key-store';
import { TokenError, type TokenVerifier } from '../keys/verify';

/** The claim that marks a token as an organization API key; its value is the key's id. */
export const API_KEY_CLAIM = 'api_key_id';

const TEN_YEARS_SECONDS = 10 * 365 * 24 * 3600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A refusal or bad request, with the status the endpoint answers. */
export class ApiKeyError extends Error {
  constructor(
    public readonly status: 400 | 403 | 404 | 409,
    public readonly code: string,
    message: string,
    public readonly hint?: string,
  ) {
    super(message);
    this.name = 'ApiKeyError';
  }
}

function keyErrorFrom(error: unknown): ApiKeyError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, hint } = error as { code?: unknown; hint?: string };
  if (code === '42501') return new ApiKeyError(403, 'forbidden', error.message, hint);
  if (code === 'P0002') return new ApiKeyError(404, 'not_found', error.message, hint);
  if (code === '22023') return new ApiKeyError(400, 'invalid_input', error.message, hint);
  if (code === '23505') return new ApiKeyError(409, 'conflict', error.message, hint);
  if (code === '54000') return new ApiKeyError(409, 'too_many_keys', error.message, hint);
  if (code === '55000') return new ApiKeyError(409, 'already_revoked', error.message, hint);
  return undefined;
}

async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw keyErrorFrom(error) ?? error;
  }
}

function sha256(token: string): string {
  return hash('sha256', token, 'hex');
}

interface KeyRow {
  id: string;
  name: string;
  hint: string | null;
  created_at: Date | string;
  created_by: string | null;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

const iso = (value: Date | string | null) => (value == null ? null : new Date(value).toISOString());

function keyFrom(row: KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    createdAt: iso(row.created_at)!,
    createdBy: row.created_by,
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
  };
}

const keysSql = `
  select k.id, k.name, k.hint, k.created_at, k.last_used_at, k.revoked_at,
         coalesce(nullif(btrim(p.full_name), ''), nullif(btrim(p.display_name), '')) as created_by
    from platform.organization_api_keys k
    left join public.profiles p on p.id = k.created_by
   where k.organization_id = $1`;

async function requireManager(tx: Queryable, actor: string, org: string): Promise<void> {
  await tx.query('select platform.require_api_key_manager($1::uuid, $2::uuid)', [actor, org]);
}

function checkOrg(org: string): void {
  if (!UUID.test(org)) throw new ApiKeyError(404, 'not_found', 'No such organization');
}

/** The organization's keys, those in use first, newest first. */
export async function listOrganizationKeys(
  db: Database,
  actor: string,
  org: string,
): Promise<ApiKeyList> {
  checkOrg(org);
  return translated(() =>
    db.transaction(async (tx) => {
      await requireManager(tx, actor, org);
      const { rows } = await tx.query<KeyRow & Record<string, unknown>>(
        `${keysSql} order by k.revoked_at is not null, k.created_at desc, k.id`,
        [org],
      );
      return { keys: rows.map(keyFrom) };
    }),
  );
}

/** Signs the key's token: the principal's claims, and the key's id to check it by. */
function signKey(
  signingKey: SigningKey,
  key: { id: string; principalId: string; organizationId: string },
): Promise<string> {
  return new jose.SignJWT({
    role: 'authenticated',
    aud: 'authenticated',
    iss: 'lyceum',
    // The key's id doubles as its session: revoking records it as an ended session, which
    // every gateway process refuses within milliseconds (decision 0071).
    session_id: key.id,
    [API_KEY_CLAIM]: key.id,
    organization_id: key.organizationId,
  })
    .setProtectedHeader({ alg: signingKey.alg, kid: signingKey.kid, typ: 'JWT' })
    .setSubject(key.principalId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + TEN_YEARS_SECONDS)
    .sign(signingKey.privateKey);
}

/** Creates a key; the returned secret is the only copy there will ever be. */
export async function createOrganizationKey(
  db: Database,
  signingKey: SigningKey,
  actor: string,
  org: string,
  name: string,
): Promise<CreatedApiKey> {
  checkOrg(org);
  return translated(() =>
    db.transaction(async (tx) => {
      const { rows } = await tx.query<{ key_id: string; principal_id: string }>(
        'select key_id, principal_id from platform.create_organization_api_key($1, $2, $3)',
        [actor, org, name],
      );
      const created = rows[0]!;
      const secret = await signKey(signingKey, {
        id: created.key_id,
        principalId: created.principal_id,
        organizationId: org,
      });
      await tx.query('select platform.set_organization_api_key_hash($1, $2, $3)', [
        created.key_id,
        sha256(secret),
        secret.slice(-6),
      ]);
      const { rows: keys } = await tx.query<KeyRow & Record<string, unknown>>(
        `${keysSql} and k.id = $2`,
        [org, created.key_id],
      );
      return { key: keyFrom(keys[0]!), secret };
    }),
  );
}

/** Revokes a key: refused by the database and by every gateway process from now on. */
export async function revokeOrganizationKey(
  db: Database,
  actor: string,
  org: string,
  keyId: string,
): Promise<ApiKey> {
  checkOrg(org);
  if (!UUID.test(keyId))
    throw new ApiKeyError(404, 'not_found', 'This organization has no such API key');
  return translated(() =>
    db.transaction(async (tx) => {
      await tx.query('select platform.revoke_organization_api_key($1, $2, $3)', [
        actor,
        org,
        keyId,
      ]);
      const { rows } = await tx.query<KeyRow & Record<string, unknown>>(
        `${keysSql} and k.id = $2`,
        [org, keyId],
      );
      return keyFrom(rows[0]!);
    }),
  );
}

/**
 * Wraps the token verifier: a token carrying the API-key claim passes only while that exact
 * key is in use (not revoked, its hash stored). `confirm` asks the database on every request,
 * cached token or not (lookups by primary key), so a key is refused by every gateway process
 * from the moment its revocation commits, without waiting for a notification (decision 0615).
 * The same call records `last_used_at`, at most once a minute.
 */
export function organizationKeyVerifier(db: Database, inner: TokenVerifier): TokenVerifier {
  async function confirm(claims: JwtClaims, token: string): Promise<void> {
    const keyId = claims[API_KEY_CLAIM];
    if (keyId === undefined) return;
    if (typeof keyId !== 'string' || !UUID.test(keyId))
      throw new TokenError('Invalid JWT: malformed API key claim');
    const { rows } = await db.query<{ in_use: boolean }>(
      'select platform.use_organization_api_key($1, $2) as in_use',
      [keyId, sha256(token)],
    );
    if (!rows[0]?.in_use) throw new TokenError('This API key has been revoked');
  }
  return {
    endedSessions: inner.endedSessions,
    confirm,
    async verify(token) {
      const claims = await inner.verify(token);
      await confirm(claims, token);
      return claims;
    },
  };
}
