import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getClientConfig } from '@/lib/client-config';
import { startAuth } from '../auth-store';

export interface Passkey {
  id: string;
  friendly_name?: string;
  created_at: string;
  last_used_at?: string;
}

export const passkeyKeys = { all: ['passkeys'] as const, enabled: ['passkeys-enabled'] as const };

/** Whether this deployment offers passkeys (AUTH_PASSKEYS). */
export function usePasskeysEnabled() {
  return useQuery({
    queryKey: passkeyKeys.enabled,
    queryFn: async () => (await getClientConfig()).passkeys,
    staleTime: Infinity,
  });
}

export async function listPasskeys(): Promise<Passkey[]> {
  const client = await startAuth();
  const { data, error } = await client.auth.passkey.list();
  if (error) throw error;
  return (data ?? []) as Passkey[];
}

export function usePasskeys(enabled: boolean) {
  return useQuery({ queryKey: passkeyKeys.all, queryFn: listPasskeys, enabled });
}

/** Creates a passkey on this device (the browser asks how) and registers it. */
export async function addPasskey(): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.registerPasskey();
  if (error) throw error;
}

export async function removePasskey(passkeyId: string): Promise<void> {
  const client = await startAuth();
  const { error } = await client.auth.passkey.delete({ passkeyId });
  if (error) throw error;
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}

/** Signs in with a passkey; `needsTotp` when the account's second factor must follow. */
export async function signInWithPasskey(): Promise<{ needsTotp: boolean }> {
  const client = await startAuth();
  const { error } = await client.auth.signInWithPasskey();
  if (error) throw error;
  const { data: aal } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
  return { needsTotp: !!aal && aal.nextLevel === 'aal2' && aal.currentLevel !== 'aal2' };
}

export function useSignInWithPasskey() {
  return useMutation({ mutationFn: signInWithPasskey });
}
