/** A quiz's settings and questions as the form checks them (the database checks them again). */
import { z } from 'zod';

export const quizSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Give the quiz a title.')
    .max(200, 'A title is limited to 200 characters.'),
  instructions: z.string().trim().max(5000, 'Instructions are limited to 5,000 characters.'),
  published: z.boolean(),
  /** Short-text answers go to the grading queue, never to the answer evaluator (decision 0226). */
  gradedByPerson: z.boolean(),
  maxAttempts: z
    .number({ error: 'Enter the attempts as a whole number.' })
    .int('Enter the attempts as a whole number.')
    .min(1, 'Allow at least 1 attempt.')
    .max(20, 'Allow at most 20 attempts.'),
  /** An ISO instant, or null for a quiz that never closes. */
  dueAt: z.string().nullable(),
  questionIds: z.array(z.string()).max(100, 'A quiz draws at most 100 questions.'),
});

export type QuizInput = z.infer<typeof quizSchema>;

export interface QuizDraft {
  title: string;
  instructions: string;
  published: boolean;
  gradedByPerson: boolean;
  maxAttempts: string;
  /** As a datetime-local input holds it: `2026-11-30T17:00`, local time, or ''. */
  dueAt: string;
  questionIds: string[];
}

/** A datetime-local value as an ISO instant; null for '' and for text that is not a date. */
function instantOf(local: string): string | null | undefined {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** An ISO instant as a datetime-local value in the browser's time zone. */
export function localOf(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}

export function quizFromDraft(draft: QuizDraft): unknown {
  const dueAt = instantOf(draft.dueAt);
  return {
    title: draft.title,
    instructions: draft.instructions,
    published: draft.published,
    gradedByPerson: draft.gradedByPerson,
    maxAttempts: draft.maxAttempts.trim() === '' ? NaN : Number(draft.maxAttempts),
    dueAt: dueAt === undefined ? 'invalid' : dueAt,
    questionIds: draft.questionIds,
  };
}

/** The schema plus the rules that need the form: a readable date, questions for a published quiz. */
export const quizFormSchema = quizSchema.superRefine((quiz, ctx) => {
  if (quiz.dueAt === 'invalid') {
    ctx.addIssue({ code: 'custom', path: ['dueAt'], message: 'Enter a date and time, or none.' });
  }
  if (quiz.published && quiz.questionIds.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['questionIds'],
      message: 'Choose at least one question before publishing the quiz.',
    });
  }
});
