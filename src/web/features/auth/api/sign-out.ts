import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

/** Ends every session of the user ('global'), this one ('local'), or all but this one ('others'). */
export async function signOut(scope: 'global' | 'local' | 'others'): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.signOut({ scope });
  if (error) throw error;
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSettled: (_data, _error, scope) => {
      // Nothing read for this account may show to whoever signs in next in this tab.
      if (scope !== 'others') queryClient.removeQueries({ queryKey: authKeys.all });
      else return queryClient.invalidateQueries({ queryKey: authKeys.sessionLists() });
    },
  });
}
