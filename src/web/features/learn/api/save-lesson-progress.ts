/**
 * Records where the user is in a lesson: status, reading position (a scroll fraction) and the
 * time spent, one row per user and lesson. Completing a lesson moves the enrolment's progress
 * (a database trigger), so the course and dashboard reads are refreshed.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { LessonStatus } from './get-course';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export interface LessonProgressInput {
  userId: string;
  courseId: string;
  lessonId: string;
  status: Exclude<LessonStatus, 'not_started'>;
  scroll: number;
  timeSpentSeconds: number;
  /** When the lesson was first completed (kept when it is saved again). */
  completedAt: string | null;
}

export async function saveLessonProgress(input: LessonProgressInput): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.from('lesson_progress').upsert(
    {
      lesson_id: input.lessonId,
      course_id: input.courseId,
      status: input.status,
      position: { scroll: Math.min(1, Math.max(0, Math.round(input.scroll * 1000) / 1000)) },
      time_spent_seconds: Math.min(31_536_000, Math.max(0, Math.round(input.timeSpentSeconds))),
      completed_at:
        input.status === 'completed' ? (input.completedAt ?? new Date().toISOString()) : null,
    },
    { onConflict: 'user_id,lesson_id' },
  );
  if (error) throw serviceError(error);
}

export function useSaveLessonProgress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLessonProgress,
    onSuccess: (_data, input) => {
      if (input.status !== 'completed') return;
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: learnKeys.course(input.userId, input.courseId) }),
        queryClient.invalidateQueries({ queryKey: learnKeys.lesson(input.userId, input.lessonId) }),
        queryClient.invalidateQueries({
          queryKey: [...learnKeys.user(input.userId), 'enrolments'],
        }),
      ]);
    },
  });
}
