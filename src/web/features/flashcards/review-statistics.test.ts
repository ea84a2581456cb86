import { describe, expect, it } from 'vitest';
import {
  addDays,
  everyDay,
  heatmapSummary,
  intensity,
  retentionPercent,
  weekColumns,
} from './review-statistics';

describe('flashcard statistics arithmetic', () => {
  it('fills the days without reviews, across a month end', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(
      everyDay([{ day: '2026-12-01', reviews: 5, again: 1 }], '2026-11-29', '2026-12-01'),
    ).toEqual([
      { day: '2026-11-29', reviews: 0, again: 0 },
      { day: '2026-11-30', reviews: 0, again: 0 },
      { day: '2026-12-01', reviews: 5, again: 1 },
    ]);
  });

  it('has no retention without learned reviews', () => {
    expect(retentionPercent({ learned_reviews: 0, recalled: 0 })).toBeNull();
    expect(retentionPercent({ learned_reviews: 3, recalled: 2 })).toBe(67);
  });

  it('grades a day against the busiest one', () => {
    expect([0, 1, 5, 6, 20].map((n) => intensity(n, 20))).toEqual([0, 1, 1, 2, 4]);
    expect(intensity(3, 0)).toBe(0);
  });

  it('lays days out in Monday-first weeks', () => {
    // 2026-11-25 is a Wednesday: two empty cells before it.
    const days = everyDay([], '2026-11-25', '2026-12-01');
    const weeks = weekColumns(days);
    expect(weeks).toHaveLength(2);
    expect(weeks[0]!.slice(0, 3).map((d) => d?.day ?? null)).toEqual([null, null, '2026-11-25']);
    expect(weeks[1]!.map((d) => d?.day ?? null)).toEqual([
      '2026-11-30',
      '2026-12-01',
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('says in words what the heatmap shows', () => {
    expect(heatmapSummary(everyDay([], '2026-11-01', '2026-11-07'))).toBe(
      'No reviews in this period.',
    );
    expect(
      heatmapSummary(
        everyDay(
          [
            { day: '2026-11-02', reviews: 1, again: 0 },
            { day: '2026-11-05', reviews: 12, again: 2 },
          ],
          '2026-11-01',
          '2026-11-07',
        ),
      ),
    ).toBe('13 reviews on 2 of 7 days; the most, 12, on 2026-11-05.');
  });
});
