import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

/**
 * Creates the user's ten recovery codes, or replaces the set (`replace`), and returns them:
 * the only time they can be read. Needs an aal2 session.
 */
export async function createRecoveryCodes(replace: boolean): Promise<string[]> {
  const client = await startAuth();
  const codes = client.auth.mfa.recoveryCodes;
  const { data, error } = replace ? await codes.regenerate() : await codes.generate();
  if (error) throw error;
  return data.codes;
}

export function useCreateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });
}
