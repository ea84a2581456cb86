/**
 * A lesson's ePub from the private course-files bucket, unpacked in the browser and checked
 * (decision 0165): the reader renders only a book that opened; a damaged or DRM-protected one
 * comes back as an EpubOpenError whose message the reader shows as it is.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { EpubOpenError, unpackEpub } from '../epub-archive';
import { epubKeys } from './epub-keys';

export async function getEpubBook(path: string): Promise<Map<string, Uint8Array>> {
  const client = await getSupabase();
  const { data, error } = await client.storage.from('course-files').download(path);
  if (error) throw new Error(`The book could not be downloaded: ${error.message}`);
  return unpackEpub(new Uint8Array(await data.arrayBuffer()));
}

export function useEpubBook(userId: string, path: string) {
  return useQuery({
    queryKey: epubKeys.book(userId, path),
    queryFn: () => getEpubBook(path),
    // A book that cannot be opened will not open on a second try; a network failure might.
    retry: (count, error) => !(error instanceof EpubOpenError) && count < 2,
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
