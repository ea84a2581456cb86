/**
 * Goals an instructor sets for a learner of a course they teach (the goals table of decision
 * 0125): complete the course, complete a module, or reach a score on a quiz, optionally by a
 * date. The learner's own goals screen comes with the goals feature.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { serviceError, teachingKeys } from './teaching-keys';

export type GoalKind = 'complete_course' | 'complete_module' | 'reach_score' | 'custom';

export interface Goal {
  id: string;
  kind: GoalKind;
  title: string;
  note: string;
  targetScore: number | null;
  dueOn: string | null;
  achievedAt: string | null;
  setBy: string | null;
}

const dueOn = z
  .string()
  .refine((value) => value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value), 'Enter a date.')
  .refine(
    (value) => value === '' || !Number.isNaN(new Date(`${value}T00:00:00`).getTime()),
    'Enter a valid date.',
  );
const id = (message: string) =>
  z.string().regex(/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i, message);
const note = z.string().trim().max(2000, 'A note is limited to 2,000 characters.');

/** The form, one shape per kind; each kind names exactly the target it needs. */
export const goalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('complete_course'), dueOn, note }),
  z.object({
    kind: z.literal('complete_module'),
    moduleId: id('Choose the module.'),
    dueOn,
    note,
  }),
  z.object({
    kind: z.literal('reach_score'),
    assessmentId: id('Choose the quiz.'),
    targetScore: z
      .string()
      .trim()
      .refine((value) => {
        const score = Number(value);
        return value !== '' && Number.isFinite(score) && score >= 0 && score <= 100;
      }, 'Enter a score from 0 to 100.')
      .transform(Number),
    dueOn,
    note,
  }),
]);
export type GoalForm = z.input<typeof goalSchema>;

export async function getLearnerGoals(courseId: string, learnerId: string): Promise<Goal[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('goals')
    .select('id, kind, title, note, target_score, due_on, achieved_at, set_by')
    .eq('course_id', courseId)
    .eq('user_id', learnerId)
    .order('created_at', { ascending: false });
  if (error) throw serviceError(error);
  return (
    data as {
      id: string;
      kind: GoalKind;
      title: string;
      note: string;
      target_score: number | string | null;
      due_on: string | null;
      achieved_at: string | null;
      set_by: string | null;
    }[]
  ).map((row) => ({
    id: row.id,
    kind: row.kind,
    title: row.title,
    note: row.note,
    targetScore: row.target_score === null ? null : Number(row.target_score),
    dueOn: row.due_on,
    achievedAt: row.achieved_at,
    setBy: row.set_by,
  }));
}

export function useLearnerGoals(userId: string, courseId: string, learnerId: string) {
  return useQuery({
    queryKey: teachingKeys.goals(userId, courseId, learnerId),
    queryFn: () => getLearnerGoals(courseId, learnerId),
  });
}

export interface CreateGoalInput {
  userId: string;
  courseId: string;
  learnerId: string;
  form: GoalForm;
  /** The goal's title, written from the kind and the chosen module or quiz. */
  title: string;
}

export async function createGoal(input: CreateGoalInput): Promise<void> {
  const parsed = goalSchema.parse(input.form);
  const client = await getSupabase();
  const { error } = await client.from('goals').insert({
    user_id: input.learnerId,
    course_id: input.courseId,
    kind: parsed.kind,
    module_id: parsed.kind === 'complete_module' ? parsed.moduleId : null,
    assessment_id: parsed.kind === 'reach_score' ? parsed.assessmentId : null,
    target_score: parsed.kind === 'reach_score' ? parsed.targetScore : null,
    title: input.title.slice(0, 200),
    note: parsed.note,
    due_on: parsed.dueOn || null,
  });
  if (error) throw serviceError(error);
}

export function useCreateGoal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGoal,
    onSettled: (_data, _error, input) =>
      queryClient.invalidateQueries({
        queryKey: teachingKeys.goals(input.userId, input.courseId, input.learnerId),
      }),
  });
}

export async function deleteGoal(input: {
  userId: string;
  courseId: string;
  learnerId: string;
  id: string;
}): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client.from('goals').delete().eq('id', input.id).select('id');
  if (error) throw serviceError(error);
  if ((data ?? []).length === 0) throw new Error('This goal no longer exists.');
}

export function useDeleteGoal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGoal,
    onSettled: (_data, _error, input) =>
      queryClient.invalidateQueries({
        queryKey: teachingKeys.goals(input.userId, input.courseId, input.learnerId),
      }),
  });
}
