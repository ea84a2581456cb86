import { describe, expect, it } from 'vitest';
import type { ReportRow } from './api/get-organization-report';
import { reportCsv, reportFilename } from './report-csv';

const row: ReportRow = {
  enrollmentId: 'e1',
  learner: '=HYPERLINK("http://evil.example")',
  email: 'ada@example.com',
  boards: 'Faculty of Arts; Faculty of Science',
  course: 'Cells, tissues and "organs"',
  status: 'completed',
  progressPercent: 100,
  enrolledAt: '2026-11-01T09:00:00+00:00',
  completedAt: null,
  lastActiveDay: '2026-11-20',
  gradedAttempts: 2,
  averageScore: 87.5,
};

describe('report CSV', () => {
  it('writes one guarded, quoted row per enrolment under the header', () => {
    const lines = reportCsv([row]).split('\r\n');
    expect(lines[0]).toBe(
      'Learner,Email,Boards,Course,Status,Progress (%),Enrolled at (UTC),Completed at (UTC),Last active (UTC day),Graded quiz attempts,Average score (%)',
    );
    expect(lines[1]).toBe(
      `"'=HYPERLINK(""http://evil.example"")",ada@example.com,Faculty of Arts; Faculty of Science,"Cells, tissues and ""organs""",completed,100,2026-11-01T09:00:00+00:00,,2026-11-20,2,87.5`,
    );
    expect(lines[2]).toBe('');
  });

  it('names the file after the day and the filter', () => {
    const day = new Date('2026-11-23T10:00:00Z');
    expect(reportFilename(day)).toBe('progress-report-2026-11-23.csv');
    expect(reportFilename(day, 'Cell Biology: Part 1')).toBe(
      'progress-report-cell-biology-part-1-2026-11-23.csv',
    );
  });
});
