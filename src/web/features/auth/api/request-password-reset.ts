import { useMutation } from '@tanstack/react-query';
import { startAuth } from '../auth-store';

/**
 * Asks for a reset link to /reset-password. The service answers alike for unknown addresses,
 * so success says nothing about whether the account exists.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.resetPasswordForEmail(email.trim(), {
    redirectTo: `${window.location.origin}/reset-password`,
  });
  if (error) throw error;
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
