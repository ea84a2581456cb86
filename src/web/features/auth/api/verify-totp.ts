import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

export interface VerifyTotpInput {
  factorId: string;
  code: string;
}

/** Verifies a code: confirms a new enrolment, or raises the session to aal2. */
export async function verifyTotp({ factorId, code }: VerifyTotpInput): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.mfa.challengeAndVerify({ factorId, code: code.trim() });
  if (error) throw error;
}

export function useVerifyTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.users() }),
  });
}
