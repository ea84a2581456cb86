/**
 * Remembers tokens that verified, so a client repeating its token (every supabase-js call
 * does) costs one ES256 check per minute instead of one per request. A cached entry never
 * outlives the token's `exp`; failures are never cached. A token whose session has ended
 * (signed out through any process, decision 0071) is refused, cached or not, and the
 * verifier's `confirm` runs on every hit (an organization API key's state, decision 0615).
 */
import type { JwtClaims } from '../../db/types';
import { TokenError, type TokenVerifier } from '../../keys/verify';
import type { EndedSessions } from './ended-sessions';

export const SESSION_ENDED_MESSAGE = 'Session from session_id claim in JWT does not exist';

export function cachedVerifier(
  verifier: TokenVerifier,
  options: {
    maxEntries?: number;
    ttlMs?: number;
    now?: () => number;
    endedSessions?: EndedSessions;
  } = {},
): TokenVerifier {
  const maxEntries = options.maxEntries ?? 2000;
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const endedSessions = options.endedSessions ?? verifier.endedSessions;
  const cache = new Map<string, { claims: JwtClaims; until: number }>();

  function refuseEnded(token: string, claims: JwtClaims): JwtClaims {
    if (endedSessions?.has(claims.session_id)) {
      cache.delete(token);
      throw new TokenError(SESSION_ENDED_MESSAGE);
    }
    return claims;
  }

  return {
    endedSessions,
    confirm: verifier.confirm?.bind(verifier),
    async verify(token) {
      const at = now();
      const hit = cache.get(token);
      if (hit && hit.until > at) {
        const claims = refuseEnded(token, hit.claims);
        if (verifier.confirm) {
          try {
            await verifier.confirm(claims, token);
          } catch (error) {
            cache.delete(token);
            throw error;
          }
        }
        return claims;
      }
      if (hit) cache.delete(token);
      const claims = refuseEnded(token, await verifier.verify(token));
      const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : at;
      const until = Math.min(exp, at + ttlMs);
      if (until > at) {
        // Map keeps insertion order: the first key is the oldest entry.
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(token, { claims, until });
      }
      return claims;
    },
  };
}
