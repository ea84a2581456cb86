/**
 * The coach's wire shapes and the checks on a learner's text, shared by the server functions
 * (`coach-evaluate`, `ai-study-chat`) and the web app, so a refusal reads the same everywhere.
 */
import { z } from 'zod';

/** Largest learner text the coach reads, in UTF-8 bytes. */
export const COACH_TEXT_MAX_BYTES = 8 * 1024;

// Tabs and line breaks are ordinary in an answer; every other C0/C1 control character is not.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * A learner's (or a question's) text: not empty, at most 8 KB, no control characters. Each
 * refusal names the field and says what to do.
 */
export function coachText(field: string) {
  return z
    .string({ error: `${field} must be text.` })
    .refine((text) => text.trim().length > 0, {
      message: `${field} is empty: write something first.`,
    })
    .refine((text) => new TextEncoder().encode(text).length <= COACH_TEXT_MAX_BYTES, {
      message: `${field} is too long: at most ${COACH_TEXT_MAX_BYTES / 1024} KB.`,
    })
    .refine((text) => !CONTROL_CHARACTERS.test(text), {
      message: `${field} contains control characters; send plain text.`,
    });
}

export const coachEvaluateRequestSchema = z.object({
  question: coachText('question'),
  reference_answer: coachText('reference_answer'),
  key_points: z
    .array(coachText('key_points item'))
    .max(20, 'key_points: at most 20 points.')
    .optional(),
  answer: coachText('answer'),
});
export type CoachEvaluateRequest = z.infer<typeof coachEvaluateRequestSchema>;

export const verdictSchema = z.enum(['correct', 'partially_correct', 'incorrect']);
export type Verdict = z.infer<typeof verdictSchema>;

export const evaluationSchema = z.object({
  verdict: verdictSchema,
  missing: z.array(z.string()),
  feedback: z.string(),
});
export type Evaluation = z.infer<typeof evaluationSchema>;

/**
 * POST /functions/v1/submit-quiz: the learner's answers, `{ "<question id>": { choice } |
 * { value } | { text } }` as `submit_assessment_attempt` takes them; short-text answers are
 * graded by the answer evaluator on the way (decision 0223).
 */
export const quizSubmissionSchema = z.object({
  assessment_id: z.uuid({ error: 'assessment_id must be a quiz id (a UUID).' }),
  answers: z.record(z.string(), z.unknown(), {
    error: 'answers must be an object keyed by question id.',
  }),
});
export type QuizSubmission = z.infer<typeof quizSubmissionSchema>;
