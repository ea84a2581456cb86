/** The id of the user's TOTP factor, which the sign-in's second step is verified against. */
import { useQuery } from '@tanstack/react-query';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

export async function getTotpFactorId(): Promise<string | null> {
  const client = await startAuth();
  const { data, error } = await client.auth.mfa.listFactors();
  if (error) throw error;
  return data.totp[0]?.id ?? null;
}

export function useTotpFactorId(userId: string) {
  return useQuery({
    queryKey: authKeys.totpFactor(userId),
    queryFn: getTotpFactorId,
    retry: false,
  });
}
