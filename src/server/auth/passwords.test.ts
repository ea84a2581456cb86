import type * as argon2 from '@node-rs/argon2';
import { hash, verify } from '@node-rs/argon2';
import { describe, expect, it, vi } from 'vitest';
import { AuthError } from './errors';
import { checkPasswordStrength, hashPassword, isCommonPassword, verifyPassword } from './passwords';

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof argon2>();
  return { ...actual, hash: vi.fn(actual.hash), verify: vi.fn(actual.verify) };
});

describe('passwords', () => {
  it('hashes with argon2id at 19 MiB and 2 iterations and verifies', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'wrong horse battery')).toBe(false);
    expect(await verifyPassword(null, 'anything')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
  });

  it('rejects short and common passwords with reasons', () => {
    const reasonsOf = (password: string) => {
      try {
        checkPasswordStrength(password);
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(AuthError);
        const weak = (error as AuthError).extra.weak_password as { reasons: string[] } | undefined;
        return weak?.reasons ?? [(error as AuthError).code];
      }
    };
    expect(reasonsOf('short')).toEqual(['length']);
    expect(reasonsOf('Password123')).toEqual(['pwned']);
    expect(reasonsOf('a fine long passphrase')).toEqual([]);
    expect(reasonsOf('x'.repeat(129))).toEqual(['validation_failed']);
    expect(isCommonPassword('QWERTYUIOP')).toBe(true);
  });

  it('does the same argon2 work for an unknown account as for a real one', async () => {
    const stored = await hashPassword('correct horse battery');
    await verifyPassword(null, 'warm up the stand-in hash');
    vi.mocked(hash).mockClear();
    vi.mocked(verify).mockClear();

    expect(await verifyPassword(null, 'a guess at a password')).toBe(false);
    expect(await verifyPassword(stored, 'a guess at a password')).toBe(false);

    expect(hash).not.toHaveBeenCalled();
    expect(verify).toHaveBeenCalledTimes(2);
    const [standIn, real] = vi.mocked(verify).mock.calls.map(([h]) => String(h));
    // The same algorithm and cost on both paths: only the salt and digest differ.
    const params = (h: string) => h.split('$').slice(1, 4).join('$');
    expect(params(standIn!)).toBe(params(real!));
    expect(params(real!)).toBe('argon2id$v=19$m=19456,t=2,p=1');
  });
});
