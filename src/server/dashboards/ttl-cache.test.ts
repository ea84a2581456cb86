import { describe, expect, it } from 'vitest';
import { createTtlCache } from './ttl-cache';

describe('createTtlCache', () => {
  it('serves a stored answer until it expires, then loads again', async () => {
    let clock = 0;
    const cache = createTtlCache<number>({ ttlMs: 1000, maxEntries: 10 }, () => clock);
    let calls = 0;
    const load = async () => ++calls;
    expect(await cache.get('a', load)).toBe(1);
    clock = 999;
    expect(await cache.get('a', load)).toBe(1);
    clock = 1000;
    expect(await cache.get('a', load)).toBe(2);
  });

  it('shares one load between concurrent callers and never caches a failure', async () => {
    const cache = createTtlCache<string>({ ttlMs: 1000, maxEntries: 10 }, () => 0);
    let calls = 0;
    let release: (value: string) => void = () => undefined;
    const slow = () => {
      calls++;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const both = Promise.all([cache.get('k', slow), cache.get('k', slow)]);
    release('v');
    expect(await both).toEqual(['v', 'v']);
    expect(calls).toBe(1);

    const failing = createTtlCache<string>({ ttlMs: 1000, maxEntries: 10 }, () => 0);
    await expect(failing.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await failing.get('k', async () => 'up')).toBe('up');
  });

  it('keeps at most maxEntries keys, dropping the oldest', async () => {
    const cache = createTtlCache<string>({ ttlMs: 1000, maxEntries: 2 }, () => 0);
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    await cache.get('c', async () => 'c1');
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    expect(await cache.get('c', async () => 'c2')).toBe('c1');
  });
});
