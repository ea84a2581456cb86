/**
 * The learner's own activity, grouped for the charts and the CSV: weeks start on Monday
 * (ISO weeks), dates are the learner's calendar dates as the database stored them.
 */
import type { CsvValue } from '@/lib/csv';

export interface ActivityRows {
  studyTime: { day: string; courseTitle: string; seconds: number }[];
  lessons: { completedAt: string; courseTitle: string; lessonTitle: string }[];
  quizzes: { submittedAt: string; quizTitle: string; courseTitle: string; score: number }[];
  /** state_before 2 is FSRS's Review state: a card already learned. */
  reviews: { reviewedAt: string; rating: number; stateBefore: number }[];
}

/** The Monday of the week a YYYY-MM-DD date (or an ISO timestamp) falls in. */
export function weekOf(date: string): string {
  const day = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  const offset = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - offset);
  return day.toISOString().slice(0, 10);
}

export interface WeekCourseMinutes {
  week: string;
  course: string;
  minutes: number;
}

export function minutesByWeekAndCourse(rows: ActivityRows['studyTime']): WeekCourseMinutes[] {
  const sums = new Map<string, WeekCourseMinutes>();
  for (const row of rows) {
    const week = weekOf(row.day);
    const key = `${week}\u0000${row.courseTitle}`;
    const entry = sums.get(key) ?? { week, course: row.courseTitle, minutes: 0 };
    entry.minutes += row.seconds / 60;
    sums.set(key, entry);
  }
  return [...sums.values()]
    .map((e) => ({ ...e, minutes: Math.round(e.minutes) }))
    .sort((a, b) => a.week.localeCompare(b.week) || a.course.localeCompare(b.course));
}

export function lessonsByWeek(rows: ActivityRows['lessons']): { week: string; lessons: number }[] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const week = weekOf(row.completedAt);
    counts.set(week, (counts.get(week) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([week, lessons]) => ({ week, lessons }))
    .sort((a, b) => a.week.localeCompare(b.week));
}

export interface WeekRetention {
  week: string;
  reviews: number;
  /** Reviews of learned cards, and how many of those were recalled (rated Hard or better). */
  matureReviews: number;
  recalled: number;
  /** recalled / matureReviews in percent, null without learned cards that week. */
  retention: number | null;
}

export function retentionByWeek(rows: ActivityRows['reviews']): WeekRetention[] {
  const weeks = new Map<string, WeekRetention>();
  for (const row of rows) {
    const week = weekOf(row.reviewedAt);
    const entry = weeks.get(week) ?? {
      week,
      reviews: 0,
      matureReviews: 0,
      recalled: 0,
      retention: null,
    };
    entry.reviews += 1;
    if (row.stateBefore === 2) {
      entry.matureReviews += 1;
      if (row.rating >= 2) entry.recalled += 1;
    }
    weeks.set(week, entry);
  }
  return [...weeks.values()]
    .map((e) => ({
      ...e,
      retention: e.matureReviews === 0 ? null : Math.round((e.recalled / e.matureReviews) * 100),
    }))
    .sort((a, b) => a.week.localeCompare(b.week));
}

/** Every event as one CSV row: what happened, when, where and its figure. */
export function activityCsvRows(rows: ActivityRows): CsvValue[][] {
  const out: CsvValue[][] = [
    ...rows.studyTime.map((r) => [
      r.day,
      'study time',
      r.courseTitle,
      '',
      Math.round(r.seconds / 60),
      'minutes',
    ]),
    ...rows.lessons.map((r) => [
      r.completedAt.slice(0, 10),
      'lesson completed',
      r.courseTitle,
      r.lessonTitle,
      1,
      'lesson',
    ]),
    ...rows.quizzes.map((r) => [
      r.submittedAt.slice(0, 10),
      'quiz graded',
      r.courseTitle,
      r.quizTitle,
      r.score,
      'percent',
    ]),
    ...rows.reviews.map((r) => [
      r.reviewedAt.slice(0, 10),
      'flashcard reviewed',
      '',
      '',
      r.rating,
      'rating (1 again, 2 hard, 3 good, 4 easy)',
    ]),
  ];
  return out.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

export const activityCsvHeader = ['date', 'activity', 'course', 'item', 'value', 'unit'] as const;
