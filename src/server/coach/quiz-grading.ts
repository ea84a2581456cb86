/**
 * A quiz submission with its short-text answers graded by the answer evaluator (decision 0223):
 * `submit_assessment_attempt` records the attempt under the learner's role and grades multiple
 * choice and numeric answers; each short answer left pending is then judged by
 * `evaluateAnswer` (the configured General-mode model when there is one, the offline engine
 * otherwise) and `learning.record_answer_evaluations` stores the verdict with its reason.
 *
 * A quiz set to "always graded by a person" (decision 0226) is never evaluated: its short
 * answers wait in the grading queue.
 *
 * The attempt is committed before anything is evaluated, so a failure while evaluating never
 * loses the learner's answers: the answers stay pending and wait for the instructor, as every
 * short answer did before.
 */
import { COACH_TEXT_MAX_BYTES } from '../../common/coach';
import type { AiProvider } from '../ai/provider';
import type { Database, JwtClaims } from '../db/types';
import type { Logger } from '../logger';
import { evaluateAnswer } from './evaluate';

/** One entry of `assessment_attempts.verdicts` (db/app 0532). */
export interface AttemptVerdict {
  question_id: string;
  verdict: 'correct' | 'partially_correct' | 'incorrect' | 'pending';
  feedback: string | null;
  graded_by?: 'evaluator' | 'instructor';
  evaluation?: { verdict: string; missing: string[]; feedback: string; engine: string };
}

/** The attempt as the REST API shows its row (to_jsonb: numbers, ISO times). */
export interface AttemptRow {
  id: string;
  status: 'awaiting_grading' | 'graded';
  score: number | null;
  answers: Record<string, unknown>;
  verdicts: AttemptVerdict[];
  [column: string]: unknown;
}

export class QuizAnswerError extends Error {
  readonly status = 400;
  readonly code = 'invalid_answer';
}

// Tabs and line breaks belong in an answer; other control characters do not (as in the coach).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Refuses text answers the evaluator would not read, before anything is written: over 8 KB or
 * with control characters. Other shapes are the submission procedure's to judge, which names
 * what a question's answer must look like.
 */
export function checkTextAnswers(answers: Record<string, unknown>): void {
  for (const [questionId, given] of Object.entries(answers)) {
    if (typeof given !== 'object' || given === null || !('text' in given)) continue;
    const text = (given as { text: unknown }).text;
    if (typeof text !== 'string') continue;
    if (new TextEncoder().encode(text).length > COACH_TEXT_MAX_BYTES) {
      throw new QuizAnswerError(
        `The answer to question ${questionId} is too long: at most ${COACH_TEXT_MAX_BYTES / 1024} KB.`,
      );
    }
    if (CONTROL_CHARACTERS.test(text)) {
      throw new QuizAnswerError(
        `The answer to question ${questionId} contains control characters; send plain text.`,
      );
    }
  }
}

type ShortQuestion = {
  id: string;
  prompt: string;
  reference: string;
  key_points: string[];
};

export interface GradingDeps {
  db: Database;
  ai: AiProvider;
  log: Logger;
}

/** Submits the caller's answers and grades the short-text ones with the evaluator. */
export async function submitQuizAttempt(
  deps: GradingDeps,
  claims: JwtClaims,
  input: { assessmentId: string; answers: Record<string, unknown> },
): Promise<AttemptRow> {
  checkTextAnswers(input.answers);
  const submitted = await deps.db.queryAsRole<{ attempt: AttemptRow }>(
    claims,
    'select to_jsonb(a) as attempt from public.submit_assessment_attempt($1, $2::jsonb) a',
    [input.assessmentId, JSON.stringify(input.answers)],
  );
  const attempt = submitted.rows[0]!.attempt;
  // A quiz its instructor has set to "always graded by a person" (decision 0226): its short
  // answers stay pending, in the grading queue. record_answer_evaluations refuses them too.
  const { rows: quiz } = await deps.db.query<{ graded_by_person: boolean }>(
    'select graded_by_person from public.assessments where id = $1',
    [input.assessmentId],
  );
  if (quiz[0]?.graded_by_person) return attempt;
  const pending = attempt.verdicts
    .filter((entry) => entry.verdict === 'pending')
    .map((entry) => entry.question_id);
  if (pending.length === 0) return attempt;

  try {
    const { rows: questions } = await deps.db.query<ShortQuestion>(
      `select q.id::text, q.prompt, q.answer ->> 'text' as reference,
              q.key_points as key_points
         from public.questions q
        where q.id = any($1::uuid[]) and q.type = 'short_text'`,
      [pending],
    );
    const evaluations: Record<string, unknown> = {};
    await Promise.all(
      questions.map(async (question) => {
        const given = input.answers[question.id] as { text: string };
        const evaluation = await evaluateAnswer(
          {
            question: question.prompt,
            referenceAnswer: question.reference,
            keyPoints: question.key_points,
            answer: given.text,
          },
          { ai: deps.ai, route: 'general' },
        );
        evaluations[question.id] = {
          verdict: evaluation.verdict,
          missing: evaluation.missing,
          feedback: evaluation.feedback,
          engine: evaluation.engine.label,
        };
      }),
    );
    const graded = await deps.db.query<{ attempt: AttemptRow }>(
      'select to_jsonb(a) as attempt from learning.record_answer_evaluations($1, $2::jsonb) a',
      [attempt.id, JSON.stringify(evaluations)],
    );
    return graded.rows[0]!.attempt;
  } catch (error) {
    // The attempt is saved; its short answers wait for the instructor instead.
    deps.log.error('short answers could not be evaluated', {
      attempt: attempt.id,
      error: error instanceof Error ? error.message : String(error),
    });
    return attempt;
  }
}
