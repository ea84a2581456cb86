/**
 * Saves a lesson (a new one goes last in its module). A PDF or ePub is uploaded first to the
 * private course-files bucket under the course's folder; if the lesson then cannot be saved,
 * the upload is removed again, and a replaced file is removed once the lesson points at the
 * new one, so no file is left that no lesson names. The library extracts the uploaded file's
 * text for search before the lesson is saved.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { EditorError, editorError, type ConstraintMessages } from './editor-error';
import { editorKeys } from './editor-keys';
import {
  fileKinds,
  formatBytes,
  lessonSchema,
  looksLike,
  objectPath,
  type LessonInput,
} from '../lesson-schema';

const constraints: ConstraintMessages = {
  lessons_title_check: { field: 'title', message: 'Give the lesson a title of 1–200 characters.' },
  lessons_estimated_minutes_check: {
    field: 'estimatedMinutes',
    message: 'A lesson takes between 1 and 600 minutes.',
  },
  lessons_body_check: {
    field: 'body',
    message: 'Markdown is limited to 1 MB. Split the text into two lessons.',
  },
  lessons_video_url_check: {
    field: 'videoUrl',
    message: 'Use an https:// address without spaces.',
  },
  lessons_file_path_check: { field: 'file', message: 'This file name cannot be stored.' },
  lessons_content_matches_kind: {
    field: 'form',
    message: 'The lesson’s content does not match its kind.',
  },
  lessons_position_unique: {
    field: 'form',
    message: 'Someone added a lesson to this module at the same moment. Save again.',
  },
};

export interface SaveLessonInput {
  userId: string;
  courseId: string;
  moduleId: string;
  lessonId?: string;
  /** The file the lesson names now, removed after a successful replacement. */
  previousFilePath: string | null;
  lesson: LessonInput;
}

async function upload(courseId: string, kind: keyof typeof fileKinds, file: File) {
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  if (!looksLike(kind, head)) {
    throw new EditorError(
      `This is not a ${fileKinds[kind].label} file, whatever its name says. Choose the ${fileKinds[kind].label} itself.`,
      'invalid_file',
      'file',
    );
  }
  const client = await getSupabase();
  const path = objectPath(courseId, file.name, crypto.randomUUID());
  const { error } = await client.storage.from('course-files').upload(path, file, {
    contentType: fileKinds[kind].types[0],
    upsert: false,
  });
  if (error) {
    const status = (error as { statusCode?: string | number }).statusCode;
    const message =
      String(status) === '413'
        ? `The server refused the file as too large (${formatBytes(file.size)}; the limit is 100 MB).`
        : `The file could not be uploaded: ${error.message}`;
    throw new EditorError(message, String(status ?? 'storage'), 'file');
  }
  // The library indexes the file's text now (decision 0151); a file it cannot read is removed
  // again and the lesson is not saved, so no lesson names a file without its text.
  const extracted = await client.functions.invoke('library/extract', { body: { path } });
  if (extracted.error) {
    await client.storage.from('course-files').remove([path]);
    const response = (extracted.error as { context?: Response }).context;
    const body = (await response?.json().catch(() => null)) as { message?: string } | null;
    throw new EditorError(
      body?.message ?? `The file could not be read: ${extracted.error.message}`,
      'invalid_file',
      'file',
    );
  }
  return path;
}

export async function saveLesson(
  input: SaveLessonInput,
): Promise<{ id: string; filePath: string | null }> {
  const lesson = lessonSchema.parse(input.lesson);
  const client = await getSupabase();
  let uploaded: string | null = null;
  let filePath: string | null = null;
  if (lesson.kind === 'pdf' || lesson.kind === 'epub') {
    if (lesson.file) uploaded = await upload(input.courseId, lesson.kind, lesson.file);
    filePath = uploaded ?? lesson.filePath;
  }
  const row = {
    title: lesson.title,
    kind: lesson.kind,
    estimated_minutes: lesson.estimatedMinutes,
    body: lesson.kind === 'markdown' ? lesson.body : null,
    video_url: lesson.kind === 'video' ? lesson.videoUrl : null,
    file_path: filePath,
  };
  try {
    if (input.lessonId) {
      const { data, error } = await client
        .from('lessons')
        .update(row)
        .eq('id', input.lessonId)
        .select('id')
        .maybeSingle();
      if (error) throw editorError(error, constraints, 'body');
      if (!data) throw editorError({ message: 'permission', code: '42501' });
    } else {
      const last = await client
        .from('lessons')
        .select('position')
        .eq('module_id', input.moduleId)
        .order('position', { ascending: false })
        .limit(1);
      if (last.error) throw editorError(last.error);
      const position = ((last.data as { position: number }[])[0]?.position ?? 0) + 1;
      const { data, error } = await client
        .from('lessons')
        .insert({ ...row, module_id: input.moduleId, course_id: input.courseId, position })
        .select('id')
        .single();
      if (error) throw editorError(error, constraints, 'body');
      input = { ...input, lessonId: (data as { id: string }).id };
    }
  } catch (error) {
    if (uploaded) await client.storage.from('course-files').remove([uploaded]);
    throw error;
  }
  if (input.previousFilePath && input.previousFilePath !== filePath) {
    // The lesson no longer names it; failing to remove it leaves an unused file, not a wrong lesson.
    await client.storage.from('course-files').remove([input.previousFilePath]);
  }
  return { id: input.lessonId!, filePath };
}

export function useSaveLesson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLesson,
    onSuccess: (_data, input) =>
      queryClient.invalidateQueries({ queryKey: editorKeys.course(input.userId, input.courseId) }),
  });
}
