import { describe, expect, it } from 'vitest';
import { formatAge, formatBytes, formatCount, formatMs, formatPercent } from './format';

describe('dashboard formatting', () => {
  it('shows "no data yet" instead of a number when nothing was measured', () => {
    expect(formatCount(null)).toBe('no data yet');
    expect(formatCount(undefined)).toBe('no data yet');
    expect(formatMs(null)).toBe('no data yet');
  });

  it('formats counts, latencies and shares', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatMs(3.14159)).toBe('3.1 ms');
    expect(formatMs(42.4)).toBe('42 ms');
    expect(formatPercent(1, 3)).toBe('33%');
    expect(formatPercent(0, 0)).toBe('0%');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
  });

  it('describes a deployment age in words', () => {
    const now = Date.UTC(2026, 0, 10, 12);
    expect(formatAge(now - 10_000, now)).toBe('just now');
    expect(formatAge(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(formatAge(now - 3 * 3_600_000, now)).toBe('3 hours ago');
    expect(formatAge(now - 26 * 3_600_000, now)).toBe('yesterday');
    expect(formatAge(now - 80 * 3_600_000, now)).toBe('3 days ago');
    expect(formatAge(now + 60_000, now)).toBe('just now');
  });
});
