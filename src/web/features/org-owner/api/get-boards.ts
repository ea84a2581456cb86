/** The organization's boards with their members, board admins and distributed courses counted. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { ownerKeys, serviceError } from './owner-keys';

export interface BoardSummary {
  id: string;
  name: string;
  slug: string;
  members: number;
  admins: number;
  courses: number;
}

export async function getBoards(organizationId: string): Promise<BoardSummary[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('board_overview', { organization_id: organizationId });
  if (error) throw serviceError(error);
  return (data as BoardSummary[]).map(({ id, name, slug, members, admins, courses }) => ({
    id,
    name,
    slug,
    members,
    admins,
    courses,
  }));
}

export function useBoards(organizationId: string) {
  return useQuery({
    queryKey: ownerKeys.boards(organizationId),
    queryFn: () => getBoards(organizationId),
  });
}
