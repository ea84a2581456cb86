/** A short-lived download address for a PDF or ePub lesson in the private course-files bucket. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

const LINK_SECONDS = 600;

export async function getLessonFileUrl(path: string): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client.storage
    .from('course-files')
    .createSignedUrl(path, LINK_SECONDS, { download: true });
  if (error) throw serviceError(error);
  return data.signedUrl;
}

export function useLessonFileUrl(userId: string, path: string | null) {
  return useQuery({
    queryKey: learnKeys.lessonFile(userId, path ?? ''),
    queryFn: () => getLessonFileUrl(path!),
    enabled: path !== null,
    // Renewed well before the link expires.
    staleTime: (LINK_SECONDS / 2) * 1000,
  });
}
