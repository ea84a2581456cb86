import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Factor } from '@supabase/supabase-js';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

/** Removes the given verified factors; the service requires an aal2 session for it. */
export async function unenrolTotp(factors: Factor[]): Promise<void> {
  const client = await startAuth();
  for (const factor of factors) {
    const { error } = await client.auth.mfa.unenroll({ factorId: factor.id });
    if (error) throw error;
  }
}

export function useUnenrolTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unenrolTotp,
    onSettled: () => queryClient.invalidateQueries({ queryKey: authKeys.users() }),
  });
}
