/**
 * A password change always confirmed by re-authentication, as supabase-js does it:
 * `auth.reauthenticate()` mails a one-time code, then `updateUser({ password, nonce })` sends
 * it with the new password. The service checks the code (decision 0170) and ends every other
 * session of the user.
 */
import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';

export async function sendReauthenticationCode(): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.reauthenticate();
  if (error) throw error;
}

export async function changePassword({
  password,
  nonce,
}: {
  password: string;
  nonce: string;
}): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.auth.updateUser({ password, nonce: nonce.trim() });
  if (error) throw error;
}

export function useSendReauthenticationCode() {
  return useMutation({ mutationFn: sendReauthenticationCode });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
