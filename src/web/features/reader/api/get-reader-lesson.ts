/**
 * What a reader needs to open a lesson's file: the lesson (its kind and file), where the
 * learner was (`lesson_progress.position`, saved by any device) and a short-lived address of
 * the file in the private course-files bucket. Null when the lesson is not the user's to read.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { takeEarlyLesson } from '../early-open';
import { readerKeys } from './reader-keys';

/** Long enough for the reader to fetch a large file in ranges while it is open. */
const LINK_SECONDS = 3600;

export type ReaderKind = 'pdf' | 'epub';

export interface ReaderLesson {
  id: string;
  courseId: string;
  title: string;
  kind: 'markdown' | 'pdf' | 'epub' | 'video';
  filePath: string | null;
  /** The saved position: an object whose keys each surface owns (`page`, `cfi`, `scroll`). */
  position: Record<string, unknown> | null;
}

interface LessonRow {
  id: string;
  course_id: string;
  title: string;
  kind: ReaderLesson['kind'];
  file_path: string | null;
}

export async function getReaderLesson(
  userId: string,
  courseId: string,
  lessonId: string,
): Promise<ReaderLesson | null> {
  const client = await getSupabase();
  const [lesson, progress] = await Promise.all([
    client
      .from('lessons')
      .select('id, course_id, title, kind, file_path')
      .eq('id', lessonId)
      .eq('course_id', courseId)
      .maybeSingle(),
    client
      .from('lesson_progress')
      .select('position')
      .eq('lesson_id', lessonId)
      .eq('user_id', userId)
      .maybeSingle(),
  ]);
  if (lesson.error) throw new Error(lesson.error.message);
  if (progress.error) throw new Error(progress.error.message);
  const row = lesson.data as LessonRow | null;
  if (!row) return null;
  const position = (progress.data as { position: unknown } | null)?.position;
  return {
    id: row.id,
    courseId: row.course_id,
    title: row.title,
    kind: row.kind,
    filePath: row.file_path,
    position:
      position && typeof position === 'object' && !Array.isArray(position)
        ? (position as Record<string, unknown>)
        : null,
  };
}

export function useReaderLesson(userId: string, courseId: string, lessonId: string) {
  return useQuery({
    queryKey: readerKeys.lesson(userId, lessonId),
    queryFn: () => takeEarlyLesson(userId, lessonId) ?? getReaderLesson(userId, courseId, lessonId),
    // The position is read once, when the reader opens; refetching would move the reader.
    staleTime: Infinity,
    gcTime: 0,
  });
}

export async function getReaderFileUrl(path: string): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client.storage
    .from('course-files')
    .createSignedUrl(path, LINK_SECONDS);
  if (error) throw new Error(error.message);
  return data.signedUrl;
}
