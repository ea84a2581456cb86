import { useMutation } from '@tanstack/react-query';
import { startAuth } from '../auth-store';

/** Mails the sign-up confirmation link again. */
export async function resendConfirmation(email: string): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.resend({
    type: 'signup',
    email: email.trim(),
    options: { emailRedirectTo: `${window.location.origin}/auth/confirm` },
  });
  if (error) throw error;
}

export function useResendConfirmation() {
  return useMutation({ mutationFn: resendConfirmation });
}
