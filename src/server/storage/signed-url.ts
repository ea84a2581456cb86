/**
 * Signed URLs: a JWT signed with the deployment's current key that names one object
 * (`url` = "bucket/key") and an expiry. It carries no role, so the API verifier refuses it as
 * a bearer token, and an API token carries no `url`, so it is refused here. An upload token
 * also names its owner and whether it may replace, and is marked as one: a download token
 * never uploads and an upload token never downloads.
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

/**
 * The path part storage-js appends to `{url}/storage/v1`. With `transformations` (as
 * `transformToString` writes them) the URL renders the image so transformed, as upstream's
 * signed URLs with a `transform` do; the token fixes them, so a holder cannot ask for others.
 */
export async function signObjectUrl(
  keys: Pick<KeySet, 'current'>,
  bucket: string,
  key: string,
  expiresIn: number,
  transformations?: string,
): Promise<string> {
  const url = `${bucket}/${key}`;
  const token = await new jose.SignJWT(transformations ? { url, transformations } : { url })
    .setProtectedHeader({ alg: keys.current.alg, kid: keys.current.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
    .sign(keys.current.privateKey);
  const route = transformations ? 'render/image' : 'object';
  return `/${route}/sign/${encodeKey(url)}?token=${token}`;
}

/** Percent-encodes each segment, keeping the slashes that separate them. */
export function encodeKey(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

async function verifySignedToken(
  keys: Pick<KeySet, 'publicJwks'>,
  token: string | undefined,
): Promise<jose.JWTPayload> {
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
  return payload;
}

export async function verifyObjectToken(
  keys: Pick<KeySet, 'publicJwks'>,
  token: string | undefined,
  bucket: string,
  key: string,
): Promise<{ transformations?: string }> {
  const payload = await verifySignedToken(keys, token);
  if (payload.url !== `${bucket}/${key}`)
    throw storageErrors.invalidSignature('Invalid signature: the token is for another object');
  if (payload.use === UPLOAD_USE)
    throw storageErrors.invalidSignature('Invalid signature: the token is for an upload');
  return typeof payload.transformations === 'string'
    ? { transformations: payload.transformations }
    : {};
}

const UPLOAD_USE = 'upload';

/** As Supabase Storage: a signed upload URL is valid for two hours. */
export const SIGNED_UPLOAD_EXPIRES_IN_SECONDS = 2 * 3600;

export interface SignedUpload {
  /** The signer's user id (the new object's owner), or null for the service role. */
  owner: string | null;
  upsert: boolean;
}

/** The token, and the path part storage-js appends to `{url}/storage/v1` to upload with it. */
export async function signUploadUrl(
  keys: Pick<KeySet, 'current'>,
  bucket: string,
  key: string,
  upload: SignedUpload,
): Promise<{ url: string; token: string }> {
  const url = `${bucket}/${key}`;
  const token = await new jose.SignJWT({
    url,
    owner: upload.owner,
    upsert: upload.upsert,
    use: UPLOAD_USE,
  })
    .setProtectedHeader({ alg: keys.current.alg, kid: keys.current.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + SIGNED_UPLOAD_EXPIRES_IN_SECONDS)
    .sign(keys.current.privateKey);
  return { url: `/object/upload/sign/${encodeKey(url)}?token=${token}`, token };
}

export async function verifyUploadToken(
  keys: Pick<KeySet, 'publicJwks'>,
  token: string | undefined,
  bucket: string,
  key: string,
): Promise<SignedUpload> {
  const payload = await verifySignedToken(keys, token);
  if (payload.use !== UPLOAD_USE)
    throw storageErrors.invalidSignature('Invalid signature: the token is not for an upload');
  if (payload.url !== `${bucket}/${key}`)
    throw storageErrors.invalidSignature('Invalid signature: the token is for another object');
  return {
    owner: typeof payload.owner === 'string' ? payload.owner : null,
    upsert: payload.upsert === true,
  };
}
