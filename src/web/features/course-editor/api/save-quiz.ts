/**
 * Saves a quiz's settings, then the questions it draws through set_assessment_questions (one
 * statement, so the list is never half-replaced), then whether it is published: a new quiz is
 * created unpublished and published only once its questions are set, so students never meet
 * an empty quiz.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { quizFormSchema, type QuizInput } from '../quiz-schema';
import { EditorError, editorError, type ConstraintMessages } from './editor-error';
import { editorKeys } from './editor-keys';

const constraints: ConstraintMessages = {
  assessments_title_check: {
    field: 'title',
    message: 'Give the quiz a title of 1–200 characters.',
  },
  assessments_instructions_check: {
    field: 'instructions',
    message: 'Instructions are limited to 5,000 characters.',
  },
  assessments_max_attempts_check: { field: 'maxAttempts', message: 'Allow 1 to 20 attempts.' },
};

export interface SaveQuizInput {
  userId: string;
  courseId: string;
  moduleId: string;
  assessmentId?: string;
  quiz: QuizInput;
}

export async function saveQuiz(input: SaveQuizInput): Promise<{ id: string }> {
  const quiz = quizFormSchema.parse(input.quiz);
  const client = await getSupabase();
  const row = {
    title: quiz.title,
    instructions: quiz.instructions,
    max_attempts: quiz.maxAttempts,
    due_at: quiz.dueAt,
    graded_by_person: quiz.gradedByPerson,
  };
  let id = input.assessmentId;
  if (id) {
    const { data, error } = await client
      .from('assessments')
      .update(row)
      .eq('id', id)
      .select('id')
      .maybeSingle();
    if (error) throw editorError(error, constraints);
    if (!data) throw editorError({ message: 'permission', code: '42501' });
  } else {
    const { data, error } = await client
      .from('assessments')
      .insert({ ...row, course_id: input.courseId, module_id: input.moduleId, published: false })
      .select('id')
      .single();
    if (error) throw editorError(error, constraints);
    id = (data as { id: string }).id;
  }
  const questions = await client.rpc('set_assessment_questions', {
    assessment_id: id,
    question_ids: quiz.questionIds,
  });
  if (questions.error) {
    // A new quiz whose questions could not be set is taken back, so nothing half-made stays.
    if (!input.assessmentId) await client.from('assessments').delete().eq('id', id);
    const error = editorError(questions.error);
    throw new EditorError(error.message, error.code, error.field ?? 'questionIds');
  }
  const published = await client
    .from('assessments')
    .update({ published: quiz.published })
    .eq('id', id);
  if (published.error) throw editorError(published.error, constraints);
  return { id };
}

export function useSaveQuiz() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveQuiz,
    onSettled: (_data, _error, input) =>
      queryClient.invalidateQueries({ queryKey: editorKeys.course(input.userId, input.courseId) }),
  });
}
