/** The data room page's reads: overview figures, the document registry and one document. */
import { useQuery } from '@tanstack/react-query';
import type { DataRoomDocument, DataRoomOverview } from '@common/data-room';
import { invokeDataRoom } from './data-room-client';

export const dataRoomKeys = {
  all: ['data-room'] as const,
  overview: () => [...dataRoomKeys.all, 'overview'] as const,
  documents: () => [...dataRoomKeys.all, 'documents'] as const,
};

export function useDataRoomOverview(enabled: boolean) {
  return useQuery({
    queryKey: dataRoomKeys.overview(),
    queryFn: () => invokeDataRoom<DataRoomOverview>('data-room/overview'),
    enabled,
    retry: false,
  });
}

export function useDataRoomDocuments(enabled: boolean) {
  return useQuery({
    queryKey: dataRoomKeys.documents(),
    queryFn: async () =>
      (await invokeDataRoom<{ documents: DataRoomDocument[] }>('data-room/documents')).documents,
    enabled,
    retry: false,
  });
}

function documentFunctionPath(path: string): string {
  return `data-room/documents/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The document's Markdown; the server records the open against the grant. */
export function fetchDocumentText(path: string): Promise<string> {
  return invokeDataRoom<string>(documentFunctionPath(path));
}

/** The document as a download; the server records it as a download. */
export function fetchDocumentDownload(path: string): Promise<string> {
  return invokeDataRoom<string>(`${documentFunctionPath(path)}?download=1`);
}

/** Ends the grant on the server; the caller forgets it locally either way. */
export async function leaveDataRoom(): Promise<void> {
  await invokeDataRoom<null>('data-room/leave', { method: 'POST' });
}
