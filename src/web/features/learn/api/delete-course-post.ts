/** Deletes one of the user's own posts (a thread takes its replies with it). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export interface DeletePostInput {
  userId: string;
  courseId: string;
  postId: string;
}

export async function deleteCoursePost({ userId, postId }: DeletePostInput): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('course_posts')
    .delete()
    .eq('id', postId)
    .eq('author_id', userId)
    .select('id');
  if (error) throw serviceError(error);
  if ((data as unknown[]).length === 0) {
    throw new Error('This post is already gone, or it is not yours to delete.');
  }
}

export function useDeleteCoursePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCoursePost,
    onSettled: (_data, _error, input) =>
      queryClient.invalidateQueries({ queryKey: learnKeys.posts(input.userId, input.courseId) }),
  });
}
