/**
 * Per-API-key rate limiting for /rest, /storage and /functions: a token bucket per key that
 * holds `limitPerSecond` tokens and refills at that rate. The buckets live in memory; with
 * several gateway processes on PostgreSQL, `rate-limit-sync.ts` shares what each process
 * admitted every 100 ms, so the limit holds across them within a stated tolerance (decisions
 * 0021 and 0070).
 */
import { hash as digest } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { bearerToken } from '../api-auth';
import { clientAddress } from './client-address';

interface Bucket {
  tokens: number;
  updated: number;
  /** Tokens taken since the usage was last handed to the other processes. */
  unshared: number;
  /** When this bucket's usage was last handed over. */
  sharedAt: number;
}

/** What this process admitted per key since the last `takeUsage()`. */
export type RateUsage = Map<string, number>;

export interface RateLimiter {
  readonly limitPerSecond: number;
  /** Takes one token; returns 0 when allowed, else the seconds to wait. */
  take(key: string): number;
  /**
   * Hands over (and forgets) the tokens taken per key since they were last handed over: for
   * keys that took a tenth of the limit since, or any for a second; `all` for every key.
   */
  takeUsage(options?: { all?: boolean }): RateUsage;
  /** Gives back usage a failed sync could not share, so the next sync sends it. */
  returnUsage(usage: RateUsage): void;
  /**
   * Sets buckets to what is left of them across all processes (`remaining`, as of the sync
   * that returned it), less what this process took while that sync was under way.
   */
  applyShared(remaining: ReadonlyMap<string, number>): void;
}

/** Past this many keys, full (idle) buckets are dropped so junk keys cannot grow memory. */
const SWEEP_AT = 10_000;
/**
 * A key's usage is shared once it reaches a tenth of the limit (what one 100 ms sync interval
 * refills), or after this long: a slow key costs the database one row a second, not ten.
 */
const SHARE_FRACTION = 0.1;
const SHARE_AT_LEAST_EVERY_MS = 1000;

export function createRateLimiter(
  limitPerSecond: number,
  now: () => number = () => performance.now(),
  /**
   * Tokens a bucket holds (default: one second's worth). A slow limit such as coupon attempts
   * (10 per 10 minutes) holds more than it refills in a second.
   */
  burst: number = limitPerSecond,
): RateLimiter {
  const buckets = new Map<string, Bucket>();

  function refill(bucket: Bucket, at: number) {
    bucket.tokens = Math.min(
      burst,
      bucket.tokens + ((at - bucket.updated) / 1000) * limitPerSecond,
    );
    bucket.updated = at;
  }

  function bucketFor(key: string, at: number): Bucket {
    let bucket = buckets.get(key);
    if (bucket) {
      refill(bucket, at);
      return bucket;
    }
    if (buckets.size >= SWEEP_AT) {
      for (const [k, b] of buckets) {
        refill(b, at);
        if (b.tokens >= burst && b.unshared === 0) buckets.delete(k);
      }
    }
    bucket = { tokens: burst, updated: at, unshared: 0, sharedAt: at };
    buckets.set(key, bucket);
    return bucket;
  }

  return {
    limitPerSecond,

    take(key) {
      const bucket = bucketFor(key, now());
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        bucket.unshared += 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / limitPerSecond));
    },

    takeUsage(options = {}) {
      const at = now();
      const threshold = Math.max(1, limitPerSecond * SHARE_FRACTION);
      const usage: RateUsage = new Map();
      for (const [key, bucket] of buckets) {
        if (bucket.unshared === 0) continue;
        const due =
          options.all ||
          bucket.unshared >= threshold ||
          at - bucket.sharedAt >= SHARE_AT_LEAST_EVERY_MS;
        if (!due) continue;
        usage.set(key, bucket.unshared);
        bucket.unshared = 0;
        bucket.sharedAt = at;
      }
      return usage;
    },

    returnUsage(usage) {
      const at = now();
      for (const [key, used] of usage) bucketFor(key, at).unshared += used;
    },

    applyShared(remaining) {
      const at = now();
      for (const [key, tokens] of remaining) {
        const bucket = bucketFor(key, at);
        bucket.tokens = Math.min(burst, tokens) - bucket.unshared;
        bucket.updated = at;
      }
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
function rateKey(c: Context, shared: ReadonlyMap<string, string>): string | undefined {
  const apiKey = c.req.header('apikey')?.trim();
  const bearer = bearerToken(c.req.header('authorization'));
  if (bearer && bearer !== apiKey && !shared.has(bearer)) return `token:${hash(bearer)}`;
  const key = apiKey || bearer;
  if (!key) return undefined;
  const sharedHash = shared.get(key);
  if (sharedHash !== undefined) return `shared:${sharedHash}:${clientAddress(c)}`;
  return `key:${hash(key)}`;
}

export function rateLimit(limitPerSecond: number, options: RateLimitOptions = {}) {
  const limiter = options.limiter ?? createRateLimiter(limitPerSecond);
  // The shared keys' hashes, taken once: most requests present one of them.
  const shared = new Map((options.sharedKeys ?? []).map((key) => [key, hash(key)]));
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
