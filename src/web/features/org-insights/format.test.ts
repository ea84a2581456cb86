import { describe, expect, it } from 'vitest';
import { completionRate, formatCount, formatDay, formatPercent } from './format';

describe('figures', () => {
  it('group thousands and show one decimal of a percent', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatPercent(66.66)).toBe('66.7%');
    expect(formatPercent(null)).toBe('—');
  });

  it('write a UTC day without moving it across time zones', () => {
    expect(formatDay('2026-11-23')).toBe('23 Nov 2026');
    expect(formatDay(null)).toBe('—');
  });

  it('have no completion rate without enrolments', () => {
    expect(completionRate(0, 0)).toBeNull();
    expect(completionRate(1, 3)).toBe(33.3);
  });
});
