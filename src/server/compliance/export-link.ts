/**
 * Download links for prepared exports (decision 0421): a JWT signed with the deployment's key
 * that names the export and the person, and expires. It carries no role and no `url`, so it is
 * neither an API token nor a storage link; the download also needs the person's own session,
 * so a forwarded link is useless to anyone else.
 */
import * as jose from 'jose';
import type { KeySet } from '../keys/key-store';

/** How long one link works (the export itself lives longer; a new link can be asked for). */
export const EXPORT_LINK_SECONDS = 15 * 60;

export async function signExportLink(
  keys: Pick<KeySet, 'current'>,
  exportId: string,
  userId: string,
  expiresAt: Date,
): Promise<string> {
  return new jose.SignJWT({ privacy_export: exportId })
    .setProtectedHeader({ alg: keys.current.alg, kid: keys.current.kid, typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(keys.current.privateKey);
}

export type LinkCheck =
  { ok: true; exportId: string; userId: string } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyExportLink(
  keys: Pick<KeySet, 'publicJwks'>,
  token: string | undefined,
): Promise<LinkCheck> {
  if (!token) return { ok: false, reason: 'invalid' };
  try {
    const { payload } = await jose.jwtVerify(
      token,
      jose.createLocalJWKSet({ keys: keys.publicJwks }),
      { algorithms: ['ES256', 'RS256'], requiredClaims: ['exp', 'sub'] },
    );
    if (typeof payload.privacy_export !== 'string' || typeof payload.sub !== 'string')
      return { ok: false, reason: 'invalid' };
    return { ok: true, exportId: payload.privacy_export, userId: payload.sub };
  } catch (error) {
    return { ok: false, reason: error instanceof jose.errors.JWTExpired ? 'expired' : 'invalid' };
  }
}
