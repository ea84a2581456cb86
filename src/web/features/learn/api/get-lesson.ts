/** One lesson's content and the user's progress in it; null when it is not theirs to read. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { LessonKind, LessonStatus } from './get-course';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export interface LessonDetail {
  id: string;
  courseId: string;
  title: string;
  kind: LessonKind;
  body: string | null;
  filePath: string | null;
  videoUrl: string | null;
  estimatedMinutes: number;
  progress: {
    status: LessonStatus;
    position: { scroll?: number } | null;
    timeSpentSeconds: number;
    completedAt: string | null;
  } | null;
}

interface LessonRow {
  id: string;
  course_id: string;
  title: string;
  kind: LessonKind;
  body: string | null;
  file_path: string | null;
  video_url: string | null;
  estimated_minutes: number;
}

interface ProgressRow {
  status: LessonStatus;
  position: { scroll?: number } | null;
  time_spent_seconds: number;
  completed_at: string | null;
}

export async function getLesson(
  userId: string,
  courseId: string,
  lessonId: string,
): Promise<LessonDetail | null> {
  const client = await getSupabase();
  const [lesson, progress] = await Promise.all([
    client
      .from('lessons')
      .select('id, course_id, title, kind, body, file_path, video_url, estimated_minutes')
      .eq('id', lessonId)
      .eq('course_id', courseId)
      .maybeSingle(),
    client
      .from('lesson_progress')
      .select('status, position, time_spent_seconds, completed_at')
      .eq('lesson_id', lessonId)
      .eq('user_id', userId)
      .maybeSingle(),
  ]);
  if (lesson.error) throw serviceError(lesson.error);
  if (progress.error) throw serviceError(progress.error);
  const row = lesson.data as LessonRow | null;
  if (!row) return null;
  const p = progress.data as ProgressRow | null;
  return {
    id: row.id,
    courseId: row.course_id,
    title: row.title,
    kind: row.kind,
    body: row.body,
    filePath: row.file_path,
    videoUrl: row.video_url,
    estimatedMinutes: row.estimated_minutes,
    progress: p
      ? {
          status: p.status,
          position: p.position,
          timeSpentSeconds: p.time_spent_seconds,
          completedAt: p.completed_at,
        }
      : null,
  };
}

export function useLesson(userId: string, courseId: string, lessonId: string) {
  return useQuery({
    queryKey: learnKeys.lesson(userId, lessonId),
    queryFn: () => getLesson(userId, courseId, lessonId),
    // Progress is written while reading; refetching would jump the reader's position.
    staleTime: Infinity,
  });
}
