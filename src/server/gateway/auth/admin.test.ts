import { describe, expect, it } from 'vitest';
import { AuthError } from '../../auth/errors';
import { parseBanDuration } from './admin';

describe('ban durations', () => {
  it('parses Go duration strings and "none"', () => {
    expect(parseBanDuration('24h')).toBe(24 * 3600 * 1000);
    expect(parseBanDuration('1h30m')).toBe(90 * 60 * 1000);
    expect(parseBanDuration('90s')).toBe(90_000);
    expect(parseBanDuration('none')).toBe('none');
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'forever', '24', 'h', '1d', '24h ']) {
      expect(() => parseBanDuration(bad), bad).toThrow(AuthError);
    }
  });
});
