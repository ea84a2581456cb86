import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

/** Starts an email change; it takes effect when the link mailed to the new address is opened. */
export async function changeEmail(email: string): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.updateUser(
    { email: email.trim() },
    { emailRedirectTo: `${window.location.origin}/account` },
  );
  if (error) throw error;
}

export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeEmail,
    // The user now has a pending address to show.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.users() }),
  });
}
