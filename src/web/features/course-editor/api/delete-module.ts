/** Deletes a module with its lessons, bank questions and quizzes (the database cascades). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';

export interface DeleteModuleInput {
  userId: string;
  courseId: string;
  moduleId: string;
}

export async function deleteModule(input: DeleteModuleInput): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('modules')
    .delete()
    .eq('id', input.moduleId)
    .select('id');
  if (error) throw editorError(error);
  if ((data as unknown[]).length === 0) throw editorError({ message: 'gone', code: '42501' });
}

export function useDeleteModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteModule,
    onSuccess: (_data, input) =>
      queryClient.invalidateQueries({ queryKey: editorKeys.course(input.userId, input.courseId) }),
  });
}
