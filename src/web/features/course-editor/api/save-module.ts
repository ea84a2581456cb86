/** Adds a module at the end of a course, or saves a module's title and summary. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { editorError, type ConstraintMessages } from './editor-error';
import { editorKeys } from './editor-keys';

export const moduleSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Give the module a title.')
    .max(200, 'A title is limited to 200 characters.'),
  summary: z.string().trim().max(2000, 'A summary is limited to 2,000 characters.'),
});

export type ModuleInput = z.infer<typeof moduleSchema>;

const constraints: ConstraintMessages = {
  modules_title_check: { field: 'title', message: 'Give the module a title of 1–200 characters.' },
  modules_summary_check: { field: 'summary', message: 'A summary is limited to 2,000 characters.' },
  modules_position_unique: {
    field: 'form',
    message: 'Someone added a module at the same moment. Save again to add this one after it.',
  },
};

export interface SaveModuleInput {
  userId: string;
  courseId: string;
  moduleId?: string;
  module: ModuleInput;
}

export async function saveModule(input: SaveModuleInput): Promise<{ id: string }> {
  const module = moduleSchema.parse(input.module);
  const client = await getSupabase();
  if (input.moduleId) {
    const { data, error } = await client
      .from('modules')
      .update(module)
      .eq('id', input.moduleId)
      .select('id')
      .maybeSingle();
    if (error) throw editorError(error, constraints);
    if (!data) throw editorError({ message: 'permission', code: '42501' });
    return data as { id: string };
  }
  const last = await client
    .from('modules')
    .select('position')
    .eq('course_id', input.courseId)
    .order('position', { ascending: false })
    .limit(1);
  if (last.error) throw editorError(last.error);
  const position = ((last.data as { position: number }[])[0]?.position ?? 0) + 1;
  const { data, error } = await client
    .from('modules')
    .insert({ ...module, course_id: input.courseId, position })
    .select('id')
    .single();
  if (error) throw editorError(error, constraints);
  return data as { id: string };
}

export function useSaveModule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveModule,
    onSuccess: (_data, input) =>
      queryClient.invalidateQueries({ queryKey: editorKeys.course(input.userId, input.courseId) }),
  });
}
