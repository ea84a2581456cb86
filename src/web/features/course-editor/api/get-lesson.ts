/** One lesson as its editor needs it, with its module's title; `null` when it is not there. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';
import type { LessonKind } from './get-course-outline';

export interface EditorLessonDetail {
  id: string;
  moduleId: string;
  moduleTitle: string;
  title: string;
  kind: LessonKind;
  body: string | null;
  filePath: string | null;
  videoUrl: string | null;
  estimatedMinutes: number;
}

interface Row {
  id: string;
  module_id: string;
  title: string;
  kind: LessonKind;
  body: string | null;
  file_path: string | null;
  video_url: string | null;
  estimated_minutes: number;
  module: { title: string } | null;
}

export async function getEditorLesson(
  courseId: string,
  lessonId: string,
): Promise<EditorLessonDetail | null> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('lessons')
    .select(
      'id, module_id, title, kind, body, file_path, video_url, estimated_minutes, module:modules(title)',
    )
    .eq('id', lessonId)
    .eq('course_id', courseId)
    .maybeSingle();
  if (error) throw editorError(error);
  if (!data) return null;
  const row = data as unknown as Row;
  return {
    id: row.id,
    moduleId: row.module_id,
    moduleTitle: row.module?.title ?? '',
    title: row.title,
    kind: row.kind,
    body: row.body,
    filePath: row.file_path,
    videoUrl: row.video_url,
    estimatedMinutes: row.estimated_minutes,
  };
}

export function useEditorLesson(userId: string, courseId: string, lessonId: string) {
  return useQuery({
    queryKey: editorKeys.lesson(userId, courseId, lessonId),
    queryFn: () => getEditorLesson(courseId, lessonId),
  });
}
