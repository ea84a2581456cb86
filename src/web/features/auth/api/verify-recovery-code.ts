import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

/** Uses one recovery code instead of the authenticator: raises the session to aal2. */
export async function verifyRecoveryCode(code: string): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.mfa.recoveryCodes.verify({ code: code.trim() });
  if (error) throw error;
}

export function useVerifyRecoveryCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyRecoveryCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });
}
