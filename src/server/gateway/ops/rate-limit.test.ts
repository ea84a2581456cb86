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

  it('hands over what it admitted once, and takes back usage a failed sync could not share', () => {
    const now = 0;
    const limiter = createRateLimiter(10, () => now);
    limiter.take('a');
    limiter.take('a');
    limiter.take('b');
    expect(limiter.takeUsage()).toEqual(
      new Map([
        ['a', 2],
        ['b', 1],
      ]),
    );
    expect(limiter.takeUsage()).toEqual(new Map());
    limiter.returnUsage(new Map([['a', 2]]));
    limiter.take('a');
    expect(limiter.takeUsage()).toEqual(new Map([['a', 3]]));
  });

  it('adopts what is left across processes, less what it admitted while the sync ran', () => {
    let now = 0;
    const limiter = createRateLimiter(10, () => now);
    limiter.take('a');
    const usage = limiter.takeUsage();
    expect(usage.get('a')).toBe(1);
    // Two more admitted here while the database added this process's 1 to another's 8.
    limiter.take('a');
    limiter.take('a');
    limiter.applyShared(new Map([['a', 10 - 1 - 8]]));
    expect(limiter.take('a')).toBe(1);
    // The debt (−1) refills at the limit: two tokens' time until one can be taken.
    now += 100;
    expect(limiter.take('a')).toBe(1);
    now += 100;
    expect(limiter.take('a')).toBe(0);
    // A key only other processes used starts from what they left.
    limiter.applyShared(new Map([['c', 0.5]]));
    expect(limiter.take('c')).toBe(1);
  });

  it('shares a slow key once a second, a busy one as soon as it took a tenth of the limit', () => {
    let now = 0;
    const limiter = createRateLimiter(100, () => now);
    limiter.take('slow');
    for (let i = 0; i < 10; i++) limiter.take('busy');
    expect(limiter.takeUsage()).toEqual(new Map([['busy', 10]]));
    now += 999;
    expect(limiter.takeUsage()).toEqual(new Map());
    now += 1;
    expect(limiter.takeUsage()).toEqual(new Map([['slow', 1]]));
    limiter.take('slow');
    expect(limiter.takeUsage({ all: true })).toEqual(new Map([['slow', 1]]));
  });
});
