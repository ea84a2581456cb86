/**
 * Remembers tokens that verified, so a client repeating its token (every supabase-js call
 * does) costs one ES256 check per minute instead of one per request. A cached entry never
 * outlives the token's `exp`; failures are never cached.
 */
import type { JwtClaims } from '../../db/types';
import type { TokenVerifier } from '../../keys/verify';

export function cachedVerifier(
  verifier: TokenVerifier,
  options: { maxEntries?: number; ttlMs?: number; now?: () => number } = {},
): TokenVerifier {
  const maxEntries = options.maxEntries ?? 2000;
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { claims: JwtClaims; until: number }>();

  return {
    async verify(token) {
      const at = now();
      const hit = cache.get(token);
      if (hit && hit.until > at) return hit.claims;
      if (hit) cache.delete(token);
      const claims = await verifier.verify(token);
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
