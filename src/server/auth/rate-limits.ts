/**
 * Abuse limits per client address, in the spirit of Supabase Auth's defaults: fixed windows
 * per (bucket, address), in memory per process.
 */
import type { Config } from '../config';
import { AuthError } from './errors';

export type LimitBucket =
  | 'sign_in'
  | 'sign_up'
  | 'anonymous'
  | 'sms'
  | 'recover'
  | 'verify'
  | 'token_refresh'
  | 'mfa_verify'
  | 'email';

interface Window {
  start: number;
  count: number;
  windowMs: number;
}

export interface AuthRateLimits {
  /** Counts one request; throws 429 `over_request_rate_limit` past the bucket's limit. */
  hit(bucket: LimitBucket, address: string): void;
}

const FIVE_MINUTES = 5 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const SWEEP_AT = 20_000;

export function createAuthRateLimits(config: Config, now: () => number = Date.now): AuthRateLimits {
  const { signIn, anonymousPerHour, smsPerHour, tokenRefresh, mfaVerify } = config.auth.rateLimits;
  const limits: Record<LimitBucket, { max: number; windowMs: number; label: string }> = {
    sign_in: { max: signIn, windowMs: FIVE_MINUTES, label: 'sign-in attempts' },
    sign_up: { max: signIn, windowMs: FIVE_MINUTES, label: 'sign-ups' },
    anonymous: { max: anonymousPerHour, windowMs: HOUR, label: 'anonymous sign-ins' },
    sms: { max: smsPerHour, windowMs: HOUR, label: 'SMS messages sent' },
    recover: { max: signIn, windowMs: FIVE_MINUTES, label: 'password reset requests' },
    verify: { max: signIn, windowMs: FIVE_MINUTES, label: 'verification attempts' },
    email: { max: signIn, windowMs: FIVE_MINUTES, label: 'emails sent' },
    token_refresh: { max: tokenRefresh, windowMs: FIVE_MINUTES, label: 'token refreshes' },
    mfa_verify: { max: mfaVerify, windowMs: 60 * 1000, label: 'MFA verification attempts' },
  };
  const windows = new Map<string, Window>();

  return {
    hit(bucket, address) {
      const limit = limits[bucket];
      const at = now();
      const key = `${bucket}:${address}`;
      let window = windows.get(key);
      if (!window || at - window.start >= limit.windowMs) {
        if (windows.size >= SWEEP_AT) {
          for (const [k, w] of windows) if (at - w.start >= w.windowMs) windows.delete(k);
        }
        window = { start: at, count: 0, windowMs: limit.windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count > limit.max) {
        const retryAfter = Math.max(1, Math.ceil((window.start + limit.windowMs - at) / 1000));
        const per =
          limit.windowMs === HOUR
            ? 'hour'
            : limit.windowMs === FIVE_MINUTES
              ? '5 minutes'
              : 'minute';
        throw new AuthError(
          429,
          'over_request_rate_limit',
          `Too many ${limit.label} from this address: at most ${limit.max} per ${per}. Try again in ${retryAfter} s.`,
          { retry_after: retryAfter },
        );
      }
    },
  };
}
