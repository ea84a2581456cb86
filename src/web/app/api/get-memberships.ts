/**
 * The user's active memberships with their organization's and board's names, which the
 * workspace switcher offers. Row-level security returns only the caller's own active rows.
 */
import { useQuery } from '@tanstack/react-query';
import type { LearningRole } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { appKeys } from './app-keys';

export interface Membership {
  organizationId: string;
  organizationName: string;
  boardId: string | null;
  boardName: string | null;
  role: LearningRole;
}

interface MembershipRow {
  organization_id: string;
  board_id: string | null;
  role: LearningRole;
  organization: { name: string } | null;
  board: { name: string } | null;
}

export async function getMemberships(userId: string): Promise<Membership[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('memberships')
    .select('organization_id, board_id, role, organization:organizations(name), board:boards(name)')
    .eq('user_id', userId)
    .eq('active', true)
    .order('created_at');
  if (error) throw new Error(error.message);
  return (data as unknown as MembershipRow[]).map((row) => ({
    organizationId: row.organization_id,
    organizationName: row.organization?.name ?? 'Organization',
    boardId: row.board_id,
    boardName: row.board?.name ?? null,
    role: row.role,
  }));
}

export function useMemberships(userId: string) {
  return useQuery({
    queryKey: appKeys.memberships(userId),
    queryFn: () => getMemberships(userId),
  });
}
