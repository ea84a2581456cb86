/**
 * One lesson's content and the user's progress in it; null when it is not theirs to read.
 * Offline, the copy kept on this device (decision 0181), without progress.
 */
import { useQuery } from '@tanstack/react-query';
import { savedLesson } from '@/lib/offline/device-store';
import { getSupabase } from '@/lib/supabase';
import { isOnline } from '@/lib/use-online';
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
  /** Read from this device while offline: progress is neither shown nor recorded. */
  offline?: true;
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

async function keptLesson(userId: string, courseId: string, lessonId: string) {
  const saved = await savedLesson(userId, lessonId);
  if (!saved || saved.courseId !== courseId)
    throw new Error(
      'You are offline, and this lesson is not kept on this device. Make its course available offline (Offline study) when you are online.',
    );
  const { id, title, kind, body, filePath, videoUrl, estimatedMinutes } = saved;
  return {
    ...{ id, courseId, title, kind, body, filePath, videoUrl, estimatedMinutes },
    progress: null,
    offline: true as const,
  };
}

export async function getLesson(
  userId: string,
  courseId: string,
  lessonId: string,
): Promise<LessonDetail | null> {
  if (!isOnline()) return keptLesson(userId, courseId, lessonId);
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
    // Offline the kept copy answers, so the query runs without a network.
    networkMode: 'always',
    retry: (failures) => isOnline() && failures < 1,
    // Progress is written while reading; refetching would jump the reader's position. A copy
    // read offline is replaced by the server's as soon as the connection returns.
    staleTime: (query) => (query.state.data?.offline ? 0 : Infinity),
  });
}
