/** The learner's flashcard statistics, from `flashcard_statistics` (decision 0162). */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { DayReviews, RetentionCounts } from '../review-statistics';
import { flashcardKeys, serviceError } from './flashcard-keys';

export const STATISTICS_DAYS = 182;

export interface FlashcardStatistics {
  today: string;
  first_day: string;
  time_zone: string;
  per_day: DayReviews[];
  retention: { last_30_days: RetentionCounts; all_time: RetentionCounts };
  cards: Record<'new' | 'learning' | 'review' | 'relearning' | 'suspended' | 'due_today', number>;
}

export async function getFlashcardStatistics(deckId: string | null): Promise<FlashcardStatistics> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('flashcard_statistics', {
    days: STATISTICS_DAYS,
    deck_id: deckId,
  });
  if (error) throw serviceError(error);
  return data as FlashcardStatistics;
}

export function useFlashcardStatistics(userId: string, deckId: string | null) {
  return useQuery({
    queryKey: [...flashcardKeys.user(userId), 'statistics', deckId ?? 'all'],
    queryFn: () => getFlashcardStatistics(deckId),
  });
}
