/** The lesson the user last worked on and has not finished, among the given courses. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export interface ContinueLesson {
  lessonId: string;
  courseId: string;
  title: string;
  updatedAt: string;
}

interface ProgressRow {
  lesson_id: string;
  course_id: string;
  updated_at: string;
  lesson: { title: string } | null;
}

export async function getContinueLesson(
  userId: string,
  courseIds: readonly string[],
): Promise<ContinueLesson | null> {
  if (courseIds.length === 0) return null;
  const client = await getSupabase();
  const { data, error } = await client
    .from('lesson_progress')
    .select('lesson_id, course_id, updated_at, lesson:lessons(title)')
    .eq('user_id', userId)
    .eq('status', 'in_progress')
    .in('course_id', courseIds)
    .order('updated_at', { ascending: false })
    .limit(1);
  if (error) throw serviceError(error);
  const row = (data as unknown as ProgressRow[])[0];
  if (!row) return null;
  return {
    lessonId: row.lesson_id,
    courseId: row.course_id,
    title: row.lesson?.title ?? 'Your last lesson',
    updatedAt: row.updated_at,
  };
}

export function useContinueLesson(userId: string, workspace: string, courseIds: string[]) {
  return useQuery({
    queryKey: [...learnKeys.continueLesson(userId, workspace), courseIds.join(',')],
    queryFn: () => getContinueLesson(userId, courseIds),
  });
}
