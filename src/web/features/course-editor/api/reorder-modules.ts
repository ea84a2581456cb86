/**
 * Puts a course's modules in a new order through `reorder_modules` (one statement, all or
 * nothing). The outline shows the new order at once and goes back if the server refuses.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';
import type { CourseOutline } from './get-course-outline';

export const reorderKey = ['course-editor', 'reorder'] as const;

export interface ReorderModulesInput {
  userId: string;
  courseId: string;
  moduleIds: string[];
}

export async function reorderModules(input: ReorderModulesInput): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('reorder_modules', {
    course_id: input.courseId,
    module_ids: input.moduleIds,
  });
  if (error) throw editorError(error);
}

export function useReorderModules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: reorderKey,
    mutationFn: reorderModules,
    onMutate: async (input) => {
      const key = editorKeys.outline(input.userId, input.courseId);
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<CourseOutline | null>(key);
      if (before) {
        const byId = new Map(before.modules.map((m) => [m.id, m]));
        queryClient.setQueryData<CourseOutline>(key, {
          ...before,
          modules: input.moduleIds.flatMap((id) => byId.get(id) ?? []),
        });
      }
      return { before };
    },
    onError: (_error, input, context) => {
      if (context?.before) {
        queryClient.setQueryData(editorKeys.outline(input.userId, input.courseId), context.before);
      }
    },
    // Moves may follow each other faster than the server answers; only the last one to settle
    // reads the outline back, so an earlier answer never shows an order already moved past.
    onSettled: (_data, _error, input) =>
      queryClient.isMutating({ mutationKey: reorderKey }) === 1
        ? queryClient.invalidateQueries({
            queryKey: editorKeys.outline(input.userId, input.courseId),
          })
        : undefined,
  });
}
