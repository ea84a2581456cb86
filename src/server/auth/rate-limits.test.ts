import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { AuthError } from './errors';
import { createAuthRateLimits } from './rate-limits';

describe('auth rate limits', () => {
  it('allows the configured number per window and address, then answers 429', () => {
    let now = 0;
    const config = loadConfig(
      {},
      { AUTH_RATE_LIMIT_SIGN_IN: '2', AUTH_RATE_LIMIT_MFA_VERIFY: '1' },
    );
    const limits = createAuthRateLimits(config, () => now);
    limits.hit('sign_in', '10.0.0.1');
    limits.hit('sign_in', '10.0.0.1');
    expect(() => limits.hit('sign_in', '10.0.0.1')).toThrow(AuthError);
    // Other addresses and other buckets count separately.
    expect(() => limits.hit('sign_in', '10.0.0.2')).not.toThrow();
    expect(() => limits.hit('recover', '10.0.0.1')).not.toThrow();
    try {
      limits.hit('sign_in', '10.0.0.1');
    } catch (error) {
      expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
      expect((error as AuthError).extra.retry_after).toBe(300);
    }
    now += 5 * 60 * 1000;
    expect(() => limits.hit('sign_in', '10.0.0.1')).not.toThrow();

    limits.hit('mfa_verify', '10.0.0.1');
    expect(() => limits.hit('mfa_verify', '10.0.0.1')).toThrow(/per minute/);
    now += 60 * 1000;
    expect(() => limits.hit('mfa_verify', '10.0.0.1')).not.toThrow();
  });

  it('counts anonymous sign-ins per hour', () => {
    let now = 0;
    const config = loadConfig({}, { AUTH_RATE_LIMIT_ANONYMOUS: '1' });
    const limits = createAuthRateLimits(config, () => now);
    limits.hit('anonymous', '10.0.0.1');
    expect(() => limits.hit('anonymous', '10.0.0.1')).toThrow(/at most 1 per hour/);
    now += 5 * 60 * 1000;
    expect(() => limits.hit('anonymous', '10.0.0.1')).toThrow(AuthError);
    now += 55 * 60 * 1000;
    expect(() => limits.hit('anonymous', '10.0.0.1')).not.toThrow();
  });
});
