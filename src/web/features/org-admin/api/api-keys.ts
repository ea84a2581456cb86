/**
 * The organization's API keys (/functions/v1/api-keys, decision 0610): the list, creating a key
 * (its secret comes back once) and revoking one. Refusals carry the server's message.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, ApiKeyList, CreatedApiKey } from '@common/api-keys';
import { getSupabase } from '@/lib/supabase';
import { orgAdminKeys } from './org-admin-keys';

const apiKeyQueryKey = (organizationId: string) =>
  [...orgAdminKeys.organization(organizationId), 'api-keys'] as const;

export class ApiKeyCallError extends Error {
  constructor(
    message: string,
    public readonly status: number,
  ) {
    super(message);
    this.name = 'ApiKeyCallError';
  }
}

async function callApiKeys<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke(`api-keys${path}`, {
    method,
    body: body as Record<string, unknown> | undefined,
  });
  if (!error) return data as T;
  const response = (error as { context?: unknown }).context;
  if (!(response instanceof Response)) throw new Error(error.message);
  let answer: { error?: string; hint?: string } | undefined;
  try {
    answer = (await response.json()) as typeof answer;
  } catch {
    answer = undefined;
  }
  const message = answer?.error ?? `The request failed (HTTP ${response.status}).`;
  throw new ApiKeyCallError(answer?.hint ? `${message} ${answer.hint}` : message, response.status);
}

const keysPath = (organizationId: string) =>
  `/organizations/${encodeURIComponent(organizationId)}/keys`;

export function useApiKeys(organizationId: string) {
  return useQuery({
    queryKey: apiKeyQueryKey(organizationId),
    queryFn: () => callApiKeys<ApiKeyList>('GET', keysPath(organizationId)),
  });
}

export function useCreateApiKey(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      callApiKeys<CreatedApiKey>('POST', keysPath(organizationId), { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyQueryKey(organizationId) }),
  });
}

export function useRevokeApiKey(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      callApiKeys<{ key: ApiKey }>(
        'POST',
        `${keysPath(organizationId)}/${encodeURIComponent(keyId)}/revoke`,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyQueryKey(organizationId) }),
  });
}
