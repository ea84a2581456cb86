/**
 * Signed download URLs: a JWT signed with the deployment's current key that names one object
 * (`url` = "bucket/key") and an expiry. It carries no role, so the API verifier refuses it as
 * a bearer token, and an API token carries no `url`, so it is refused here.
 */
import * as jose from 'jose';
import type { KeySet } from '../keys/key-store';
import { storageErrors } from './errors';

const MAX_EXPIRES_IN_SECONDS = 10 * 365 * 24 * 3600;

export function checkExpiresIn(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_EXPIRES_IN_SECONDS)
    throw storageErrors.invalidRequest('expiresIn must be a whole number of seconds, at least 1');
  return n;
}

/** The path part storage-js appends to `{url}/storage/v1`. */
export async function signObjectUrl(
  keys: Pick<KeySet, 'current'>,
  bucket: string,
  key: string,
  expiresIn: number,
): Promise<string> {
  const url = `${bucket}/${key}`;
  const token = await new jose.SignJWT({ url })
    .setProtectedHeader({ alg: keys.current.alg, kid: keys.current.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
    .sign(keys.current.privateKey);
  return `/object/sign/${encodeKey(url)}?token=${token}`;
}

/** Percent-encodes each segment, keeping the slashes that separate them. */
export function encodeKey(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export async function verifyObjectToken(
  keys: Pick<KeySet, 'publicJwks'>,
  token: string | undefined,
  bucket: string,
  key: string,
): Promise<void> {
  if (!token) throw storageErrors.invalidSignature('Missing token query parameter');
  let payload: jose.JWTPayload;
  try {
    ({ payload } = await jose.jwtVerify(token, jose.createLocalJWKSet({ keys: keys.publicJwks }), {
      algorithms: ['ES256', 'RS256'],
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    if (error instanceof jose.errors.JWTExpired) throw storageErrors.expiredSignature();
    throw storageErrors.invalidSignature('Invalid signature: the token was not issued here');
  }
  if (payload.url !== `${bucket}/${key}`)
    throw storageErrors.invalidSignature('Invalid signature: the token is for another object');
}
