import { describe, expect, it } from 'vitest';
import { fieldErrors, settingsSchema, thresholdSchema } from './organization-schemas';

describe('threshold', () => {
  it('accepts whole numbers from 1 to 10, typed as text', () => {
    expect(thresholdSchema.parse({ struggleThreshold: '1' })).toEqual({ struggleThreshold: 1 });
    expect(thresholdSchema.parse({ struggleThreshold: '10' })).toEqual({ struggleThreshold: 10 });
  });

  it.each([
    ['0', 'The threshold is at least 1.'],
    ['11', 'The threshold is at most 10.'],
    ['2.5', 'Enter a whole number from 1 to 10.'],
    ['three', 'Enter a whole number from 1 to 10.'],
  ])('refuses %s', (value, message) => {
    const parsed = thresholdSchema.safeParse({ struggleThreshold: value });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!)).toEqual({ struggleThreshold: message });
  });
});

describe('settings', () => {
  it('trims the name and accepts a well-formed address', () => {
    expect(settingsSchema.parse({ name: '  Lyceum University ', slug: 'lyceum-uni' })).toEqual({
      name: 'Lyceum University',
      slug: 'lyceum-uni',
    });
  });

  it('names each wrong field', () => {
    const parsed = settingsSchema.safeParse({ name: '   ', slug: 'Lyceum--Uni' });
    expect(fieldErrors(parsed.error!)).toEqual({
      name: 'Enter the organization’s name.',
      slug: 'Use lower-case letters, digits and single hyphens, not at the start or end.',
    });
  });
});
