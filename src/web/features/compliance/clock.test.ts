import { describe, expect, it } from 'vitest';
import { timeLeft } from './clock';

const now = Date.parse('2026-11-23T12:00:00Z');

describe('timeLeft', () => {
  it('counts days and hours to a deadline', () => {
    expect(timeLeft('2026-11-26T12:00:00Z', now)).toEqual({ text: '3 d 0 h left', overdue: false });
    expect(timeLeft('2026-11-23T14:30:00Z', now)).toEqual({
      text: '2 h 30 min left',
      overdue: false,
    });
  });

  it('says how long ago a deadline passed', () => {
    expect(timeLeft('2026-11-23T11:15:00Z', now)).toEqual({
      text: 'overdue by 45 min',
      overdue: true,
    });
    expect(timeLeft('2026-11-20T09:00:00Z', now)).toEqual({
      text: 'overdue by 3 d 3 h',
      overdue: true,
    });
  });
});
