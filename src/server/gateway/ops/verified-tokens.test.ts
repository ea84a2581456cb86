import { describe, expect, it } from 'vitest';
import type { JwtClaims } from '../../db/types';
import { SESSION_ENDED_MESSAGE, cachedVerifier } from './verified-tokens';

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

  it('refuses a token whose session ended, cached or not, and keeps others', async () => {
    const ended = new Set<string>();
    const claims: Record<string, JwtClaims> = {
      one: { role: 'authenticated', session_id: 's1', exp: Date.now() / 1000 + 3600 },
      two: { role: 'authenticated', session_id: 's2', exp: Date.now() / 1000 + 3600 },
      gone: { role: 'authenticated', session_id: 's3', exp: Date.now() / 1000 + 3600 },
    };
    const verifier = cachedVerifier(
      { verify: async (token) => claims[token]! },
      { endedSessions: { has: (id) => typeof id === 'string' && ended.has(id) } },
    );
    await verifier.verify('one');
    ended.add('s1');
    ended.add('s3');
    await expect(verifier.verify('one')).rejects.toThrow(SESSION_ENDED_MESSAGE);
    await expect(verifier.verify('gone')).rejects.toThrow(SESSION_ENDED_MESSAGE);
    await expect(verifier.verify('two')).resolves.toMatchObject({ session_id: 's2' });
  });

  it("asks the verifier's confirm on every cached use, and forgets a token it refuses", async () => {
    let signatureChecks = 0;
    const revoked = new Set<string>();
    const confirmed: string[] = [];
    const verifier = cachedVerifier({
      async verify(token) {
        signatureChecks++;
        confirmed.push(token);
        if (revoked.has(token)) throw new Error('revoked');
        return { role: 'authenticated', exp: Date.now() / 1000 + 3600 };
      },
      async confirm(_claims, token) {
        confirmed.push(token);
        if (revoked.has(token)) throw new Error('revoked');
      },
    });
    await verifier.verify('key');
    await verifier.verify('key');
    await verifier.verify('key');
    expect(signatureChecks).toBe(1);
    expect(confirmed).toEqual(['key', 'key', 'key']);

    revoked.add('key');
    await expect(verifier.verify('key')).rejects.toThrow('revoked');
    // Refused once, it is verified afresh next time rather than served from the cache.
    await expect(verifier.verify('key')).rejects.toThrow('revoked');
    expect(signatureChecks).toBe(2);
  });
});
