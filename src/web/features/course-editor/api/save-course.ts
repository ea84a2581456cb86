/**
 * Creates a course in the workspace (an organization's course, or a personal course owned by
 * the user in Personal mode) or saves its details.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { Workspace } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { editorError, type ConstraintMessages } from './editor-error';
import { editorKeys } from './editor-keys';

export const courseSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Give the course a title.')
    .max(200, 'A title is limited to 200 characters.'),
  subject: z.string().trim().max(120, 'A subject is limited to 120 characters.'),
  description: z.string().trim().max(5000, 'A description is limited to 5,000 characters.'),
  visibility: z.enum(['private', 'organization', 'public'], {
    error: 'Choose who can find the course.',
  }),
  published: z.boolean(),
});

export type CourseInput = z.infer<typeof courseSchema>;

/** Personal courses have no organization to be visible to. */
export function courseSchemaFor(workspace: Workspace) {
  return workspace.kind === 'personal'
    ? courseSchema.refine((course) => course.visibility !== 'organization', {
        path: ['visibility'],
        message: 'A personal course is private or public; it has no organization.',
      })
    : courseSchema;
}

const constraints: ConstraintMessages = {
  courses_title_check: { field: 'title', message: 'Give the course a title of 1–200 characters.' },
  courses_subject_check: { field: 'subject', message: 'A subject is limited to 120 characters.' },
  courses_description_length: {
    field: 'description',
    message: 'A description is limited to 5,000 characters.',
  },
  courses_visibility_check: { field: 'visibility', message: 'Choose who can find the course.' },
};

export interface SaveCourseInput {
  userId: string;
  workspace: Workspace;
  /** Absent for a new course. */
  courseId?: string;
  course: CourseInput;
}

export async function saveCourse(input: SaveCourseInput): Promise<{ id: string }> {
  const course = courseSchemaFor(input.workspace).parse(input.course);
  const client = await getSupabase();
  const row = {
    title: course.title,
    subject: course.subject,
    description: course.description || null,
    visibility: course.visibility,
    published: course.published,
  };
  const result = input.courseId
    ? await client.from('courses').update(row).eq('id', input.courseId).select('id').maybeSingle()
    : await client
        .from('courses')
        .insert(
          input.workspace.kind === 'personal'
            ? { ...row, owner_id: input.userId }
            : { ...row, organization_id: input.workspace.organizationId },
        )
        .select('id')
        .single();
  if (result.error) throw editorError(result.error, constraints);
  if (!result.data) throw editorError({ message: 'permission', code: '42501' });
  return result.data as { id: string };
}

export function useSaveCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCourse,
    onSuccess: async ({ id }, input) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: editorKeys.lists(input.userId) }),
        queryClient.invalidateQueries({ queryKey: editorKeys.course(input.userId, id) }),
      ]);
    },
  });
}
