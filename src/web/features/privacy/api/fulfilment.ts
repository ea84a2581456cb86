/**
 * Fulfilling data requests (decision 0421) through /functions/v1/privacy: an admin queues an
 * export or an erasure; the person lists their exports and downloads one through a signed
 * link that works only with their own session.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getClientConfig } from '@/lib/client-config';
import { downloadBlob } from '@/lib/download';
import { getSupabase } from '@/lib/supabase';
import { privacyKeys } from './privacy-keys';

export interface DataExport {
  id: string;
  request_id: string | null;
  status: 'queued' | 'ready' | 'failed' | 'expired';
  size_bytes: number | null;
  created_at: string;
  ready_at: string | null;
  expires_at: string | null;
}

/** One call to the privacy function with the signed-in session; its refusals as errors. */
async function callPrivacy(
  path: string,
  init: { method: 'GET' | 'POST'; body?: object } = { method: 'GET' },
) {
  const [client, config] = await Promise.all([getSupabase(), getClientConfig()]);
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('Sign in again to continue.');
  const response = await fetch(`${config.apiUrl}/functions/v1/privacy${path}`, {
    method: init.method,
    headers: {
      apikey: config.anonKey,
      authorization: `Bearer ${token}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    throw new Error(answer.error ?? `The request failed (HTTP ${response.status}).`);
  }
  return response;
}

export function useMyExports(userId: string) {
  return useQuery({
    queryKey: [...privacyKeys.user(userId), 'exports'],
    queryFn: async () => (await (await callPrivacy('/exports')).json()) as DataExport[],
    // A queued export becomes ready within moments; look again until it is.
    refetchInterval: (query) =>
      query.state.data?.some((e) => e.status === 'queued') ? 3000 : false,
  });
}

export function useFulfilRequest(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ kind, requestId }: { kind: 'export' | 'erasure'; requestId: string }) => {
      await callPrivacy(kind === 'export' ? '/exports' : '/erasures', {
        method: 'POST',
        body: { requestId },
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: privacyKeys.user(userId) }),
  });
}

/** Asks for a fresh signed link, downloads the zip with the session and saves it. */
export async function downloadExport(exportId: string): Promise<void> {
  const link = (await (await callPrivacy(`/exports/${exportId}/link`)).json()) as { url: string };
  const path = link.url.replace(/^\/functions\/v1\/privacy/, '');
  const response = await callPrivacy(path);
  const filename =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    'lyceum-data.zip';
  downloadBlob(filename, await response.blob());
}
