import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

export interface ChangePasswordInput {
  password: string;
  /** The code from the reauthentication mail, when the service asked for one. */
  nonce?: string;
}

/**
 * Sets a new password; the service then ends every other session of the user. A session older
 * than the service allows fails with the code `reauthentication_needed`: then send the code
 * (reauthenticate.ts) and call again with it. With two-factor on, a session that has not used
 * it fails with `insufficient_aal`.
 */
export async function changePassword({ password, nonce }: ChangePasswordInput): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.updateUser(
    nonce === undefined ? { password } : { password, nonce: nonce.trim() },
  );
  if (error) throw error;
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // The other sessions are gone from the list.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.sessionLists() }),
  });
}
