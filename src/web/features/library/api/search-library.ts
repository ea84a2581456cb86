/**
 * The library's lessons (search_library, decision 0151): every lesson the user may read, or,
 * with a query, the lessons and file pages matching it, best first, with a marked snippet.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { libraryKeys, type LessonKind, type LibraryFilters } from './library-keys';

export const LIBRARY_PAGE_SIZE = 20;

export interface LibraryHit {
  lessonId: string;
  courseId: string;
  courseTitle: string;
  moduleTitle: string;
  lessonTitle: string;
  kind: LessonKind;
  filePath: string | null;
  /** The PDF page or ePub chapter of a hit in a file; null for the lesson itself. */
  position: number | null;
  label: string;
  snippet: string;
}

interface HitRow {
  lesson_id: string;
  course_id: string;
  course_title: string;
  module_title: string;
  lesson_title: string;
  kind: LessonKind;
  file_path: string | null;
  position: number | null;
  label: string;
  snippet: string;
  total_count: number;
}

export async function searchLibrary(
  filters: LibraryFilters,
): Promise<{ hits: LibraryHit[]; total: number }> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('search_library', {
    query: filters.query,
    course: filters.courseId,
    kinds: filters.kind ? [filters.kind] : null,
    row_limit: LIBRARY_PAGE_SIZE,
    row_offset: filters.page * LIBRARY_PAGE_SIZE,
  });
  if (error) throw new Error(error.message);
  const rows = (data ?? []) as HitRow[];
  return {
    total: rows[0]?.total_count ?? 0,
    hits: rows.map((r) => ({
      lessonId: r.lesson_id,
      courseId: r.course_id,
      courseTitle: r.course_title,
      moduleTitle: r.module_title,
      lessonTitle: r.lesson_title,
      kind: r.kind,
      filePath: r.file_path,
      position: r.position,
      label: r.label,
      snippet: r.snippet,
    })),
  };
}

export function useLibrarySearch(userId: string, filters: LibraryFilters) {
  return useQuery({
    queryKey: libraryKeys.search(userId, filters),
    queryFn: () => searchLibrary(filters),
    placeholderData: keepPreviousData,
  });
}
