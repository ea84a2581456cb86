/**
 * The quiz form's rules: every question answered, numbers that are numbers. Returns the
 * answers in the shape submit_assessment_attempt takes, or a message per question.
 */
import { z } from 'zod';
import type { QuizQuestion } from './api/get-quiz';
import type { QuizAnswer } from './api/submit-quiz';

export type QuizDraft = Record<string, string>;

const numberText = z
  .string()
  .trim()
  .min(1, 'Enter a number.')
  .transform((text) => text.replace(/\s/g, '').replace(',', '.'))
  .refine(
    (text) => /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text),
    'Enter a number, such as 12 or 0.5.',
  )
  .transform(Number)
  .refine(Number.isFinite, 'Enter a number, such as 12 or 0.5.');

function schemaFor(question: QuizQuestion) {
  switch (question.type) {
    case 'multiple_choice': {
      const ids = (question.choices ?? []).map((c) => c.id);
      return z
        .string({ error: 'Choose one of the answers.' })
        .refine((value) => ids.includes(value), 'Choose one of the answers.')
        .transform((choice): QuizAnswer => ({ choice }));
    }
    case 'numeric':
      return numberText.transform((value): QuizAnswer => ({ value }));
    case 'short_text':
      return z
        .string({ error: 'Write your answer.' })
        .trim()
        .min(1, 'Write your answer.')
        .max(5000, 'Keep your answer under 5,000 characters.')
        .transform((text): QuizAnswer => ({ text }));
  }
}

export function parseQuizDraft(
  questions: readonly QuizQuestion[],
  draft: QuizDraft,
):
  | { ok: true; answers: Record<string, QuizAnswer> }
  | { ok: false; errors: Record<string, string> } {
  const answers: Record<string, QuizAnswer> = {};
  const errors: Record<string, string> = {};
  for (const question of questions) {
    const result = schemaFor(question).safeParse(draft[question.id] ?? '');
    if (result.success) answers[question.id] = result.data;
    else errors[question.id] = result.error.issues[0]?.message ?? 'Check this answer.';
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, answers };
}
