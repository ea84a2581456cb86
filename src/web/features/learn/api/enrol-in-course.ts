/** Enrols the user in a course of the catalogue (row-level security checks that they may). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export interface EnrolInput {
  userId: string;
  courseId: string;
}

export async function enrolInCourse({ userId, courseId }: EnrolInput): Promise<void> {
  const client = await getSupabase();
  const { error } = await client
    .from('enrollments')
    .insert({ user_id: userId, course_id: courseId });
  if (!error) return;
  if (error.code === '23505') throw new Error('You are already enrolled in this course.');
  if (error.code === '42501') throw new Error('This course is not open for you to enrol in.');
  throw serviceError(error);
}

export function useEnrolInCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrolInCourse,
    onSuccess: (_data, { userId }) =>
      queryClient.invalidateQueries({ queryKey: learnKeys.user(userId) }),
  });
}
