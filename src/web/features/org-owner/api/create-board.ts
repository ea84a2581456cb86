/** Creates a board (the owner only; the database derives a free address name). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appShellKeys } from '@/lib/app-session';
import { getSupabase } from '@/lib/supabase';
import { ownerKeys, serviceError } from './owner-keys';

export interface CreateBoardInput {
  organizationId: string;
  name: string;
}

export async function createBoard({ organizationId, name }: CreateBoardInput) {
  const client = await getSupabase();
  const { data, error } = await client.rpc('create_board', {
    organization_id: organizationId,
    name,
  });
  if (error) throw serviceError(error);
  return data as { id: string; name: string };
}

export function useCreateBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBoard,
    onSuccess: async (_board, input) => {
      await queryClient.invalidateQueries({
        queryKey: ownerKeys.organization(input.organizationId),
      });
      // The workspace switcher lists the boards by name.
      await queryClient.invalidateQueries({ queryKey: appShellKeys.all });
    },
  });
}
