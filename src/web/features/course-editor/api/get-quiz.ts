/** One quiz with its questions in order, for its editor; `null` when it is not there. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';

export interface EditorQuiz {
  id: string;
  moduleId: string;
  title: string;
  instructions: string;
  published: boolean;
  gradedByPerson: boolean;
  maxAttempts: number;
  dueAt: string | null;
  questionIds: string[];
}

interface Row {
  id: string;
  module_id: string;
  title: string;
  instructions: string;
  published: boolean;
  graded_by_person: boolean;
  max_attempts: number;
  due_at: string | null;
}

export async function getEditorQuiz(
  courseId: string,
  assessmentId: string,
): Promise<EditorQuiz | null> {
  const client = await getSupabase();
  const [quiz, questions] = await Promise.all([
    client
      .from('assessments')
      .select(
        'id, module_id, title, instructions, published, graded_by_person, max_attempts, due_at',
      )
      .eq('id', assessmentId)
      .eq('course_id', courseId)
      .maybeSingle(),
    client
      .from('assessment_questions')
      .select('question_id')
      .eq('assessment_id', assessmentId)
      .order('position'),
  ]);
  if (quiz.error) throw editorError(quiz.error);
  if (questions.error) throw editorError(questions.error);
  if (!quiz.data) return null;
  const row = quiz.data as Row;
  return {
    id: row.id,
    moduleId: row.module_id,
    title: row.title,
    instructions: row.instructions,
    published: row.published,
    gradedByPerson: row.graded_by_person,
    maxAttempts: row.max_attempts,
    dueAt: row.due_at,
    questionIds: (questions.data as { question_id: string }[]).map((q) => q.question_id),
  };
}

export function useEditorQuiz(userId: string, courseId: string, assessmentId: string) {
  return useQuery({
    queryKey: editorKeys.quiz(userId, courseId, assessmentId),
    queryFn: () => getEditorQuiz(courseId, assessmentId),
  });
}
