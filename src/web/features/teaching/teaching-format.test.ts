import { describe, expect, it } from 'vitest';
import type { LearnerProgress } from './api/get-course-progress';
import { formatDuration, formatScore, progressCsv, progressFileName } from './teaching-format';

const row = (overrides: Partial<LearnerProgress>): LearnerProgress => ({
  userId: 'u1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  status: 'in_progress',
  lessonsCompleted: 3,
  lessonsTotal: 10,
  percent: 30,
  timeSpentSeconds: 3_900,
  lastActivity: '2026-11-20T09:30:00.000Z',
  averageScore: 72.5,
  awaitingGrading: 1,
  ...overrides,
});

describe('the progress export', () => {
  it('writes a header and one line per learner, quoting what must be quoted', () => {
    const csv = progressCsv([
      row({}),
      row({ name: 'Smith, "Jo"', email: 'jo@example.com', averageScore: null, lastActivity: null }),
      row({ name: 'Line\nbreak', status: 'not_started', timeSpentSeconds: 0 }),
    ]);
    expect(csv.split('\r\n')).toEqual([
      'Name,Email,Status,Lessons completed,Lessons total,Percent,Time spent (minutes),Last activity,Average quiz score,Attempts awaiting grading',
      'Ada Lovelace,ada@example.com,In progress,3,10,30,65,2026-11-20T09:30:00.000Z,72.5,1',
      '"Smith, ""Jo""",jo@example.com,In progress,3,10,30,65,,,1',
      '"Line\nbreak",ada@example.com,Not started,3,10,30,0,2026-11-20T09:30:00.000Z,72.5,1',
      '',
    ]);
  });

  it('keeps a name that starts like a formula from running in a spreadsheet', () => {
    const lines = progressCsv([
      row({ name: '=HYPERLINK("http://evil.example","x")' }),
      row({ name: '+1+1', email: '@sum(a1)' }),
      row({ name: '-2', email: '\tx@example.com' }),
    ]).split('\r\n');
    expect(lines[1]).toMatch(/^"'=HYPERLINK\(""http:\/\/evil\.example"",""x""\)",/);
    expect(lines[2]).toMatch(/^'\+1\+1,'@sum\(a1\),/);
    expect(lines[3]).toMatch(/^'-2,'\tx@example\.com,/);
  });

  it('names the file after the course and the day', () => {
    expect(progressFileName('Cell biology: the basics!', new Date('2026-11-23T10:00:00Z'))).toBe(
      'cell-biology-the-basics-progress-2026-11-23.csv',
    );
    expect(progressFileName('***', new Date('2026-11-23T10:00:00Z'))).toBe(
      'course-progress-2026-11-23.csv',
    );
  });
});

describe('durations and scores', () => {
  it('writes time spent the way a person reads it', () => {
    expect(formatDuration(0)).toBe('—');
    expect(formatDuration(30)).toBe('under a minute');
    expect(formatDuration(720)).toBe('12 min');
    expect(formatDuration(3_900)).toBe('1 h 05 min');
    expect(formatScore(null)).toBe('—');
    expect(formatScore(66.666)).toBe('66.7%');
  });
});
