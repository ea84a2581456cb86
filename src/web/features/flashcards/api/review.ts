/**
 * A review session's reads and writes: the due cards (of a deck or of all), a rating through
 * the flashcards function, which schedules it with FSRS on the server, and undo.
 */
import { useQuery } from '@tanstack/react-query';
import type { RatingValue } from '@common/flashcards';
import { getSupabase } from '@/lib/supabase';
import { cardColumns, type CardRow } from './cards';
import { flashcardKeys, serviceError } from './flashcard-keys';

/** Learning cards due within this many minutes come back in the same session (Anki's rule). */
export const LEARN_AHEAD_MINUTES = 20;
const SESSION_LIMIT = 500;

export async function getDueCards(deckId: string | null): Promise<CardRow[]> {
  const client = await getSupabase();
  let query = client
    .from('flashcards')
    .select(cardColumns)
    .eq('suspended', false)
    .lte('due', new Date(Date.now() + LEARN_AHEAD_MINUTES * 60_000).toISOString())
    .order('due')
    .limit(SESSION_LIMIT);
  if (deckId) query = query.eq('deck_id', deckId);
  const { data, error } = await query;
  if (error) throw serviceError(error);
  return data as unknown as CardRow[];
}

/** The queue is read once per session: ratings change it locally, not by refetching. */
export function useDueCards(userId: string, deckId: string | null) {
  return useQuery({
    queryKey: flashcardKeys.due(userId, deckId),
    queryFn: () => getDueCards(deckId),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
}

export interface ReviewAnswer {
  reviewId: string;
  card: CardRow;
}

export async function reviewCard(cardId: string, rating: RatingValue): Promise<ReviewAnswer> {
  const client = await getSupabase();
  const { data, error } = await client.functions.invoke<ReviewAnswer>('flashcards/review', {
    body: { cardId, rating },
  });
  if (error) {
    const context = (error as { context?: Response }).context;
    const body = context
      ? ((await context.json().catch(() => null)) as { error?: string } | null)
      : null;
    throw new Error(body?.error ?? error.message);
  }
  return data as ReviewAnswer;
}

export async function undoReview(reviewId: string): Promise<CardRow> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('undo_flashcard_review', { review_id: reviewId });
  if (error) throw serviceError(error);
  return data as CardRow;
}
