/**
 * Grading: the queue of attempts awaiting grading in the courses one teaches (oldest first), or
 * of attempts the answer evaluator graded that no instructor has reviewed (newest first); one
 * attempt opened with its questions, reference answers, key points and the evaluator's
 * verdicts; and the grading itself through grade_assessment_attempt, which takes a verdict for
 * each pending answer and overrides of the evaluator's verdicts (decision 0223), and refuses
 * to grade again what a person graded.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { serviceError, teachingKeys } from './teaching-keys';

export const QUEUE_PAGE_SIZE = 20;

export interface QueuedAttempt {
  attemptId: string;
  courseId: string;
  courseTitle: string;
  assessmentTitle: string;
  learnerName: string;
  learnerEmail: string;
  attemptNumber: number;
  submittedAt: string;
  pending: number;
}

interface QueueRow {
  attempt_id: string;
  course_id: string;
  course_title: string;
  assessment_title: string;
  full_name: string;
  email: string;
  attempt_number: number;
  submitted_at: string;
  pending: number;
  total_count: number;
}

/** `awaiting`: answers waiting for a person; `evaluated`: graded by the evaluator, to review. */
export type QueueKind = 'awaiting' | 'evaluated';

export async function getGradingQueue(
  organization: string | null,
  page: number,
  kind: QueueKind = 'awaiting',
): Promise<{ attempts: QueuedAttempt[]; total: number }> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('grading_queue', {
    organization,
    row_limit: QUEUE_PAGE_SIZE,
    row_offset: page * QUEUE_PAGE_SIZE,
    evaluated: kind === 'evaluated',
  });
  if (error) throw serviceError(error);
  const rows = data as QueueRow[];
  return {
    total: rows[0]?.total_count ?? 0,
    attempts: rows.map((row) => ({
      attemptId: row.attempt_id,
      courseId: row.course_id,
      courseTitle: row.course_title,
      assessmentTitle: row.assessment_title,
      learnerName: row.full_name,
      learnerEmail: row.email,
      attemptNumber: row.attempt_number,
      submittedAt: row.submitted_at,
      pending: row.pending,
    })),
  };
}

export function useGradingQueue(
  userId: string,
  organization: string | null,
  page: number,
  kind: QueueKind = 'awaiting',
) {
  return useQuery({
    queryKey: [...teachingKeys.queue(userId, organization ?? 'personal', page), kind],
    queryFn: () => getGradingQueue(organization, page, kind),
  });
}

export type Verdict = 'correct' | 'partially_correct' | 'incorrect' | 'pending';
/** A verdict a person gives. */
export type GivenVerdict = Exclude<Verdict, 'pending'>;

/** The answer evaluator's record of an answer it graded. */
export interface Evaluation {
  verdict: GivenVerdict;
  missing: string[];
  feedback: string;
  engine: string;
}

export interface GradingQuestion {
  id: string;
  /** Null when the question has since been deleted from the bank. */
  type: 'multiple_choice' | 'numeric' | 'short_text' | null;
  prompt: string | null;
  choices: { id: string; text: string }[] | null;
  answer: {
    choice?: string;
    value?: number;
    tolerance?: number;
    unit?: string;
    text?: string;
  } | null;
  keyPoints: string[];
  given: { choice?: string; value?: number; text?: string } | null;
  verdict: Verdict;
  feedback: string | null;
  /** Absent for answers graded on submission by their key (and by hand before 0532). */
  gradedBy: 'evaluator' | 'instructor' | null;
  evaluation: Evaluation | null;
}

export interface AttemptForGrading {
  id: string;
  status: 'awaiting_grading' | 'graded';
  attemptNumber: number;
  submittedAt: string;
  score: number | null;
  feedback: string | null;
  course: { id: string; title: string };
  assessment: { id: string; title: string };
  learner: { id: string; name: string; email: string };
  questions: GradingQuestion[];
}

interface AttemptJson {
  id: string;
  status: AttemptForGrading['status'];
  attempt_number: number;
  submitted_at: string;
  score: number | null;
  feedback: string | null;
  course: { id: string; title: string };
  assessment: { id: string; title: string };
  learner: { id: string; full_name: string; email: string };
  questions: {
    id: string;
    type: GradingQuestion['type'];
    prompt: string | null;
    choices: GradingQuestion['choices'];
    answer: GradingQuestion['answer'];
    key_points: string[] | null;
    given: GradingQuestion['given'];
    verdict: Verdict;
    feedback: string | null;
    graded_by: 'evaluator' | 'instructor' | null;
    evaluation: Evaluation | null;
  }[];
}

export async function getAttemptForGrading(attemptId: string): Promise<AttemptForGrading> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('get_attempt_for_grading', { attempt_id: attemptId });
  if (error) throw serviceError(error);
  const row = data as AttemptJson;
  return {
    id: row.id,
    status: row.status,
    attemptNumber: row.attempt_number,
    submittedAt: row.submitted_at,
    score: row.score === null ? null : Number(row.score),
    feedback: row.feedback,
    course: row.course,
    assessment: row.assessment,
    learner: { id: row.learner.id, name: row.learner.full_name, email: row.learner.email },
    questions: row.questions.map((q) => ({
      id: q.id,
      type: q.type,
      prompt: q.prompt,
      choices: q.choices,
      answer: q.answer,
      keyPoints: q.key_points ?? [],
      given: q.given,
      verdict: q.verdict,
      feedback: q.feedback,
      gradedBy: q.graded_by ?? null,
      evaluation: q.evaluation ?? null,
    })),
  };
}

export function useAttemptForGrading(userId: string, attemptId: string) {
  return useQuery({
    queryKey: teachingKeys.attempt(userId, attemptId),
    queryFn: () => getAttemptForGrading(attemptId),
    retry: false,
  });
}

const givenVerdict = z.enum(['correct', 'partially_correct', 'incorrect']);

/**
 * The grading form: a verdict for every answer that awaits one, optionally a different verdict
 * for answers the evaluator graded, and optional feedback.
 */
export function gradingSchema(pendingIds: readonly string[]) {
  return z.object({
    verdicts: z.record(z.string(), givenVerdict).superRefine((verdicts, ctx) => {
      for (const id of pendingIds) {
        if (!verdicts[id]) {
          ctx.addIssue({
            code: 'custom',
            path: [id],
            message: 'Mark this answer correct, partly correct or incorrect.',
          });
        }
      }
    }),
    feedback: z.string().trim().max(10_000, 'Feedback is limited to 10,000 characters.'),
  });
}
export type GradingForm = z.input<ReturnType<typeof gradingSchema>>;

export interface GradeAttemptInput {
  userId: string;
  attemptId: string;
  pendingIds: string[];
  form: GradingForm;
}

/** Sends the pending answers' verdicts and the overrides (verdicts of evaluated answers). */
export async function gradeAttempt(input: GradeAttemptInput): Promise<{ score: number | null }> {
  const parsed = gradingSchema(input.pendingIds).parse(input.form);
  const client = await getSupabase();
  const { data, error } = await client.rpc('grade_assessment_attempt', {
    attempt_id: input.attemptId,
    verdicts: parsed.verdicts,
    feedback: parsed.feedback || null,
  });
  if (error) throw serviceError(error);
  const score = (data as { score: number | string | null }).score;
  return { score: score === null ? null : Number(score) };
}

export function useGradeAttempt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: gradeAttempt,
    // The attempt, the queue and the courses' and progress tables' counts all change.
    onSettled: (_data, _error, input) =>
      queryClient.invalidateQueries({ queryKey: teachingKeys.user(input.userId) }),
  });
}
