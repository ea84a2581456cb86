/** Words for the progress screen: badges, goal kinds and how XP is earned (decision 0171). */
import type { GoalKind } from './api/get-goals';

export const badgeTexts: Record<string, { name: string; how: string }> = {
  first_lesson: { name: 'First steps', how: 'Complete a lesson.' },
  ten_lessons: { name: 'Ten lessons', how: 'Complete ten lessons.' },
  first_quiz: { name: 'Quiz passed', how: 'Pass a quiz (60 % or more).' },
  perfect_score: { name: 'Perfect score', how: 'Score 100 % on a quiz.' },
  hundred_cards: {
    name: 'Hundred cards',
    how: 'Review 100 flashcards (counting XP-earning reviews).',
  },
  first_goal: { name: 'Goal getter', how: 'Meet a goal.' },
  streak_7: { name: 'Week streak', how: 'Study 7 days in a row.' },
  streak_30: { name: 'Month streak', how: 'Study 30 days in a row.' },
  level_5: { name: 'Level 5', how: 'Reach level 5 (1,000 XP).' },
  level_10: { name: 'Level 10', how: 'Reach level 10 (4,500 XP).' },
};

export const xpRules = [
  '10 XP the first time you complete each lesson.',
  'Half your score in XP (30–50) the first time you pass a quiz with 60 % or more.',
  '1 XP per flashcard reviewed, up to 50 a day.',
  '25 XP when a goal reaches 100 % — once per goal, or once per day or week for recurring goals, and only by its date.',
];

export const levelRule =
  'Level L starts at 50 × L × (L − 1) XP: level 2 at 100 XP, 3 at 300, 4 at 600, 5 at 1,000.';

export const streakRule =
  'A day counts when you complete a lesson, pass a quiz, review cards, meet a goal or spend study time in a lesson, by the calendar of your time zone (Settings). Every 7th day in a row earns a streak freeze (you can hold 2); a day without study uses one, and without a freeze the streak starts again. Today counts as soon as you study.';

export const goalKindLabels: Record<GoalKind, string> = {
  complete_course: 'Complete a course',
  complete_module: 'Finish a module',
  reach_score: 'Reach a quiz score',
  review_cards_daily: 'Review cards every day',
  study_minutes_weekly: 'Study minutes every week',
  custom: 'Your own goal',
};

/** "3 of 5 lessons", "45 of 60 minutes this week", … */
export function goalMeasure(kind: GoalKind, current: number, target: number): string {
  switch (kind) {
    case 'complete_course':
    case 'complete_module':
      return `${current} of ${target} lessons`;
    case 'reach_score':
      return `best score ${current} % of ${target} %`;
    case 'review_cards_daily':
      return `${current} of ${target} cards today`;
    case 'study_minutes_weekly':
      return `${current} of ${target} minutes this week`;
    default:
      return current >= target ? 'done' : 'not done yet';
  }
}
