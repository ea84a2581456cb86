import { describe, expect, it } from 'vitest';
import type { JwtClaims } from '../../db/types';
import { cachedVerifier } from './verified-tokens';

describe('verified-token cache', () => {
  it('verifies a token once per ttl, never past its exp, and never caches failures', async () => {
    let now = 1_000_000;
    let calls = 0;
    const claims: Record<string, JwtClaims> = {
      long: { role: 'anon', exp: (now + 3_600_000) / 1000 },
      short: { role: 'anon', exp: (now + 5_000) / 1000 },
    };
    const verifier = cachedVerifier(
      {
        async verify(token) {
          calls++;
          const found = claims[token];
          if (!found) throw new Error('bad token');
          return found;
        },
      },
      { ttlMs: 60_000, now: () => now },
    );
    await verifier.verify('long');
    await verifier.verify('long');
    expect(calls).toBe(1);
    now += 61_000;
    await verifier.verify('long');
    expect(calls).toBe(2);

    await verifier.verify('short');
    now += 6_000;
    await verifier.verify('short');
    expect(calls).toBe(4);

    await expect(verifier.verify('bad')).rejects.toThrow();
    await expect(verifier.verify('bad')).rejects.toThrow();
    expect(calls).toBe(6);
  });
});
