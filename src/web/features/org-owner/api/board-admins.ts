/**
 * A board's admins (org_admin memberships of that board, decision 0100), and naming or
 * removing one. Only the owner may do either; row-level security refuses anyone else.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { getPeople } from './get-people';
import { ownerKeys, serviceError } from './owner-keys';

export interface BoardAdmin {
  membershipId: string;
  userId: string;
  name: string;
  email: string;
  active: boolean;
  /** Memberships the person keeps when this one is removed. */
  otherMemberships: number;
}

/** A board has a handful of admins; one page of 100 holds them all. */
export async function getBoardAdmins(
  organizationId: string,
  boardId: string,
): Promise<BoardAdmin[]> {
  const { people } = await getPeople({
    organizationId,
    boardId,
    role: 'org_admin',
    pageSize: 100,
  });
  return people.flatMap((person) => {
    const admin = person.memberships.find((m) => m.role === 'org_admin' && m.boardId === boardId);
    if (!admin) return [];
    return [
      {
        membershipId: admin.id,
        userId: person.id,
        name: person.name,
        email: person.email,
        active: admin.active,
        otherMemberships: person.memberships.length - 1,
      },
    ];
  });
}

export function useBoardAdmins(organizationId: string, boardId: string) {
  return useQuery({
    queryKey: ownerKeys.boardAdmins(organizationId, boardId),
    queryFn: () => getBoardAdmins(organizationId, boardId),
  });
}

export interface NameBoardAdminInput {
  organizationId: string;
  organizationName: string;
  boardId: string;
  boardName: string;
  email: string;
}

/** A refusal that belongs next to the email field. */
export class BoardAdminCandidateError extends Error {}

export async function nameBoardAdmin(input: NameBoardAdminInput): Promise<{ name: string }> {
  const email = input.email.trim().toLowerCase();
  const { people } = await getPeople({
    organizationId: input.organizationId,
    search: email,
    pageSize: 100,
  });
  const person = people.find((p) => p.email.toLowerCase() === email);
  if (!person) {
    throw new BoardAdminCandidateError(
      `Nobody in ${input.organizationName} signs in with ${email}. Add them to the organization first, then name them here.`,
    );
  }
  if (person.isOwner) {
    throw new BoardAdminCandidateError(
      `${person.name} owns the organization and already administers every board.`,
    );
  }
  if (person.memberships.some((m) => m.role === 'org_admin' && m.boardId === input.boardId)) {
    throw new BoardAdminCandidateError(`${person.name} is already an admin of ${input.boardName}.`);
  }
  const client = await getSupabase();
  const { error } = await client.from('memberships').insert({
    user_id: person.id,
    organization_id: input.organizationId,
    board_id: input.boardId,
    role: 'org_admin',
  });
  if (error) throw serviceError(error);
  return { name: person.name };
}

export function useNameBoardAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: nameBoardAdmin,
    onSuccess: (_result, input) =>
      queryClient.invalidateQueries({ queryKey: ownerKeys.organization(input.organizationId) }),
  });
}

export interface RemoveBoardAdminInput {
  organizationId: string;
  membershipId: string;
}

export async function removeBoardAdmin({ membershipId }: RemoveBoardAdminInput): Promise<void> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('memberships')
    .delete()
    .eq('id', membershipId)
    .select('id');
  if (error) throw serviceError(error);
  // Row-level security hides a row one may not delete instead of failing: say so.
  if ((data ?? []).length === 0) throw new Error('This board admin could not be removed.');
}

export function useRemoveBoardAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeBoardAdmin,
    onSuccess: (_result, input) =>
      queryClient.invalidateQueries({ queryKey: ownerKeys.organization(input.organizationId) }),
  });
}
