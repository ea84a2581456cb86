/**
 * Verifies bearer tokens. Only asymmetric keys from our own key set are trusted (ES256,
 * RS256); HS256 only when JWT_SECRET is configured. `none` is never accepted.
 */
import * as jose from 'jose';
import type { JwtClaims } from '../db/types';
import { isDbRole } from '../db/types';
import type { KeySet } from './key-store';

export class TokenError extends Error {
  constructor(
    message: string,
    public readonly code: 'bad_jwt' | 'no_authorization' | 'invalid_role' = 'bad_jwt',
  ) {
    super(message);
    this.name = 'TokenError';
  }
}

export interface TokenVerifier {
  verify(token: string): Promise<JwtClaims>;
  /**
   * Sessions that have ended. `verify` itself ignores them (auth looks each session up);
   * the API services' token cache refuses their tokens (decision 0071).
   */
  readonly endedSessions?: { has(sessionId: unknown): boolean };
  /**
   * What must still hold at each request, for a token `verify` accepted earlier: the API
   * services' token cache calls it on every hit, so nothing it checks is ever cached (an
   * organization API key is refused from the moment its revocation commits, decision 0615).
   */
  confirm?(claims: JwtClaims, token: string): Promise<void>;
}

export function createTokenVerifier(
  keys: Pick<KeySet, 'publicJwks'>,
  jwtSecret?: string,
): TokenVerifier {
  const localJwks = jose.createLocalJWKSet({ keys: keys.publicJwks });
  const secret = jwtSecret ? new TextEncoder().encode(jwtSecret) : undefined;

  return {
    async verify(token) {
      if (!token || token.split('.').length !== 3)
        throw new TokenError('Invalid JWT: malformed token');
      let header: jose.ProtectedHeaderParameters;
      try {
        header = jose.decodeProtectedHeader(token);
      } catch {
        throw new TokenError('Invalid JWT: malformed header');
      }
      let payload: jose.JWTPayload;
      try {
        if (header.alg === 'HS256' && secret) {
          ({ payload } = await jose.jwtVerify(token, secret, {
            algorithms: ['HS256'],
            requiredClaims: ['exp'],
          }));
        } else {
          ({ payload } = await jose.jwtVerify(token, localJwks, {
            algorithms: ['ES256', 'RS256'],
            requiredClaims: ['exp'],
          }));
        }
      } catch (error) {
        if (error instanceof jose.errors.JWTExpired) throw new TokenError('JWT expired');
        if (error instanceof jose.errors.JWKSNoMatchingKey)
          throw new TokenError('No matching signing key found in JWKS');
        if (error instanceof jose.errors.JWSSignatureVerificationFailed)
          throw new TokenError('Invalid JWT signature');
        if (error instanceof jose.errors.JOSEAlgNotAllowed)
          throw new TokenError('Invalid JWT: algorithm not allowed');
        throw new TokenError(`Invalid JWT: ${(error as Error).message}`);
      }
      if (!isDbRole(payload.role))
        throw new TokenError('Invalid JWT: unknown role claim', 'invalid_role');
      return payload as JwtClaims;
    },
  };
}
