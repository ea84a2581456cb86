/**
 * Where a library hit opens a book: the chapter's path inside the ePub, as the server's text
 * extraction stored it for the hit's spine position (course_document_pages, decision 0151).
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { epubKeys } from './epub-keys';

export async function getChapterHref(path: string, position: number): Promise<string | null> {
  const client = await getSupabase();
  const document = await client
    .from('course_documents')
    .select('object_id')
    .eq('file_path', path)
    .maybeSingle();
  if (document.error) throw new Error(document.error.message);
  if (!document.data) return null;
  const page = await client
    .from('course_document_pages')
    .select('href')
    .eq('object_id', (document.data as { object_id: string }).object_id)
    .eq('position', position)
    .maybeSingle();
  if (page.error) throw new Error(page.error.message);
  return (page.data as { href: string | null } | null)?.href ?? null;
}

export function useChapterHref(userId: string, path: string, position: number | null) {
  return useQuery({
    queryKey: epubKeys.chapterHref(userId, path, position ?? 0),
    queryFn: () => getChapterHref(path, position!),
    enabled: position !== null,
    staleTime: Infinity,
  });
}
