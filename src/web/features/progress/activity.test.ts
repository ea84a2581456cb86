import { describe, expect, it } from 'vitest';
import {
  activityCsvRows,
  lessonsByWeek,
  minutesByWeekAndCourse,
  retentionByWeek,
  weekOf,
} from './activity';

describe('activity grouping', () => {
  it('puts a date in the week that starts on its Monday', () => {
    expect(weekOf('2026-11-23')).toBe('2026-11-23'); // a Monday
    expect(weekOf('2026-11-29')).toBe('2026-11-23'); // the Sunday after
    expect(weekOf('2026-11-22T23:59:00Z')).toBe('2026-11-16');
    expect(weekOf('2027-01-01')).toBe('2026-12-28'); // across a year
  });

  it('adds study time per week and course, in whole minutes', () => {
    expect(
      minutesByWeekAndCourse([
        { day: '2026-11-23', courseTitle: 'Biology', seconds: 90 },
        { day: '2026-11-25', courseTitle: 'Biology', seconds: 60 },
        { day: '2026-11-24', courseTitle: 'Algebra', seconds: 600 },
        { day: '2026-11-16', courseTitle: 'Biology', seconds: 30 },
      ]),
    ).toEqual([
      { week: '2026-11-16', course: 'Biology', minutes: 1 },
      { week: '2026-11-23', course: 'Algebra', minutes: 10 },
      { week: '2026-11-23', course: 'Biology', minutes: 3 },
    ]);
  });

  it('counts lessons per week', () => {
    expect(
      lessonsByWeek([
        { completedAt: '2026-11-24T10:00:00Z', courseTitle: 'B', lessonTitle: 'x' },
        { completedAt: '2026-11-26T10:00:00Z', courseTitle: 'B', lessonTitle: 'y' },
      ]),
    ).toEqual([{ week: '2026-11-23', lessons: 2 }]);
  });

  it('measures retention on learned cards only, recalled when rated Hard or better', () => {
    expect(
      retentionByWeek([
        { reviewedAt: '2026-11-23T08:00:00Z', rating: 3, stateBefore: 0 },
        { reviewedAt: '2026-11-23T09:00:00Z', rating: 1, stateBefore: 2 },
        { reviewedAt: '2026-11-24T09:00:00Z', rating: 2, stateBefore: 2 },
        { reviewedAt: '2026-11-24T09:05:00Z', rating: 4, stateBefore: 2 },
        { reviewedAt: '2026-11-17T09:00:00Z', rating: 3, stateBefore: 1 },
      ]),
    ).toEqual([
      { week: '2026-11-16', reviews: 1, matureReviews: 0, recalled: 0, retention: null },
      { week: '2026-11-23', reviews: 4, matureReviews: 3, recalled: 2, retention: 67 },
    ]);
  });

  it('lists every event in date order for the CSV', () => {
    const rows = activityCsvRows({
      studyTime: [{ day: '2026-11-24', courseTitle: 'Biology', seconds: 120 }],
      lessons: [
        { completedAt: '2026-11-23T10:00:00Z', courseTitle: 'Biology', lessonTitle: 'Lungs' },
      ],
      quizzes: [
        { submittedAt: '2026-11-25T10:00:00Z', quizTitle: 'Q1', courseTitle: 'Biology', score: 80 },
      ],
      reviews: [],
    });
    expect(rows.map((r) => [r[0], r[1], r[4]])).toEqual([
      ['2026-11-23', 'lesson completed', 1],
      ['2026-11-24', 'study time', 2],
      ['2026-11-25', 'quiz graded', 80],
    ]);
  });
});
