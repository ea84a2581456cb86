import { describe, expect, it } from 'vitest';
import { canonicalRecoveryCode, newRecoveryCode } from './factors';

describe('recovery codes', () => {
  it('are 16 characters of Crockford base32, without letters that read as digits', () => {
    const codes = Array.from({ length: 200 }, newRecoveryCode);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{16}$/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('accept a code as a person types it', () => {
    const code = 'k4m9x7qp2ab8ht31';
    expect(canonicalRecoveryCode(code)).toBe(code);
    expect(canonicalRecoveryCode('K4M9-X7QP-2AB8-HT31')).toBe(code);
    expect(canonicalRecoveryCode(' k4m9 x7qp 2ab8 ht31 ')).toBe(code);
    // Crockford: o reads as 0, i and l as 1.
    expect(canonicalRecoveryCode('k4m9-x7qp-2ab8-htol')).toBe('k4m9x7qp2ab8ht01');
  });

  it('refuse what cannot be a code', () => {
    for (const bad of [
      '',
      'short',
      'k4m9x7qp2ab8ht3',
      'k4m9x7qp2ab8ht3zz',
      'k4m9x7qp2ab8ht3u',
      42,
      null,
    ]) {
      expect(canonicalRecoveryCode(bad), String(bad)).toBeUndefined();
    }
  });
});
