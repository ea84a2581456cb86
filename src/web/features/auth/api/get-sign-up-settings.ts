import { useQuery } from '@tanstack/react-query';

export interface SignUpSettings {
  /** The beta gate (BETA_GATE): sign-up needs a coupon. */
  betaGate: boolean;
}

export const signUpSettingsKeys = { all: ['sign-up-settings'] as const };

/** Whether this deployment's sign-up asks for a coupon, from the server's client configuration. */
export async function getSignUpSettings(): Promise<SignUpSettings> {
  const response = await fetch('/client-config.json');
  if (!response.ok)
    throw new Error(`Could not load the sign-up settings (HTTP ${response.status})`);
  const config = (await response.json()) as { betaGate?: unknown };
  return { betaGate: config.betaGate === true };
}

export function useSignUpSettings() {
  return useQuery({
    queryKey: signUpSettingsKeys.all,
    queryFn: getSignUpSettings,
    staleTime: Infinity,
  });
}
