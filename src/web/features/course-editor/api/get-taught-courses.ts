/**
 * One page of the courses the user teaches in this workspace (their organization's, or in
 * Personal mode their personal courses), searched by title and subject on the server.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { workspaceKey, type AppSession } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { editorError } from './editor-error';
import { editorKeys } from './editor-keys';

export const TAUGHT_PAGE_SIZE = 10;

export type Visibility = 'private' | 'organization' | 'public';

export interface TaughtCourse {
  id: string;
  title: string;
  subject: string;
  visibility: Visibility;
  published: boolean;
  updatedAt: string;
}

export interface TaughtPage {
  courses: TaughtCourse[];
  total: number;
}

interface Row {
  id: string;
  title: string;
  subject: string;
  visibility: Visibility;
  published: boolean;
  updated_at: string;
}

export async function getTaughtCourses(
  session: AppSession,
  search: string,
  page: number,
): Promise<TaughtPage> {
  const client = await getSupabase();
  const from = page * TAUGHT_PAGE_SIZE;
  let query = client
    .rpc('taught_courses', { search }, { count: 'exact' })
    .select('id, title, subject, visibility, published, updated_at');
  query =
    session.workspace.kind === 'personal'
      ? query.is('organization_id', null)
      : query.eq('organization_id', session.workspace.organizationId);
  const { data, error, count } = await query
    .order('updated_at', { ascending: false })
    .order('id')
    .range(from, from + TAUGHT_PAGE_SIZE - 1);
  if (error) throw editorError(error);
  const rows = data as unknown as Row[];
  return {
    total: count ?? rows.length,
    courses: rows.map((row) => ({
      id: row.id,
      title: row.title,
      subject: row.subject,
      visibility: row.visibility,
      published: row.published,
      updatedAt: row.updated_at,
    })),
  };
}

export function useTaughtCourses(session: AppSession, search: string, page: number) {
  return useQuery({
    queryKey: editorKeys.list(session.userId, workspaceKey(session.workspace), search, page),
    queryFn: () => getTaughtCourses(session, search, page),
    placeholderData: keepPreviousData,
  });
}
