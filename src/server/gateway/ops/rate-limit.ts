/**
 * Per-API-key rate limiting for /rest, /storage and /functions: a token bucket per key that
 * holds `limitPerSecond` tokens and refills at that rate. In memory, per process (see
 * decision 0021 for what that means with several gateway processes).
 */
import { hash as digest } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { bearerToken } from '../api-auth';
import { clientAddress } from './client-address';

interface Bucket {
  tokens: number;
  updated: number;
}

export interface RateLimiter {
  /** Takes one token; returns 0 when allowed, else the seconds to wait. */
  take(key: string): number;
}

/** Past this many keys, full (idle) buckets are dropped so junk keys cannot grow memory. */
const SWEEP_AT = 10_000;

export function createRateLimiter(
  limitPerSecond: number,
  now: () => number = () => performance.now(),
): RateLimiter {
  const buckets = new Map<string, Bucket>();

  function refill(bucket: Bucket, at: number) {
    bucket.tokens = Math.min(
      limitPerSecond,
      bucket.tokens + ((at - bucket.updated) / 1000) * limitPerSecond,
    );
    bucket.updated = at;
  }

  return {
    take(key) {
      const at = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= SWEEP_AT) {
          for (const [k, b] of buckets) {
            refill(b, at);
            if (b.tokens >= limitPerSecond) buckets.delete(k);
          }
        }
        bucket = { tokens: limitPerSecond, updated: at };
        buckets.set(key, bucket);
      } else refill(bucket, at);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / limitPerSecond));
    },
  };
}

function hash(value: string): string {
  return digest('sha256', value, 'base64url');
}

export interface RateLimitOptions {
  /**
   * Keys every browser presents (the anon key): limited per client address instead, so one
   * busy visitor cannot use up the allowance of all the others.
   */
  sharedKeys?: readonly string[];
  limiter?: RateLimiter;
}

/**
 * Whose allowance a request draws on, hashed so the limiter never holds a usable key: a
 * signed-in user's session token, else the API key (per address for a shared key).
 */
function rateKey(c: Context, shared: ReadonlySet<string>): string | undefined {
  const apiKey = c.req.header('apikey')?.trim();
  const bearer = bearerToken(c.req.header('authorization'));
  if (bearer && bearer !== apiKey && !shared.has(bearer)) return `token:${hash(bearer)}`;
  const key = apiKey || bearer;
  if (!key) return undefined;
  if (shared.has(key)) return `shared:${hash(key)}:${clientAddress(c)}`;
  return `key:${hash(key)}`;
}

export function rateLimit(limitPerSecond: number, options: RateLimitOptions = {}) {
  const limiter = options.limiter ?? createRateLimiter(limitPerSecond);
  const shared = new Set(options.sharedKeys ?? []);
  return createMiddleware(async (c, next) => {
    const key = rateKey(c, shared);
    // Keyless requests (public and signed downloads, CORS preflights) are not per-key traffic;
    // limiting them by address would throttle every client behind one proxy together.
    if (!key) return next();
    const wait = limiter.take(key);
    if (wait === 0) return next();
    c.header('Retry-After', String(wait));
    // The services' CORS middleware has not run yet; a browser must still see the 429.
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Access-Control-Expose-Headers', 'Retry-After');
    return c.json(
      {
        statusCode: '429',
        code: 'over_request_rate_limit',
        error: 'Too Many Requests',
        message: `Rate limit exceeded: at most ${limitPerSecond} requests per second per API key or user. Retry after ${wait} s.`,
      },
      429,
    );
  });
}
