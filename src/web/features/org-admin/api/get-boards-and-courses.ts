/**
 * The organization's boards and courses, for the role and enrolment forms (row-level security
 * lets its admins read both), and which boards each course is distributed to.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { orgAdminKeys } from './org-admin-keys';

export interface AdminBoard {
  id: string;
  name: string;
  slug: string;
}

export interface AdminCourse {
  id: string;
  title: string;
  slug: string | null;
  published: boolean;
  boardIds: string[];
}

export async function getBoards(organizationId: string): Promise<AdminBoard[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('boards')
    .select('id, name, slug')
    .eq('organization_id', organizationId)
    .order('name');
  if (error) throw new Error(error.message);
  return data as AdminBoard[];
}

/** `within`: a board admin's boards, the only ones their forms offer; null for all. */
export function useBoards(organizationId: string, within: readonly string[] | null = null) {
  return useQuery({
    queryKey: orgAdminKeys.boards(organizationId),
    queryFn: () => getBoards(organizationId),
    select: (boards) => (within ? boards.filter((b) => within.includes(b.id)) : boards),
  });
}

export async function getCourses(organizationId: string): Promise<AdminCourse[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('courses')
    .select('id, title, slug, published, course_boards(board_id)')
    .eq('organization_id', organizationId)
    .order('title')
    .limit(1000);
  if (error) throw new Error(error.message);
  return (
    data as {
      id: string;
      title: string;
      slug: string | null;
      published: boolean;
      course_boards: { board_id: string }[];
    }[]
  ).map((row) => ({
    id: row.id,
    title: row.title,
    slug: row.slug,
    published: row.published,
    boardIds: row.course_boards.map((b) => b.board_id),
  }));
}

/** `within`: a board admin's boards; only courses distributed to one of them are offered. */
export function useCourses(organizationId: string, within: readonly string[] | null = null) {
  return useQuery({
    queryKey: orgAdminKeys.courses(organizationId),
    queryFn: () => getCourses(organizationId),
    select: (courses) =>
      within ? courses.filter((c) => c.boardIds.some((b) => within.includes(b))) : courses,
  });
}
