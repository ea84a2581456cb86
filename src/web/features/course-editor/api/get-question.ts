/** One bank question with every field, for its editor; `null` when it is not there. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { StoredQuestion } from '../question-schema';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';

export interface EditorQuestion {
  id: string;
  moduleId: string;
  slug: string;
  stored: StoredQuestion;
}

export async function getEditorQuestion(
  courseId: string,
  questionId: string,
): Promise<EditorQuestion | null> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('questions')
    .select(
      'id, module_id, slug, prompt, type, choices, answer, key_points, hints, worked_example, misconceptions, difficulty, prerequisite',
    )
    .eq('id', questionId)
    .eq('course_id', courseId)
    .maybeSingle();
  if (error) throw editorError(error);
  if (!data) return null;
  const row = data as StoredQuestion & { id: string; module_id: string; slug: string };
  return { id: row.id, moduleId: row.module_id, slug: row.slug, stored: row };
}

export function useEditorQuestion(userId: string, courseId: string, questionId: string) {
  return useQuery({
    queryKey: editorKeys.question(userId, courseId, questionId),
    queryFn: () => getEditorQuestion(courseId, questionId),
  });
}
