/**
 * Submits answers through the submit-quiz function: submit_assessment_attempt grades multiple
 * choice and numeric questions, and the answer evaluator grades short-text answers with a reason
 * (decision 0223). A second, late or unenrolled submission, or an answer the server will not
 * read, is refused with a message that is shown as it is.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { functionError } from '@/lib/subscription';
import { getSupabase } from '@/lib/supabase';
import { attemptFromRow, type QuizAttempt } from './get-quiz';
import { learnKeys } from './learn-keys';

export type QuizAnswer = { choice: string } | { value: number } | { text: string };

export interface SubmitQuizInput {
  userId: string;
  courseId: string;
  assessmentId: string;
  answers: Record<string, QuizAnswer>;
}

export async function submitQuiz(input: SubmitQuizInput): Promise<QuizAttempt> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke('submit-quiz', {
    body: { assessment_id: input.assessmentId, answers: input.answers },
  });
  if (error) throw await functionError(error);
  return attemptFromRow(data as Parameters<typeof attemptFromRow>[0]);
}

export function useSubmitQuiz() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitQuiz,
    onSettled: (_data, _error, input) =>
      Promise.all([
        queryClient.invalidateQueries({
          queryKey: learnKeys.quiz(input.userId, input.assessmentId),
        }),
        queryClient.invalidateQueries({ queryKey: learnKeys.course(input.userId, input.courseId) }),
        queryClient.invalidateQueries({
          queryKey: [...learnKeys.user(input.userId), 'recent-results'],
        }),
      ]),
  });
}
