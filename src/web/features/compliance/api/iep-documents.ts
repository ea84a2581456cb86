/**
 * A learner's IEP documents through /functions/v1/iep (decision 0422). Every list, open,
 * upload and delete is an access to PHI that the server logs with the stated purpose, so the
 * documents are fetched on a person's action (mutations), never refetched in the background.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { getClientConfig } from '@/lib/client-config';
import { downloadBlob } from '@/lib/download';
import { getSupabase } from '@/lib/supabase';
import { complianceKeys } from './compliance-keys';

export interface IepLearner {
  user_id: string;
  display_name: string;
  email: string;
  may_store: boolean;
}

export interface IepDocument {
  id: string;
  title: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  uploaded_at: string;
}

/** One call to the iep function with the signed-in session; its refusals as errors. */
async function callIep(
  path: string,
  init: { method: 'GET' | 'POST' | 'DELETE'; json?: object; form?: FormData } = { method: 'GET' },
): Promise<Response> {
  const [client, config] = await Promise.all([getSupabase(), getClientConfig()]);
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('Sign in again to continue.');
  const response = await fetch(`${config.apiUrl}/functions/v1/iep${path}`, {
    method: init.method,
    headers: {
      apikey: config.anonKey,
      authorization: `Bearer ${token}`,
      ...(init.json ? { 'content-type': 'application/json' } : {}),
    },
    body: init.form ?? (init.json ? JSON.stringify(init.json) : undefined),
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    throw new Error(answer.error ?? `The request failed (HTTP ${response.status}).`);
  }
  return response;
}

/** The learners whose documents the person may handle (names only: no PHI, not logged). */
export function useIepLearners(userId: string, organizationId: string) {
  return useQuery({
    queryKey: [...complianceKeys.scope(userId, organizationId), 'iep-learners'],
    queryFn: async () =>
      (await (
        await callIep(`/learners?organization=${encodeURIComponent(organizationId)}`)
      ).json()) as IepLearner[],
  });
}

export function useListIepDocuments() {
  return useMutation({
    mutationFn: async (input: { learnerId: string; organizationId: string; purpose: string }) =>
      (await (
        await callIep('/documents/list', { method: 'POST', json: input })
      ).json()) as IepDocument[],
  });
}

export function useUploadIepDocument() {
  return useMutation({
    mutationFn: async (input: {
      learnerId: string;
      organizationId: string;
      title: string;
      purpose: string;
      file: File;
    }) => {
      const form = new FormData();
      form.append('learnerId', input.learnerId);
      form.append('organizationId', input.organizationId);
      form.append('title', input.title);
      form.append('purpose', input.purpose);
      form.append('file', input.file, input.file.name);
      return (await (await callIep('/documents', { method: 'POST', form })).json()) as {
        id: string;
      };
    },
  });
}

export function useDeleteIepDocument() {
  return useMutation({
    mutationFn: async (input: { id: string; purpose: string }) => {
      await callIep(`/documents/${input.id}`, {
        method: 'DELETE',
        json: { purpose: input.purpose },
      });
    },
  });
}

/** Opens (downloads) one document; the server logs the view before it sends the file. */
export async function openIepDocument(document: IepDocument, purpose: string): Promise<void> {
  const response = await callIep(`/documents/${document.id}/open`, {
    method: 'POST',
    json: { purpose },
  });
  downloadBlob(document.file_name, await response.blob());
}
