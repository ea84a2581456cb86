import { useQuery } from '@tanstack/react-query';
import { getClientConfig } from '@/lib/client-config';

export interface SignUpSettings {
  /** The beta gate (BETA_GATE): sign-up needs a coupon. */
  betaGate: boolean;
}

export const signUpSettingsKeys = { all: ['sign-up-settings'] as const };

/** Whether this deployment's sign-up asks for a coupon, from the server's client configuration. */
export async function getSignUpSettings(): Promise<SignUpSettings> {
  const { betaGate } = await getClientConfig();
  return { betaGate };
}

export function useSignUpSettings() {
  return useQuery({
    queryKey: signUpSettingsKeys.all,
    queryFn: getSignUpSettings,
    staleTime: Infinity,
  });
}
