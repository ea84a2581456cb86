/** A short-lived download address for a PDF or ePub lesson in the private course-files bucket. */
import { useQuery } from '@tanstack/react-query';
import { lessonFileName } from '@/lib/lesson-file-name';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

const LINK_SECONDS = 600;

export async function getLessonFileUrl(path: string): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client.storage
    .from('course-files')
    // Saved under the name the instructor gave it, not the stored object's unique name.
    .createSignedUrl(path, LINK_SECONDS, { download: lessonFileName(path) });
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
