/**
 * The organization's single sign-on (/functions/v1/org-sso, decision 0034): the SP details to
 * give the IdP and the registered providers; registering, changing and removing one.
 * Refusals carry the server's message, which names what was wrong.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SsoProvider, SsoProviderInput, SsoSettings } from '@common/sso';
import { getSupabase } from '@/lib/supabase';
import { orgAdminKeys } from './org-admin-keys';

const ssoQueryKey = (organizationId: string) =>
  [...orgAdminKeys.organization(organizationId), 'sso'] as const;

async function callSso<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: object) {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke(`org-sso${path}`, {
    method,
    body: body as Record<string, unknown> | undefined,
  });
  if (!error) return data as T;
  const response = (error as { context?: unknown }).context;
  if (!(response instanceof Response)) throw new Error(error.message);
  let answer: { error?: string } | undefined;
  try {
    answer = (await response.json()) as typeof answer;
  } catch {
    answer = undefined;
  }
  throw new Error(answer?.error ?? `The request failed (HTTP ${response.status}).`);
}

const orgPath = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}`;

export function useSsoSettings(organizationId: string) {
  return useQuery({
    queryKey: ssoQueryKey(organizationId),
    queryFn: () => callSso<SsoSettings>('GET', orgPath(organizationId)),
  });
}

export function useSaveSsoProvider(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: SsoProviderInput }) =>
      id
        ? callSso<SsoProvider>(
            'PUT',
            `${orgPath(organizationId)}/providers/${encodeURIComponent(id)}`,
            input,
          )
        : callSso<SsoProvider>('POST', `${orgPath(organizationId)}/providers`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ssoQueryKey(organizationId) }),
  });
}

export function useRemoveSsoProvider(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      callSso<{ id: string }>(
        'DELETE',
        `${orgPath(organizationId)}/providers/${encodeURIComponent(id)}`,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ssoQueryKey(organizationId) }),
  });
}
