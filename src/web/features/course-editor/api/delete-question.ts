/** Deletes a bank question; quizzes that drew it no longer ask it. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';

export interface DeleteQuestionInput {
  userId: string;
  courseId: string;
  questionId: string;
}

export async function deleteQuestion(input: DeleteQuestionInput): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('questions')
    .delete()
    .eq('id', input.questionId)
    .select('id');
  if (error) throw editorError(error);
  if ((data as unknown[]).length === 0) throw editorError({ message: 'gone', code: '42501' });
}

export function useDeleteQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteQuestion,
    onSuccess: (_data, input) => {
      queryClient.removeQueries({
        queryKey: editorKeys.question(input.userId, input.courseId, input.questionId),
      });
      return queryClient.invalidateQueries({
        queryKey: editorKeys.course(input.userId, input.courseId),
      });
    },
  });
}
