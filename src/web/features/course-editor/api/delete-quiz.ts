/** Deletes a quiz with its students' attempts (the database cascades). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';

export interface DeleteQuizInput {
  userId: string;
  courseId: string;
  assessmentId: string;
}

export async function deleteQuiz(input: DeleteQuizInput): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('assessments')
    .delete()
    .eq('id', input.assessmentId)
    .select('id');
  if (error) throw editorError(error);
  if ((data as unknown[]).length === 0) throw editorError({ message: 'gone', code: '42501' });
}

export function useDeleteQuiz() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteQuiz,
    onSuccess: (_data, input) => {
      queryClient.removeQueries({
        queryKey: editorKeys.quiz(input.userId, input.courseId, input.assessmentId),
      });
      return queryClient.invalidateQueries({
        queryKey: editorKeys.course(input.userId, input.courseId),
      });
    },
  });
}
