/** Renames a board (the owner only); its address name stays. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appShellKeys } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { ownerKeys, serviceError } from './owner-keys';

export interface RenameBoardInput {
  organizationId: string;
  boardId: string;
  name: string;
}

export async function renameBoard({ boardId, name }: RenameBoardInput) {
  const client = await getSupabase();
  const { data, error } = await client.rpc('rename_board', { board_id: boardId, name });
  if (error) throw serviceError(error);
  return data as { id: string; name: string };
}

export function useRenameBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameBoard,
    onSuccess: async (_board, input) => {
      await queryClient.invalidateQueries({
        queryKey: ownerKeys.organization(input.organizationId),
      });
      // The workspace switcher lists the boards by name.
      await queryClient.invalidateQueries({ queryKey: appShellKeys.all });
    },
  });
}
