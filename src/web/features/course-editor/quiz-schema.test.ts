import { describe, expect, it } from 'vitest';
import { zodFieldErrors } from './editor-form';
import { localOf, quizFormSchema, quizFromDraft, type QuizDraft } from './quiz-schema';

const draft: QuizDraft = {
  title: 'Membranes check',
  instructions: '',
  published: true,
  gradedByPerson: false,
  maxAttempts: '2',
  dueAt: '',
  questionIds: ['q1'],
};

describe('quiz schema', () => {
  it('reads an empty closing time as a quiz that never closes', () => {
    expect(quizFormSchema.parse(quizFromDraft(draft))).toMatchObject({
      dueAt: null,
      maxAttempts: 2,
    });
  });

  it('reads a closing time in local time and shows it back the same', () => {
    const parsed = quizFormSchema.parse(quizFromDraft({ ...draft, dueAt: '2026-11-30T17:05' }));
    expect(localOf(parsed.dueAt)).toBe('2026-11-30T17:05');
  });

  it('refuses a published quiz without questions and attempts out of range', () => {
    const result = quizFormSchema.safeParse(
      quizFromDraft({ ...draft, questionIds: [], maxAttempts: '0', dueAt: 'soon' }),
    );
    expect(zodFieldErrors(result.error!)).toEqual({
      maxAttempts: 'Allow at least 1 attempt.',
      dueAt: 'Enter a date and time, or none.',
      questionIds: 'Choose at least one question before publishing the quiz.',
    });
  });
});
