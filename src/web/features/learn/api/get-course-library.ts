/**
 * One page of the courses the user can find in this workspace, searched by title on the
 * server, with the total for paging and which of them the user is enrolled in.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { workspaceKey, type AppSession } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { courseScopeFilter, narrowToBoard, withBoardScope } from '@/lib/workspace-scope';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export const LIBRARY_PAGE_SIZE = 12;

export interface LibraryCourse {
  id: string;
  title: string;
  subject: string;
  description: string;
  visibility: 'private' | 'organization' | 'public';
  organizationName: string | null;
  enrolled: boolean;
}

export interface LibraryPage {
  courses: LibraryCourse[];
  total: number;
}

interface CourseRow {
  id: string;
  title: string;
  subject: string;
  description: string | null;
  visibility: LibraryCourse['visibility'];
  organization: { name: string } | null;
}

/** `%` and `_` typed by the user are searched for literally, not as wildcards. */
export function ilikePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function getCourseLibrary(
  session: AppSession,
  search: string,
  page: number,
): Promise<LibraryPage> {
  const client = await getSupabase();
  const from = page * LIBRARY_PAGE_SIZE;
  let query = client
    .from('courses')
    .select(
      withBoardScope(
        'id, title, subject, description, visibility, organization:organizations(name)',
        session,
      ),
      { count: 'exact' },
    )
    .eq('published', true)
    .or(courseScopeFilter(session));
  query = narrowToBoard(query, session);
  if (search) query = query.ilike('title', ilikePattern(search));
  const { data, error, count } = await query
    .order('title')
    .order('id')
    .range(from, from + LIBRARY_PAGE_SIZE - 1);
  if (error) throw serviceError(error);
  const rows = data as unknown as CourseRow[];
  const ids = rows.map((row) => row.id);
  let enrolled = new Set<string>();
  if (ids.length > 0) {
    const mine = await client
      .from('enrollments')
      .select('course_id')
      .eq('user_id', session.userId)
      .neq('status', 'dropped')
      .in('course_id', ids);
    if (mine.error) throw serviceError(mine.error);
    enrolled = new Set((mine.data as { course_id: string }[]).map((row) => row.course_id));
  }
  return {
    total: count ?? rows.length,
    courses: rows.map((row) => ({
      id: row.id,
      title: row.title,
      subject: row.subject,
      description: row.description ?? '',
      visibility: row.visibility,
      organizationName: row.organization?.name ?? null,
      enrolled: enrolled.has(row.id),
    })),
  };
}

export function useCourseLibrary(session: AppSession, search: string, page: number) {
  return useQuery({
    queryKey: learnKeys.library(session.userId, workspaceKey(session.workspace), search, page),
    queryFn: () => getCourseLibrary(session, search, page),
    placeholderData: keepPreviousData,
  });
}
