/**
 * Second factors besides the authenticator app (decision 0055), through supabase-js's
 * `auth.mfa`: text-message codes (phone factors) and security keys (WebAuthn factors). Which
 * of them the service offers comes from `/client-config.json`.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Factor } from '@supabase/supabase-js';
import { getClientConfig, type FactorSwitch } from '@/lib/client-config';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';

export const mfaSwitchesKey = ['mfa-switches'] as const;

/** Whether phone and WebAuthn factors can be added and asked for on this deployment. */
export function useMfaSwitches() {
  return useQuery({
    queryKey: mfaSwitchesKey,
    queryFn: async () => (await getClientConfig()).mfa,
    staleTime: Infinity,
  });
}

/** A section can add a factor only when the service both enrols and verifies it. */
export const canAdd = (s: FactorSwitch | undefined) => !!s && s.enroll && s.verify;

export interface SignInFactors {
  totp: string | null;
  phone: { id: string; phone: string }[];
  webauthn: { id: string; name: string }[];
  recoveryCodes: boolean;
}

/** The verified factors the sign-in's second step can ask for. */
export async function getSignInFactors(): Promise<SignInFactors> {
  const client = await startAuth();
  const { data, error } = await client.auth.mfa.listFactors();
  if (error) throw error;
  const all = data.all as Factor[];
  return {
    totp: data.totp[0]?.id ?? null,
    phone: all
      .filter((f) => f.factor_type === 'phone' && f.status === 'verified')
      .map((f) => ({ id: f.id, phone: (f as { phone?: string }).phone ?? '' })),
    webauthn: all
      .filter((f) => f.factor_type === 'webauthn' && f.status === 'verified')
      .map((f) => ({ id: f.id, name: f.friendly_name || 'Security key' })),
    recoveryCodes: all.some((f) => (f.factor_type as string) === 'recovery_code'),
  };
}

export function useSignInFactors(userId: string) {
  return useQuery({
    queryKey: [...authKeys.all, 'sign-in-factors', userId],
    queryFn: getSignInFactors,
    retry: false,
  });
}

async function dropUnfinished(factors: Factor[], type: 'phone' | 'webauthn') {
  const client = await startAuth();
  for (const stale of factors.filter((f) => f.factor_type === type && f.status !== 'verified')) {
    await client.auth.mfa.unenroll({ factorId: stale.id });
  }
}

/** Adds `phone` (E.164) as an unverified factor and texts it a code. */
export async function enrolPhone({
  phone,
  factors,
}: {
  phone: string;
  factors: Factor[];
}): Promise<{ factorId: string; challengeId: string }> {
  await dropUnfinished(factors, 'phone');
  const client = await startAuth();
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'phone', phone });
  if (error) throw error;
  try {
    return { factorId: data.id, challengeId: await textCode(data.id) };
  } catch (textError) {
    // Nothing was texted: the number is not left half-added.
    await client.auth.mfa.unenroll({ factorId: data.id });
    throw textError;
  }
}

/** Texts a fresh code to a phone factor; the challenge it is verified against. */
export async function textCode(factorId: string): Promise<string> {
  const client = await startAuth();
  const { data, error } = await client.auth.mfa.challenge({ factorId, channel: 'sms' });
  if (error) throw error;
  return data.id;
}

/** Verifies a texted code: confirms a new number, or raises the session to aal2. */
export async function verifyPhoneCode(input: {
  factorId: string;
  challengeId: string;
  code: string;
}): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.mfa.verify({ ...input, code: input.code.trim() });
  if (error) throw error;
}

/** Creates a credential on a security key or this device and registers it as a factor. */
export async function addSecurityKey(factors: Factor[]): Promise<void> {
  await dropUnfinished(factors, 'webauthn');
  const taken = new Set(factors.map((f) => f.friendly_name));
  let n = 1;
  while (taken.has(`Security key ${n}`)) n += 1;
  const client = await startAuth();
  const { error } = await client.auth.mfa.webauthn.register({ friendlyName: `Security key ${n}` });
  if (error) throw error;
}

/** The second step with a security key: the browser asks for it, the session becomes aal2. */
export async function verifyWithSecurityKey(factorId: string): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.mfa.webauthn.authenticate({ factorId });
  if (error) throw error;
}

export async function removeFactor(factorId: string): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.mfa.unenroll({ factorId });
  if (error) throw error;
}

/** A mutation that refreshes the user's factors (settings and the sign-in step) once done. */
function useFactorMutation<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });
}

export const useEnrolPhone = () => useFactorMutation(enrolPhone);
export const useTextCode = () => useMutation({ mutationFn: textCode });
export const useVerifyPhoneCode = () => useFactorMutation(verifyPhoneCode);
export const useAddSecurityKey = () => useFactorMutation(addSecurityKey);
export const useVerifyWithSecurityKey = () => useFactorMutation(verifyWithSecurityKey);
export const useRemoveFactor = () => useFactorMutation(removeFactor);
