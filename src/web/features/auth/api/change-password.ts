import { useMutation } from '@tanstack/react-query';
import { startAuth } from '../auth-store';

export interface ChangePasswordInput {
  password: string;
  /** The code from the reauthentication mail, when the service asked for one. */
  nonce?: string;
}

/**
 * Sets a new password. A session older than the service allows fails with the code
 * `reauthentication_needed`: then send the code (reauthenticate.ts) and call again with it.
 */
export async function changePassword({ password, nonce }: ChangePasswordInput): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.updateUser(
    nonce === undefined ? { password } : { password, nonce: nonce.trim() },
  );
  if (error) throw error;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
