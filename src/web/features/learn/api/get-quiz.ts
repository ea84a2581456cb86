/**
 * A module quiz as the learner takes it: the quiz, its questions without answers (from
 * get_assessment_questions) and the user's attempts so far, newest first.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export type QuestionType = 'multiple_choice' | 'numeric' | 'short_text';

export interface QuizQuestion {
  id: string;
  position: number;
  type: QuestionType;
  prompt: string;
  choices: { id: string; text: string }[] | null;
}

export type Verdict = 'correct' | 'partially_correct' | 'incorrect' | 'pending';

/** One answer's verdict; `graded_by` is absent for answers graded on submission by their key. */
export interface AnswerVerdict {
  question_id: string;
  verdict: Verdict;
  feedback: string | null;
  graded_by?: 'evaluator' | 'instructor';
  /** The answer evaluator's record (decision 0223); `engine` names the engine that judged. */
  evaluation?: { verdict: Verdict; engine: string };
}

export interface QuizAttempt {
  id: string;
  attemptNumber: number;
  status: 'awaiting_grading' | 'graded';
  score: number | null;
  answers: Record<string, { choice?: string; value?: number; text?: string }>;
  verdicts: AnswerVerdict[];
  feedback: string | null;
  submittedAt: string;
}

export interface Quiz {
  id: string;
  title: string;
  instructions: string;
  dueAt: string | null;
  maxAttempts: number;
  questions: QuizQuestion[];
  attempts: QuizAttempt[];
}

interface AttemptRow {
  id: string;
  attempt_number: number;
  status: QuizAttempt['status'];
  score: number | string | null;
  answers: QuizAttempt['answers'];
  verdicts: QuizAttempt['verdicts'];
  feedback: string | null;
  submitted_at: string;
}

export function attemptFromRow(row: AttemptRow): QuizAttempt {
  return {
    id: row.id,
    attemptNumber: row.attempt_number,
    status: row.status,
    score: row.score === null ? null : Number(row.score),
    answers: row.answers,
    verdicts: row.verdicts,
    feedback: row.feedback,
    submittedAt: row.submitted_at,
  };
}

export async function getQuiz(
  userId: string,
  courseId: string,
  assessmentId: string,
): Promise<Quiz | null> {
  const client = await getSupabase();
  const quiz = await client
    .from('assessments')
    .select('id, title, instructions, due_at, max_attempts')
    .eq('id', assessmentId)
    .eq('course_id', courseId)
    .eq('published', true)
    .maybeSingle();
  if (quiz.error) throw serviceError(quiz.error);
  if (!quiz.data) return null;
  const [questions, attempts] = await Promise.all([
    client.rpc('get_assessment_questions', { assessment_id: assessmentId }),
    client
      .from('assessment_attempts')
      .select('id, attempt_number, status, score, answers, verdicts, feedback, submitted_at')
      .eq('assessment_id', assessmentId)
      .eq('user_id', userId)
      .order('attempt_number', { ascending: false }),
  ]);
  if (questions.error) throw serviceError(questions.error);
  if (attempts.error) throw serviceError(attempts.error);
  const row = quiz.data as {
    id: string;
    title: string;
    instructions: string;
    due_at: string | null;
    max_attempts: number;
  };
  return {
    id: row.id,
    title: row.title,
    instructions: row.instructions,
    dueAt: row.due_at,
    maxAttempts: row.max_attempts,
    questions: (
      questions.data as {
        question_id: string;
        position: number;
        type: QuestionType;
        prompt: string;
        choices: QuizQuestion['choices'];
      }[]
    ).map((q) => ({
      id: q.question_id,
      position: q.position,
      type: q.type,
      prompt: q.prompt,
      choices: q.choices,
    })),
    attempts: (attempts.data as AttemptRow[]).map(attemptFromRow),
  };
}

export function useQuiz(userId: string, courseId: string, assessmentId: string) {
  return useQuery({
    queryKey: learnKeys.quiz(userId, assessmentId),
    queryFn: () => getQuiz(userId, courseId, assessmentId),
  });
}
