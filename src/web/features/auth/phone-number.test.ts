import { describe, expect, it } from 'vitest';
import { displayPhone, phoneEnding, phoneNumber } from './phone-number';

describe('phoneNumber', () => {
  it('accepts international numbers as people type them', () => {
    expect(phoneNumber('+44 7700 900123')).toEqual({ phone: '+447700900123' });
    expect(phoneNumber(' +1 (415) 555-0100 ')).toEqual({ phone: '+14155550100' });
    expect(phoneNumber('+33.6.12.34.56.78')).toEqual({ phone: '+33612345678' });
  });

  it('says what is wrong with a number it refuses', () => {
    expect(phoneNumber('')).toEqual({ problem: 'Enter your mobile number.' });
    expect(phoneNumber('07700 900123')).toMatchObject({
      problem: expect.stringMatching(/^Start with \+/),
    });
    expect(phoneNumber('+44 7700 9OO123')).toMatchObject({
      problem: expect.stringMatching(/only digits/),
    });
    expect(phoneNumber('+44 12')).toMatchObject({
      problem: expect.stringMatching(/too short or too long/),
    });
    expect(phoneNumber('+1234567890123456')).toMatchObject({
      problem: expect.stringMatching(/too short or too long/),
    });
    expect(phoneNumber('+0 7700 900123')).toMatchObject({
      problem: expect.stringMatching(/no leading 0/),
    });
  });

  it('shows stored numbers with their +, and their last four digits', () => {
    expect(displayPhone('447700900123')).toBe('+447700900123');
    expect(phoneEnding('447700900123')).toBe('0123');
  });
});
