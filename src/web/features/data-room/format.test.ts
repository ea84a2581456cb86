import { describe, expect, it } from 'vitest';
import { formatLongDate, formatMonthYear } from './format';

describe('data room dates', () => {
  it('shows registry dates as the spec does', () => {
    expect(formatMonthYear('2025-10-01')).toBe('Oct 2025');
    expect(formatLongDate('2025-10-04')).toBe('October 4, 2025');
  });

  it('passes through text that is not a date', () => {
    expect(formatMonthYear('soon')).toBe('soon');
  });
});
