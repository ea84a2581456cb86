/**
 * Opens a PDF lesson's file at a page in a new tab: a short-lived signed address with the
 * `#page=` fragment, which the browser's PDF viewer honours.
 */
import { getSupabase } from '@/lib/supabase';

export async function fileAddressAt(path: string, page: number | null): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client.storage.from('course-files').createSignedUrl(path, 600);
  if (error) throw new Error(error.message);
  return page ? `${data.signedUrl}#page=${page}` : data.signedUrl;
}
