/** The progress-and-results report as CSV: one row per enrolment, dates in ISO form. */
import { toCsv } from '@/lib/csv';
import type { ReportRow } from './api/get-organization-report';

export const reportCsvHeader = [
  'Learner',
  'Email',
  'Boards',
  'Course',
  'Status',
  'Progress (%)',
  'Enrolled at (UTC)',
  'Completed at (UTC)',
  'Last active (UTC day)',
  'Graded quiz attempts',
  'Average score (%)',
] as const;

export function reportCsv(rows: readonly ReportRow[]): string {
  return toCsv(
    reportCsvHeader,
    rows.map((row) => [
      row.learner,
      row.email,
      row.boards ?? '',
      row.course,
      row.status,
      row.progressPercent,
      row.enrolledAt,
      row.completedAt,
      row.lastActiveDay,
      row.gradedAttempts,
      row.averageScore,
    ]),
  );
}

/** `progress-report-2026-11-23.csv`, with the course or board filter's name when there is one. */
export function reportFilename(today: Date, scope?: string): string {
  const day = today.toISOString().slice(0, 10);
  const part = scope
    ?.toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `progress-report-${part ? `${part}-` : ''}${day}.csv`;
}
