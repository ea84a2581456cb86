/** Deletes a lesson, then its file in course-files if it had one. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';

export interface DeleteLessonInput {
  userId: string;
  courseId: string;
  lessonId: string;
  filePath: string | null;
}

export async function deleteLesson(input: DeleteLessonInput): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('lessons')
    .delete()
    .eq('id', input.lessonId)
    .select('id');
  if (error) throw editorError(error);
  if ((data as unknown[]).length === 0) throw editorError({ message: 'gone', code: '42501' });
  if (input.filePath) await client.storage.from('course-files').remove([input.filePath]);
}

export function useDeleteLesson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLesson,
    onSuccess: (_data, input) => {
      queryClient.removeQueries({
        queryKey: editorKeys.lesson(input.userId, input.courseId, input.lessonId),
      });
      return queryClient.invalidateQueries({
        queryKey: editorKeys.outline(input.userId, input.courseId),
      });
    },
  });
}
