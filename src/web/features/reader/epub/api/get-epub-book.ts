/**
 * A lesson's ePub, fetched from its short-lived address in the private course-files bucket,
 * unpacked in the browser and checked (decision 0165): the reader renders only a book that
 * opened; a damaged or DRM-protected one comes back as an EpubOpenError whose message the
 * reader shows as it is.
 */
import { useQuery } from '@tanstack/react-query';
import { EpubOpenError, unpackEpub } from '../epub-archive';
import { epubKeys } from './epub-keys';

export async function getEpubBook(fileUrl: string): Promise<Map<string, Uint8Array>> {
  const response = await fetch(fileUrl);
  if (!response.ok) {
    throw new Error(`The book could not be downloaded (HTTP ${response.status}).`);
  }
  return unpackEpub(new Uint8Array(await response.arrayBuffer()));
}

export function useEpubBook(userId: string, filePath: string, fileUrl: string) {
  return useQuery({
    queryKey: epubKeys.book(userId, filePath),
    queryFn: () => getEpubBook(fileUrl),
    // A book that cannot be opened will not open on a second try; a network failure might.
    retry: (count, error) => !(error instanceof EpubOpenError) && count < 2,
    staleTime: Infinity,
    gcTime: 0,
  });
}
