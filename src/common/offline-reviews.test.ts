import { describe, expect, it } from 'vitest';
import { checkReviewTime, lateReviewApplies } from './offline-reviews';

const now = new Date('2026-11-24T12:00:00.000Z');

describe('when a late rating counts as made', () => {
  it('keeps the device’s time of a rating made earlier', () => {
    expect(checkReviewTime('2026-11-24T09:30:00.000Z', now)).toEqual({
      ok: true,
      reviewedAt: new Date('2026-11-24T09:30:00.000Z'),
    });
  });

  it('takes a clock a minute ahead as now, and refuses one an hour ahead', () => {
    expect(checkReviewTime('2026-11-24T12:01:00.000Z', now)).toEqual({ ok: true, reviewedAt: now });
    expect(checkReviewTime('2026-11-24T13:00:00.000Z', now)).toMatchObject({
      ok: false,
      reason: 'future',
    });
  });

  it('refuses a rating older than thirty days', () => {
    expect(checkReviewTime('2026-10-26T12:00:00.000Z', now).ok).toBe(true);
    expect(checkReviewTime('2026-10-24T11:59:00.000Z', now)).toMatchObject({
      ok: false,
      reason: 'too_old',
    });
  });
});

describe('the conflict rule', () => {
  const madeOffline = new Date('2026-11-24T10:00:00.000Z');

  it('applies a rating to a card never reviewed, or last reviewed before it', () => {
    expect(lateReviewApplies(null, madeOffline)).toBe(true);
    expect(lateReviewApplies('2026-11-23T18:00:00.000Z', madeOffline)).toBe(true);
    expect(lateReviewApplies('2026-11-24T10:00:00.000Z', madeOffline)).toBe(true);
  });

  it('keeps the server’s schedule when the card was reviewed after it elsewhere', () => {
    expect(lateReviewApplies('2026-11-24T10:00:01.000Z', madeOffline)).toBe(false);
    expect(lateReviewApplies(new Date('2026-11-24T11:00:00.000Z'), madeOffline)).toBe(false);
  });
});
