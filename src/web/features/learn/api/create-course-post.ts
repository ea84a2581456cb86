/** Posts in a course's discussion: a new thread, or a reply to one. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export const postSchema = z.object({
  body: z
    .string()
    .trim()
    .min(1, 'Write something before posting.')
    .max(10_000, 'A post is limited to 10,000 characters.'),
});

export interface CreatePostInput {
  userId: string;
  courseId: string;
  parentId: string | null;
  body: string;
}

export async function createCoursePost(input: CreatePostInput): Promise<void> {
  const { body } = postSchema.parse({ body: input.body });
  const client = await getSupabase();
  const { error } = await client
    .from('course_posts')
    .insert({ course_id: input.courseId, parent_id: input.parentId, body });
  if (error) throw serviceError(error);
}

export function useCreateCoursePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCoursePost,
    onSuccess: (_data, input) =>
      queryClient.invalidateQueries({ queryKey: learnKeys.posts(input.userId, input.courseId) }),
  });
}
