/** How many of the learner's flashcards are due now (not suspended), for the dashboard. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export async function getFlashcardsDue(): Promise<number> {
  const client = await getSupabase();
  const { count, error } = await client
    .from('flashcards')
    .select('id', { count: 'exact', head: true })
    .eq('suspended', false)
    .lte('due', new Date().toISOString());
  if (error) throw serviceError(error);
  return count ?? 0;
}

export function useFlashcardsDue(userId: string) {
  return useQuery({
    queryKey: [...learnKeys.user(userId), 'flashcards-due'],
    queryFn: getFlashcardsDue,
  });
}
