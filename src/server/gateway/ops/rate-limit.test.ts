import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit';

describe('token-bucket rate limiter', () => {
  it('allows the limit at once, then one more per 1/limit seconds, per key', () => {
    let now = 0;
    const limiter = createRateLimiter(4, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([0, 0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0);
    now += 250;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
    now += 10_000;
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([0, 0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
  });
});
