import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteDeviceData } from '@/lib/offline/device-store';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

/**
 * Ends every session of the user ('global'), this one ('local'), or all but this one
 * ('others'). Signing out here also deletes what this device kept for the user's offline study
 * (decision 0181); a session that merely expires keeps it.
 */
export async function signOut(scope: 'global' | 'local' | 'others'): Promise<void> {
  const client = await startAuth();
  const userId = (await client.auth.getSession()).data.session?.user.id;
  const { error } = await client.auth.signOut({ scope });
  if (error) throw error;
  if (userId && scope !== 'others') await deleteDeviceData(userId);
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
