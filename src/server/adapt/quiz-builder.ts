/**
 * LE Adapt's quiz builder (decision 0517): a reviewer's edited quiz saved whole, in order, as
 * the caller through adapt.save_quiz (db/app 0823, which holds the rights and the version
 * check), and a grade preview that grades a typed answer exactly as the learning app will
 * grade the published question: the answer key for multiple choice, and for a gap or a short
 * answer the shared answer evaluator (`evaluateAnswer`, the path of coach-evaluate and
 * submit-quiz: a configured General-mode model first, the offline evaluator otherwise).
 */
import type { QuizGradePreview } from '../../common/adapt-quiz';
import type { AiProvider } from '../ai/provider';
import { evaluateAnswer } from '../coach/evaluate';
import type { Database, JwtClaims } from '../db/types';
import { AdaptError } from './adapt-jobs';
import type { AccessibleLesson, QuizQuestion, ReviewedLesson } from './lesson';
import { bankQuestionsOf } from './publish/bank-questions';

export type SavedQuiz = {
  job_id: string;
  questions: QuizQuestion[];
  version: number;
  edited_by: string | null;
  edited_at: string;
};

/** The database's refusals as answers a client can act on (the adapt function's codes). */
function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === '42501') throw new AdaptError(403, 'forbidden', message);
  if (code === 'P0002') throw new AdaptError(404, 'not_found', message);
  if (code === '55000') throw new AdaptError(409, 'conflict', message);
  if (code === '23514' || code === '22023') throw new AdaptError(400, 'invalid_quiz', message);
  throw error;
}

/** Saves the whole quiz (already checked by `quizSaveSchema`) over the version edited. */
export async function saveQuiz(
  db: Database,
  claims: JwtClaims,
  jobId: string,
  version: number,
  questions: QuizQuestion[],
): Promise<SavedQuiz> {
  const { rows } = await db
    .queryAsRole<SavedQuiz>(claims, 'select * from adapt.save_quiz($1, $2, $3::jsonb)', [
      jobId,
      version,
      JSON.stringify(questions),
    ])
    .catch(fromDatabase);
  return rows[0]!;
}

/** Back to the generated quiz. */
export async function resetQuiz(
  db: Database,
  claims: JwtClaims,
  jobId: string,
  version: number,
): Promise<void> {
  await db
    .queryAsRole(claims, 'select adapt.reset_quiz($1, $2)', [jobId, version])
    .catch(fromDatabase);
}

/** The edited quiz in place of the generated one, when a reviewer saved one. */
export function withEditedQuiz(
  lesson: AccessibleLesson,
  edited: QuizQuestion[] | null | undefined,
): AccessibleLesson {
  return edited ? { ...lesson, quiz: edited } : lesson;
}

/**
 * How the learning app would grade `answer` to `question` once published: the question goes
 * through the same mapping as publishing (`bankQuestionsOf`, so the evaluator sees the same
 * prompt, expected text and key points) and the same evaluator call as submit-quiz.
 */
export async function previewGrade(
  deps: { db: Database; ai: AiProvider },
  claims: JwtClaims,
  jobId: string,
  question: QuizQuestion,
  answer: { choice: string } | { text: string },
): Promise<QuizGradePreview> {
  // Read as the caller: a job they may not read is "no such job".
  const { rows } = await deps.db.queryAsRole<{ output: ReviewedLesson | null }>(
    claims,
    `select s.output
       from public.adapt_jobs j
       left join public.adapt_job_stages s on s.job_id = j.id and s.name = 'review' and s.status = 'done'
      where j.id = $1`,
    [jobId],
  );
  if (rows.length === 0) throw new AdaptError(404, 'not_found', 'There is no such job');
  const lesson = rows[0]!.output?.lesson;
  if (!lesson) {
    throw new AdaptError(409, 'conflict', 'Grades can be previewed once every stage is done');
  }
  const bank = bankQuestionsOf({ ...lesson, quiz: [question] })[0]!;
  if (bank.type === 'multiple_choice') {
    if (!('choice' in answer)) {
      throw new AdaptError(400, 'invalid_answer', 'Choose one of the options to preview a grade.');
    }
    const chosen = bank.choices.find((c) => c.id === answer.choice);
    if (!chosen) {
      throw new AdaptError(400, 'invalid_answer', 'That option is not one of the question’s.');
    }
    const correct = bank.choices.find((c) => c.id === bank.answer.choice)!;
    const right = chosen.id === correct.id;
    const misconception = bank.misconceptions.find((m) => m.choice === chosen.id);
    return {
      verdict: right ? 'correct' : 'incorrect',
      feedback: right
        ? `Correct: “${correct.text}” is the answer.`
        : (misconception?.feedback ?? `Not right: the answer is “${correct.text}”.`),
      missing: [],
      engine: null,
      gradedAs: 'multiple_choice',
    };
  }
  if (!('text' in answer)) {
    throw new AdaptError(400, 'invalid_answer', 'Type an answer to preview its grade.');
  }
  if (bank.type !== 'short_text') throw new Error(`unexpected bank type ${bank.type}`);
  const evaluation = await evaluateAnswer(
    {
      question: bank.prompt,
      referenceAnswer: bank.answer.text,
      keyPoints: bank.key_points,
      answer: answer.text,
    },
    { ai: deps.ai, route: 'general' },
  );
  return {
    verdict: evaluation.verdict,
    feedback: evaluation.feedback,
    missing: evaluation.missing,
    engine: { kind: evaluation.engine.kind, label: evaluation.engine.label },
    gradedAs: 'short_text',
  };
}
