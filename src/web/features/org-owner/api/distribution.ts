/**
 * Which boards each of the organization's courses is distributed to (course_boards), and
 * changing that: the owner distributes a course to boards and withdraws it. The learners of
 * those boards find it in their course library once it is published.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { ownerKeys, serviceError } from './owner-keys';

export const DISTRIBUTION_PAGE_SIZE = 20;

export interface DistributedCourse {
  id: string;
  title: string;
  subject: string;
  published: boolean;
  boardIds: string[];
}

interface CourseRow {
  id: string;
  title: string;
  subject: string;
  published: boolean;
  distribution: { board_id: string }[];
}

/** `%` and `_` typed by the user are searched for literally, not as wildcards. */
function ilikePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function getDistribution(
  organizationId: string,
  search: string,
  boardId: string | null,
  page: number,
): Promise<{ courses: DistributedCourse[]; total: number }> {
  const client = await getSupabase();
  const from = page * DISTRIBUTION_PAGE_SIZE;
  const select = 'id, title, subject, published, distribution:course_boards(board_id)';
  let query = client
    .from('courses')
    .select(boardId ? `${select}, in_board:course_boards!inner(board_id)` : select, {
      count: 'exact',
    })
    .eq('organization_id', organizationId);
  if (boardId) query = query.eq('in_board.board_id', boardId);
  if (search) query = query.ilike('title', ilikePattern(search));
  const { data, error, count } = await query
    .order('title')
    .order('id')
    .range(from, from + DISTRIBUTION_PAGE_SIZE - 1);
  if (error) throw serviceError(error);
  const rows = data as unknown as CourseRow[];
  return {
    total: count ?? rows.length,
    courses: rows.map((row) => ({
      id: row.id,
      title: row.title,
      subject: row.subject,
      published: row.published,
      boardIds: row.distribution.map((d) => d.board_id),
    })),
  };
}

export function useDistribution(
  organizationId: string,
  search: string,
  boardId: string | null,
  page: number,
) {
  return useQuery({
    queryKey: ownerKeys.distribution(organizationId, search, boardId, page),
    queryFn: () => getDistribution(organizationId, search, boardId, page),
    placeholderData: keepPreviousData,
  });
}

export interface SetDistributionInput {
  organizationId: string;
  courseId: string;
  /** Boards to distribute the course to (already distributed ones are left as they are). */
  add: string[];
  /** Boards to withdraw it from. */
  withdraw: string[];
}

export async function setDistribution({
  organizationId,
  courseId,
  add,
  withdraw,
}: SetDistributionInput): Promise<void> {
  const client = await getSupabase();
  if (add.length > 0) {
    const { error } = await client.from('course_boards').upsert(
      add.map((boardId) => ({
        course_id: courseId,
        board_id: boardId,
        organization_id: organizationId,
      })),
      { onConflict: 'course_id,board_id', ignoreDuplicates: true },
    );
    if (error) throw serviceError(error);
  }
  if (withdraw.length > 0) {
    const { error } = await client
      .from('course_boards')
      .delete()
      .eq('course_id', courseId)
      .in('board_id', withdraw);
    if (error) throw serviceError(error);
  }
}

export function useSetDistribution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDistribution,
    onSettled: (_result, _error, input) =>
      queryClient.invalidateQueries({ queryKey: ownerKeys.organization(input.organizationId) }),
  });
}
