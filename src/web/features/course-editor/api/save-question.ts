/**
 * Saves a bank question. The form's schema is checked first; what the database still refuses
 * (its learning.valid_* checks) comes back under the field its constraint guards.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { questionRow, questionSchema, questionSlug, type QuestionInput } from '../question-schema';
import { editorError, type ConstraintMessages } from './editor-error';
import { editorKeys } from './editor-keys';

/** Each check on `questions` (db/app/0321) and the field it guards. */
export const questionConstraints: ConstraintMessages = {
  questions_prompt_check: {
    field: 'prompt',
    message: 'Write the question (up to 20,000 characters).',
  },
  questions_type_check: { field: 'type', message: 'Choose a type.' },
  questions_answer_matches_type: {
    field: 'answer',
    message:
      'The answer does not fit the type: 3–5 choices with one marked correct, a number with a tolerance of 0 or more, or a reference text.',
  },
  questions_key_points_check: {
    field: 'keyPoints',
    message: 'Give 2 to 5 key points, none empty.',
  },
  questions_hints_check: { field: 'hints', message: 'Give 2 to 4 hints, none empty.' },
  questions_worked_example_check: {
    field: 'workedExample',
    message: 'Write the worked example (up to 20,000 characters).',
  },
  questions_misconceptions_check: {
    field: 'misconceptions',
    message: 'Give 1 to 3 misconceptions, each with its feedback.',
  },
  questions_difficulty_check: { field: 'difficulty', message: 'Choose a difficulty from 1 to 3.' },
  questions_prerequisite_check: {
    field: 'prerequisite',
    message:
      'The prerequisite needs a concept, a refresher and 2 to 4 basic questions, each with an answer that fits its type.',
  },
  questions_course_id_slug_key: {
    field: 'form',
    message: 'Another question of this course has the same name. Save again.',
  },
};

export interface SaveQuestionInput {
  userId: string;
  courseId: string;
  moduleId: string;
  questionId?: string;
  question: QuestionInput;
}

export async function saveQuestion(input: SaveQuestionInput): Promise<{ id: string }> {
  const question = questionSchema.parse(input.question);
  const row = questionRow(question);
  const client = await getSupabase();
  const result = input.questionId
    ? await client
        .from('questions')
        .update(row)
        .eq('id', input.questionId)
        .select('id')
        .maybeSingle()
    : await client
        .from('questions')
        .insert({
          ...row,
          course_id: input.courseId,
          module_id: input.moduleId,
          slug: questionSlug(question.prompt, crypto.randomUUID().slice(0, 8)),
        })
        .select('id')
        .single();
  if (result.error) throw editorError(result.error, questionConstraints, 'prompt');
  if (!result.data) throw editorError({ message: 'permission', code: '42501' });
  return result.data as { id: string };
}

export function useSaveQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveQuestion,
    onSuccess: (_data, input) =>
      queryClient.invalidateQueries({ queryKey: editorKeys.course(input.userId, input.courseId) }),
  });
}
