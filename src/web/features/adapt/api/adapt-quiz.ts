/**
 * The quiz builder's calls (decision 0517): the whole quiz saved over the version read, and a
 * grade preview of one question, both through /functions/v1/adapt. A save puts the saved quiz
 * straight into the job's cached row, so the list shows the new order before any refetch.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuizQuestion } from '@common/adapt-lesson';
import type { QuizGradePreview } from '@common/adapt-quiz';
import { getSupabase } from '@/lib/supabase';
import { adaptKeys, functionError, type AdaptJobDetail, type QuizReview } from './adapt-jobs';

async function invokeQuiz<T>(jobId: string, path: string, method: 'PUT' | 'POST', body: object) {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke<T>(`adapt/jobs/${jobId}/${path}`, {
    method,
    body,
  });
  if (error) throw await functionError(error);
  return data as T;
}

export function useSaveQuiz(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { version: number; questions: QuizQuestion[] }) =>
      invokeQuiz<QuizReview>(jobId, 'quiz', 'PUT', input),
    onSuccess: (saved) => {
      queryClient.setQueryData<AdaptJobDetail | null>(adaptKeys.job(jobId), (job) =>
        job ? { ...job, adapt_quiz_reviews: saved } : job,
      );
    },
    // Someone else's save (409) or an approval: read the job again.
    onError: () => queryClient.invalidateQueries({ queryKey: adaptKeys.job(jobId) }),
  });
}

export function useResetQuiz(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { version: number }) =>
      invokeQuiz<{ reset: true }>(jobId, 'quiz/reset', 'POST', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adaptKeys.job(jobId) }),
  });
}

export function usePreviewGrade(jobId: string) {
  return useMutation({
    mutationFn: (input: {
      question: QuizQuestion;
      answer: { choice: string } | { text: string };
    }) => invokeQuiz<QuizGradePreview>(jobId, 'quiz/preview', 'POST', input),
  });
}
