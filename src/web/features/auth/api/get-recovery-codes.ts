/** How many of the user's MFA recovery codes are left; null when none were ever created. */
import { useQuery } from '@tanstack/react-query';
import { isAuthError } from '@supabase/supabase-js';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

export interface RecoveryCodesStatus {
  total: number;
  remaining: number;
}

export async function getRecoveryCodesStatus(): Promise<RecoveryCodesStatus | null> {
  const client = await startAuth();
  const { data, error } = await client.auth.mfa.recoveryCodes.getStatus();
  if (isAuthError(error) && error.code === 'mfa_factor_not_found') return null;
  if (error) throw error;
  return { total: data.total, remaining: data.remaining };
}

export function useRecoveryCodesStatus(userId: string, options: { enabled: boolean }) {
  return useQuery({
    queryKey: authKeys.recoveryCodes(userId),
    queryFn: getRecoveryCodesStatus,
    enabled: options.enabled,
    retry: false,
  });
}
