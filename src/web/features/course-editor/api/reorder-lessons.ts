/**
 * Puts a module's lessons in a new order through `reorder_lessons`, which may also bring in a
 * lesson of another module of the course (moving it); the outline shows it at once and goes
 * back if the server refuses.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';
import type { CourseOutline } from './get-course-outline';
import { reorderKey } from './reorder-modules';

export interface ReorderLessonsInput {
  userId: string;
  courseId: string;
  moduleId: string;
  lessonIds: string[];
}

export async function reorderLessons(input: ReorderLessonsInput): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.rpc('reorder_lessons', {
    module_id: input.moduleId,
    lesson_ids: input.lessonIds,
  });
  if (error) throw editorError(error);
}

export function useReorderLessons() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: reorderKey,
    mutationFn: reorderLessons,
    onMutate: async (input) => {
      const key = editorKeys.outline(input.userId, input.courseId);
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<CourseOutline | null>(key);
      if (before) {
        // The list may bring in a lesson of another module (a move): it leaves that module.
        const byId = new Map(before.modules.flatMap((m) => m.lessons.map((l) => [l.id, l])));
        const listed = new Set(input.lessonIds);
        queryClient.setQueryData<CourseOutline>(key, {
          ...before,
          modules: before.modules.map((m) =>
            m.id === input.moduleId
              ? { ...m, lessons: input.lessonIds.flatMap((id) => byId.get(id) ?? []) }
              : { ...m, lessons: m.lessons.filter((l) => !listed.has(l.id)) },
          ),
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
