/** How the teaching screens and the CSV export write durations, dates and scores. */
import { toCsv } from '@/lib/csv';
import type { LearnerProgress } from './api/get-course-progress';
import { statusLabels } from './progress-query';

/** "1 h 05 min", "12 min", "under a minute", or "—" for none. */
export function formatDuration(seconds: number): string {
  if (seconds <= 0) return '—';
  if (seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

export function formatDateTime(iso: string | null): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

/** A `date` column (no time of day, no zone): shown as the calendar day it names. */
export function formatDay(day: string): string {
  return dateOnly.format(new Date(`${day}T00:00:00Z`));
}

export function formatScore(score: number | null): string {
  return score === null ? '—' : `${Math.round(score * 10) / 10}%`;
}

/** The export: every filtered row, one line per learner, times in minutes, dates in ISO 8601. */
export function progressCsv(rows: readonly LearnerProgress[]): string {
  return toCsv(
    [
      'Name',
      'Email',
      'Status',
      'Lessons completed',
      'Lessons total',
      'Percent',
      'Time spent (minutes)',
      'Last activity',
      'Average quiz score',
      'Attempts awaiting grading',
    ],
    rows.map((row) => [
      row.name,
      row.email,
      statusLabels[row.status],
      row.lessonsCompleted,
      row.lessonsTotal,
      row.percent,
      Math.round(row.timeSpentSeconds / 60),
      row.lastActivity,
      row.averageScore,
      row.awaitingGrading,
    ]),
  );
}

/** A file name from the course title: letters, digits and dashes only. */
export function progressFileName(courseTitle: string, today: Date): string {
  const slug = courseTitle
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'course'}-progress-${today.toISOString().slice(0, 10)}.csv`;
}
