/**
 * A page of the organization's users with every membership they hold (any board, active or
 * not), searched by name or sign-in address on the server (organization_people, 0370).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LearningRole } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { ownerKeys, serviceError } from './owner-keys';

export const PEOPLE_PAGE_SIZE = 25;

export interface PersonMembership {
  id: string;
  role: LearningRole;
  active: boolean;
  boardId: string | null;
  boardName: string | null;
}

export interface Person {
  id: string;
  email: string;
  name: string;
  isOwner: boolean;
  memberships: PersonMembership[];
}

export interface PeoplePage {
  people: Person[];
  total: number;
}

interface PersonRow {
  user_id: string;
  email: string;
  full_name: string | null;
  display_name: string | null;
  is_owner: boolean;
  memberships: {
    id: string;
    role: LearningRole;
    active: boolean;
    board_id: string | null;
    board_name: string | null;
  }[];
  total: number;
}

export interface PeopleQuery {
  organizationId: string;
  search?: string;
  boardId?: string | null;
  role?: LearningRole | null;
  page?: number;
  pageSize?: number;
}

export async function getPeople({
  organizationId,
  search = '',
  boardId = null,
  role = null,
  page = 0,
  pageSize = PEOPLE_PAGE_SIZE,
}: PeopleQuery): Promise<PeoplePage> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('organization_people', {
    organization_id: organizationId,
    search,
    board_id: boardId,
    role_name: role,
    page_size: pageSize,
    page_offset: page * pageSize,
  });
  if (error) throw serviceError(error);
  const rows = data as PersonRow[];
  return {
    total: rows[0]?.total ?? 0,
    people: rows.map((row) => ({
      id: row.user_id,
      email: row.email,
      name: row.full_name || row.display_name || row.email,
      isOwner: row.is_owner,
      memberships: row.memberships.map((m) => ({
        id: m.id,
        role: m.role,
        active: m.active,
        boardId: m.board_id,
        boardName: m.board_name,
      })),
    })),
  };
}

export function usePeople(
  organizationId: string,
  search: string,
  boardId: string | null,
  page: number,
) {
  return useQuery({
    queryKey: ownerKeys.people(organizationId, search, boardId, page),
    queryFn: () => getPeople({ organizationId, search, boardId, page }),
    placeholderData: keepPreviousData,
  });
}
