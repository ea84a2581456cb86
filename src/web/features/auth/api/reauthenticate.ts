import { useMutation } from '@tanstack/react-query';
import { startAuth } from '../auth-store';

/** Mails the user a one-time code that confirms a sensitive change (a password change). */
export async function reauthenticate(): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.reauthenticate();
  if (error) throw error;
}

export function useReauthenticate() {
  return useMutation({ mutationFn: reauthenticate });
}
