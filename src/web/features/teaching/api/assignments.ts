/**
 * A course's assignments: list, set (a lesson or a quiz with a due date, for every learner
 * enrolled) and remove. The learner's dashboard lists them until they are due.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { serviceError, teachingKeys } from './teaching-keys';

export interface Assignment {
  id: string;
  title: string;
  instructions: string;
  dueAt: string;
  lessonId: string | null;
  assessmentId: string | null;
}

/**
 * The form: `target` is `lesson:<id>` or `quiz:<id>`; `dueAt` is what a datetime-local field
 * holds (local time), and must lie in the future when the form is sent.
 */
export function assignmentSchema(now: Date) {
  return z.object({
    target: z
      .string()
      .regex(/^(lesson|quiz):[0-9a-f-]{36}$/, 'Choose the lesson or quiz to assign.'),
    title: z
      .string()
      .trim()
      .min(1, 'Give the assignment a title.')
      .max(200, 'A title is limited to 200 characters.'),
    dueAt: z
      .string()
      .min(1, 'Choose when it is due.')
      .refine((value) => !Number.isNaN(new Date(value).getTime()), 'Enter a valid date and time.')
      .refine(
        (value) => new Date(value).getTime() > now.getTime(),
        'The due date must be in the future.',
      ),
    instructions: z.string().trim().max(5000, 'Instructions are limited to 5,000 characters.'),
  });
}
export type AssignmentForm = z.input<ReturnType<typeof assignmentSchema>>;

export async function getAssignments(courseId: string): Promise<Assignment[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('assignments')
    .select('id, title, instructions, due_at, lesson_id, assessment_id')
    .eq('course_id', courseId)
    .order('due_at');
  if (error) throw serviceError(error);
  return (
    data as {
      id: string;
      title: string;
      instructions: string;
      due_at: string;
      lesson_id: string | null;
      assessment_id: string | null;
    }[]
  ).map((row) => ({
    id: row.id,
    title: row.title,
    instructions: row.instructions,
    dueAt: row.due_at,
    lessonId: row.lesson_id,
    assessmentId: row.assessment_id,
  }));
}

export function useAssignments(userId: string, courseId: string) {
  return useQuery({
    queryKey: teachingKeys.assignments(userId, courseId),
    queryFn: () => getAssignments(courseId),
  });
}

export interface CreateAssignmentInput {
  userId: string;
  courseId: string;
  form: AssignmentForm;
}

export async function createAssignment({ courseId, form }: CreateAssignmentInput): Promise<void> {
  const parsed = assignmentSchema(new Date()).parse(form);
  const [kind, id] = parsed.target.split(':') as ['lesson' | 'quiz', string];
  const client = await getSupabase();
  const { error } = await client.from('assignments').insert({
    course_id: courseId,
    lesson_id: kind === 'lesson' ? id : null,
    assessment_id: kind === 'quiz' ? id : null,
    title: parsed.title,
    instructions: parsed.instructions,
    due_at: new Date(parsed.dueAt).toISOString(),
  });
  if (error) throw serviceError(error);
}

export function useCreateAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAssignment,
    onSettled: (_data, _error, input) =>
      queryClient.invalidateQueries({
        queryKey: teachingKeys.assignments(input.userId, input.courseId),
      }),
  });
}

export async function deleteAssignment(input: {
  userId: string;
  courseId: string;
  id: string;
}): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client.from('assignments').delete().eq('id', input.id).select('id');
  if (error) throw serviceError(error);
  if ((data ?? []).length === 0) throw new Error('This assignment no longer exists.');
}

export function useDeleteAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAssignment,
    onSettled: (_data, _error, input) =>
      queryClient.invalidateQueries({
        queryKey: teachingKeys.assignments(input.userId, input.courseId),
      }),
  });
}
