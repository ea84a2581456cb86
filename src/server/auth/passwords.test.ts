import { describe, expect, it } from 'vitest';
import { AuthError } from './errors';
import { checkPasswordStrength, hashPassword, isCommonPassword, verifyPassword } from './passwords';

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
});
