/**
 * The flashcard statistics screen's arithmetic (decision 0162): the server returns only days with
 * reviews; the charts need every day, the heatmap needs whole weeks, and retention is a share
 * that does not exist without learned reviews.
 */

export interface DayReviews {
  day: string;
  reviews: number;
  again: number;
}

export interface RetentionCounts {
  learned_reviews: number;
  recalled: number;
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` plus `days`, by the calendar (the strings are dates, not instants). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from `first` to `last` inclusive, with zero where nothing was reviewed. */
export function everyDay(perDay: readonly DayReviews[], first: string, last: string): DayReviews[] {
  const byDay = new Map(perDay.map((d) => [d.day, d]));
  const days: DayReviews[] = [];
  for (let day = first; day <= last; day = addDays(day, 1))
    days.push(byDay.get(day) ?? { day, reviews: 0, again: 0 });
  return days;
}

/** Percent recalled of learned reviews, rounded; null when there were none to measure. */
export function retentionPercent(counts: RetentionCounts): number | null {
  return counts.learned_reviews === 0
    ? null
    : Math.round((counts.recalled / counts.learned_reviews) * 100);
}

/** 0 for no reviews, else 1–4 by quarters of the busiest day. */
export function intensity(reviews: number, busiest: number): 0 | 1 | 2 | 3 | 4 {
  if (reviews <= 0 || busiest <= 0) return 0;
  return Math.min(4, Math.ceil((reviews / busiest) * 4)) as 1 | 2 | 3 | 4;
}

/**
 * Days in columns of weeks, Monday first, as a calendar heatmap draws them: the first column is
 * padded with nulls before the first day, the last after the last day.
 */
export function weekColumns(days: readonly DayReviews[]): (DayReviews | null)[][] {
  if (days.length === 0) return [];
  const mondayOffset = (new Date(`${days[0]!.day}T00:00:00Z`).getUTCDay() + 6) % 7;
  const cells: (DayReviews | null)[] = [...Array<null>(mondayOffset).fill(null), ...days];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (DayReviews | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** The heatmap's text alternative: totals, active days and the busiest day. */
export function heatmapSummary(
  days: readonly DayReviews[],
  formatDay: (day: string) => string = (day) => day,
): string {
  const active = days.filter((d) => d.reviews > 0);
  if (active.length === 0) return 'No reviews in this period.';
  const total = active.reduce((sum, d) => sum + d.reviews, 0);
  const busiest = active.reduce((best, d) => (d.reviews > best.reviews ? d : best));
  return `${total} ${total === 1 ? 'review' : 'reviews'} on ${active.length} of ${days.length} days; the most, ${busiest.reviews}, on ${formatDay(busiest.day)}.`;
}
