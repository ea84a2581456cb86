/**
 * Remembers verified tokens for a minute. Every supabase-js request carries the same API key
 * and session token, and an ES256 signature check costs more than the rest of a small read;
 * the cache keeps `exp` authoritative and forgets entries quickly so a retired key stops
 * working within a minute.
 */
import type { JwtClaims } from '../../db/types';
import type { TokenVerifier } from '../../keys/verify';
import { TokenError } from '../../keys/verify';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

export function cachedVerifier(inner: TokenVerifier, now: () => number = Date.now): TokenVerifier {
  const cache = new Map<string, { claims: JwtClaims; until: number; exp: number }>();
  return {
    async verify(token) {
      const hit = cache.get(token);
      const time = now();
      if (hit) {
        if (time < hit.until && time < hit.exp) return hit.claims;
        cache.delete(token);
        if (time >= hit.exp) throw new TokenError('JWT expired');
      }
      const claims = await inner.verify(token);
      if (cache.size >= MAX_ENTRIES) cache.clear();
      const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : time;
      cache.set(token, { claims, until: time + TTL_MS, exp });
      return claims;
    },
  };
}
