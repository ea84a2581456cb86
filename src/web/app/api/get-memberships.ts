/**
 * The user's active memberships with their organization's and board's names, which the
 * workspace switcher offers, and the boards of the organizations they belong to (an owner or
 * organization-wide admin may scope to any of them). Row-level security returns only the
 * caller's own active memberships and their organizations' boards.
 */
import { useQuery } from '@tanstack/react-query';
import type { LearningRole } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { appKeys } from './app-keys';

export interface Membership {
  organizationId: string;
  organizationName: string;
  /** Whether the user owns this membership's organization. */
  isOwner: boolean;
  boardId: string | null;
  boardName: string | null;
  role: LearningRole;
}

export interface OrganizationBoard {
  id: string;
  organizationId: string;
  name: string;
}

export interface MembershipsAndBoards {
  memberships: Membership[];
  boards: OrganizationBoard[];
}

interface MembershipRow {
  organization_id: string;
  board_id: string | null;
  role: LearningRole;
  organization: { name: string; owner_id: string | null } | null;
  board: { name: string } | null;
}

export async function getMemberships(userId: string): Promise<MembershipsAndBoards> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('memberships')
    .select(
      'organization_id, board_id, role, organization:organizations(name, owner_id), board:boards(name)',
    )
    .eq('user_id', userId)
    .eq('active', true)
    .order('created_at');
  if (error) throw new Error(error.message);
  const memberships = (data as unknown as MembershipRow[]).map((row) => ({
    organizationId: row.organization_id,
    organizationName: row.organization?.name ?? 'Organization',
    isOwner: row.organization?.owner_id === userId,
    boardId: row.board_id,
    boardName: row.board?.name ?? null,
    role: row.role,
  }));
  const organizations = [...new Set(memberships.map((m) => m.organizationId))];
  if (organizations.length === 0) return { memberships, boards: [] };
  const boards = await client
    .from('boards')
    .select('id, organization_id, name')
    .in('organization_id', organizations)
    .order('name');
  if (boards.error) throw new Error(boards.error.message);
  return {
    memberships,
    boards: (boards.data as { id: string; organization_id: string; name: string }[]).map((b) => ({
      id: b.id,
      organizationId: b.organization_id,
      name: b.name,
    })),
  };
}

export function useMemberships(userId: string) {
  return useQuery({
    queryKey: appKeys.memberships(userId),
    queryFn: () => getMemberships(userId),
  });
}
