/** Sets a goal of the learner's own, or removes one they set. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { progressKeys } from './progress-keys';

const optionalDate = z
  .string()
  .regex(/^(\d{4}-\d{2}-\d{2})?$/, 'Enter a date such as 2026-12-31.')
  .transform((v) => v || null);

/** The form's values, checked; the database checks them again. */
export const goalSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('complete_module'),
      courseId: z.string().uuid('Choose a course.'),
      moduleId: z.string().uuid('Choose a module.'),
      dueOn: optionalDate,
    }),
    z.object({
      kind: z.literal('reach_score'),
      courseId: z.string().uuid('Choose a course.'),
      assessmentId: z.string().uuid('Choose a quiz.'),
      targetScore: z.coerce
        .number({ message: 'Enter a score from 1 to 100.' })
        .int('Enter a whole number.')
        .min(1, 'Enter a score from 1 to 100.')
        .max(100, 'Enter a score from 1 to 100.'),
      dueOn: optionalDate,
    }),
    z.object({
      kind: z.literal('review_cards_daily'),
      courseId: z.string().uuid().or(z.literal('')),
      targetCount: z.coerce
        .number({ message: 'Enter how many cards, from 1 to 1,000.' })
        .int('Enter a whole number.')
        .min(1, 'Enter how many cards, from 1 to 1,000.')
        .max(1000, 'Enter how many cards, from 1 to 1,000.'),
    }),
    z.object({
      kind: z.literal('study_minutes_weekly'),
      courseId: z.string().uuid().or(z.literal('')),
      targetCount: z.coerce
        .number({ message: 'Enter minutes from 1 to 10,000.' })
        .int('Enter a whole number.')
        .min(1, 'Enter minutes from 1 to 10,000.')
        .max(10000, 'Enter minutes from 1 to 10,000.'),
    }),
  ])
  .and(z.object({ title: z.string().trim().min(1, 'Give the goal a name.').max(200) }));

export type GoalInput = z.input<typeof goalSchema>;

export async function createGoal(input: z.output<typeof goalSchema>): Promise<void> {
  const client = await getSupabase();
  const row: Record<string, unknown> = { kind: input.kind, title: input.title };
  if (input.kind === 'complete_module') {
    Object.assign(row, {
      course_id: input.courseId,
      module_id: input.moduleId,
      due_on: input.dueOn,
    });
  } else if (input.kind === 'reach_score') {
    Object.assign(row, {
      course_id: input.courseId,
      assessment_id: input.assessmentId,
      target_score: input.targetScore,
      due_on: input.dueOn,
    });
  } else {
    Object.assign(row, { course_id: input.courseId || null, target_count: input.targetCount });
  }
  const { error } = await client.from('goals').insert(row);
  if (error) throw new Error(`The goal was not saved: ${error.message}`);
}

export async function deleteGoal(goalId: string): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client.from('goals').delete().eq('id', goalId).select('id');
  if (error) throw new Error(error.message);
  if (data.length === 0) throw new Error('Only goals you set yourself can be removed.');
}

function useGoalMutation<T>(userId: string, fn: (input: T) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // A goal met at once pays XP, so the summary moves too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: progressKeys.user(userId) }),
  });
}

export const useCreateGoal = (userId: string) => useGoalMutation(userId, createGoal);
export const useDeleteGoal = (userId: string) => useGoalMutation(userId, deleteGoal);
