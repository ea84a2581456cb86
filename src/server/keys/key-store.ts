/**
 * The deployment's signing keys and API keys. Generated on first start and stored in the
 * database so every gateway process shares them; environment settings override.
 */
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';
import type { Config } from '../config';
import type { Database, DbRole } from '../db/types';

export interface SigningKey {
  kid: string;
  alg: 'ES256' | 'RS256';
  privateKey: CryptoKey | Uint8Array;
  publicJwk: jose.JWK;
}

export interface KeySet {
  /** Signs new tokens. */
  current: SigningKey;
  /** Public keys that verify tokens (current and previous), as published in the JWKS. */
  publicJwks: jose.JWK[];
  anonKey: string;
  serviceRoleKey: string;
  /** True when this load issued the stored API keys: the deployment's first start. */
  issued?: boolean;
}

const TEN_YEARS_SECONDS = 10 * 365 * 24 * 3600;

async function generateKey(): Promise<{ kid: string; privateJwk: jose.JWK; publicJwk: jose.JWK }> {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  const privateJwk = { ...(await jose.exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  const publicJwk = {
    ...(await jose.exportJWK(publicKey)),
    kid,
    alg: 'ES256',
    use: 'sig',
    key_ops: ['verify'],
  };
  return { kid, privateJwk, publicJwk };
}

async function importSigningKey(
  kid: string,
  alg: 'ES256' | 'RS256',
  privateJwk: jose.JWK,
  publicJwk: jose.JWK,
): Promise<SigningKey> {
  const privateKey = await jose.importJWK({ ...privateJwk, alg }, alg);
  return { kid, alg, privateKey, publicJwk };
}

/** Signs an API key: a long-lived JWT that only names a role. */
export function signApiKey(key: SigningKey, role: DbRole): Promise<string> {
  return new jose.SignJWT({ role, iss: 'lyceum' })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + TEN_YEARS_SECONDS)
    .sign(key.privateKey);
}

async function readSetting(db: Database, key: string): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>(
    'select value from platform.settings where key = $1',
    [key],
  );
  return rows[0]?.value;
}

async function writeSetting(db: Database, key: string, value: string): Promise<void> {
  await db.query(
    `insert into platform.settings (key, value) values ($1, $2)
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [key, value],
  );
}

function publicPart(jwk: jose.JWK): jose.JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = jwk;
  return { ...rest, use: 'sig', key_ops: ['verify'] };
}

/** Loads the key set, creating the first key and the API keys when the database has none. */
export async function loadKeySet(
  db: Database,
  config: Pick<Config, 'jwtSigningKey' | 'anonKey' | 'serviceRoleKey'>,
): Promise<KeySet> {
  let current: SigningKey;
  if (config.jwtSigningKey) {
    let jwk: jose.JWK;
    try {
      jwk = JSON.parse(config.jwtSigningKey) as jose.JWK;
    } catch {
      throw new Error(
        'JWT_SIGNING_KEY is not valid JSON: it must be a private JWK (ES256 or RS256).',
      );
    }
    const alg = jwk.kty === 'RSA' ? 'RS256' : 'ES256';
    if (!jwk.d) throw new Error('JWT_SIGNING_KEY must be a private JWK (it has no "d" member).');
    const kid = jwk.kid ?? 'env-signing-key';
    current = await importSigningKey(kid, alg, jwk, { ...publicPart(jwk), kid, alg });
  } else {
    current = await db.transaction(async (tx) => {
      if (db.kind === 'postgres') await tx.query('select pg_advisory_xact_lock(7426002)');
      const { rows } = await tx.query<{
        kid: string;
        alg: 'ES256' | 'RS256';
        private_jwk: jose.JWK;
        public_jwk: jose.JWK;
      }>(
        `select kid, alg, private_jwk, public_jwk from platform.signing_keys where status = 'current'`,
      );
      const row = rows[0];
      if (row) return importSigningKey(row.kid, row.alg, row.private_jwk, row.public_jwk);
      const fresh = await generateKey();
      await tx.query(
        `insert into platform.signing_keys (kid, alg, private_jwk, public_jwk, status) values ($1, 'ES256', $2, $3, 'current')`,
        [fresh.kid, JSON.stringify(fresh.privateJwk), JSON.stringify(fresh.publicJwk)],
      );
      return importSigningKey(fresh.kid, 'ES256', fresh.privateJwk, fresh.publicJwk);
    });
  }

  const { rows: verifying } = await db.query<{ public_jwk: jose.JWK }>(
    `select public_jwk from platform.signing_keys where status in ('current', 'previous') order by created_at desc`,
  );
  const publicJwks = [
    current.publicJwk,
    ...verifying.map((r) => r.public_jwk).filter((jwk) => jwk.kid !== current.kid),
  ];

  let issued = false;
  const apiKey = async (role: DbRole) => {
    const stored = await storedApiKey(db, current, role);
    issued ||= stored.issued;
    return stored.token;
  };
  const anonKey = config.anonKey ?? (await apiKey('anon'));
  const serviceRoleKey = config.serviceRoleKey ?? (await apiKey('service_role'));
  return { current, publicJwks, anonKey, serviceRoleKey, issued };
}

async function storedApiKey(
  db: Database,
  key: SigningKey,
  role: DbRole,
): Promise<{ token: string; issued: boolean }> {
  const settingKey = `api_key.${role}.${key.kid}`;
  const stored = await readSetting(db, settingKey);
  if (stored) return { token: stored, issued: false };
  const token = await signApiKey(key, role);
  await writeSetting(db, settingKey, token);
  return { token: (await readSetting(db, settingKey)) ?? token, issued: true };
}

/**
 * Starts signing with a new key. The old key stays published (status "previous") so tokens it
 * signed verify until they expire; API keys are reissued with the new key.
 */
export async function rotateSigningKey(db: Database): Promise<string> {
  const fresh = await generateKey();
  await db.transaction(async (tx) => {
    await tx.query(`update platform.signing_keys set status = 'previous' where status = 'current'`);
    await tx.query(
      `insert into platform.signing_keys (kid, alg, private_jwk, public_jwk, status) values ($1, 'ES256', $2, $3, 'current')`,
      [fresh.kid, JSON.stringify(fresh.privateJwk), JSON.stringify(fresh.publicJwk)],
    );
  });
  return fresh.kid;
}
