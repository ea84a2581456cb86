/**
 * Removes a board (decision 0140): its members move to another board or to the whole
 * organization, its courses stay in the organization; refused while it has board admins.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appShellKeys } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { ownerKeys, serviceError } from './owner-keys';

export interface RemoveBoardInput {
  organizationId: string;
  boardId: string;
  /** Another board of the organization, or null for the whole organization. */
  moveMembersTo: string | null;
}

export interface RemoveBoardResult {
  moved: number;
  withdrawn: number;
}

export async function removeBoard({
  boardId,
  moveMembersTo,
}: RemoveBoardInput): Promise<RemoveBoardResult> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('remove_board', {
    board_id: boardId,
    move_members_to: moveMembersTo,
  });
  if (error) throw serviceError(error);
  return data as RemoveBoardResult;
}

export function useRemoveBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeBoard,
    onSuccess: async (_result, input) => {
      await queryClient.invalidateQueries({
        queryKey: ownerKeys.organization(input.organizationId),
      });
      // The workspace switcher offers boards; a removed one must leave it.
      await queryClient.invalidateQueries({ queryKey: appShellKeys.all });
    },
  });
}
