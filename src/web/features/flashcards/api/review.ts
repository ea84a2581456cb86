/**
 * A review session's reads and writes: the due cards (of a deck or of all) and the decks'
 * names and retention, from the server or, offline, from the copy kept on this device
 * (decision 0181); a rating (sent at once, or queued on the device when there is no answer:
 * `rateCard` in lib/offline); undo.
 */
import { useQuery } from '@tanstack/react-query';
import { savedCards, savedDecks } from '@/lib/offline/device-store';
import { getSupabase } from '@/lib/supabase';
import { isOnline } from '@/lib/use-online';
import { cardColumns, type CardRow } from './cards';
import { getDecks, type Deck } from './decks';
import { flashcardKeys, serviceError } from './flashcard-keys';

/** Learning cards due within this many minutes come back in the same session (Anki's rule). */
export const LEARN_AHEAD_MINUTES = 20;
const SESSION_LIMIT = 500;

const learnAheadCutoff = () => new Date(Date.now() + LEARN_AHEAD_MINUTES * 60_000).toISOString();

/** The cards kept on this device that are due, as the server would list them. */
async function keptDueCards(userId: string, deckId: string | null): Promise<CardRow[]> {
  const until = learnAheadCutoff();
  return (await savedCards(userId))
    .filter((card) => !card.suspended && card.due <= until && (!deckId || card.deck_id === deckId))
    .slice(0, SESSION_LIMIT);
}

export async function getDueCards(userId: string, deckId: string | null): Promise<CardRow[]> {
  if (!isOnline()) return keptDueCards(userId, deckId);
  const client = await getSupabase();
  let query = client
    .from('flashcards')
    .select(cardColumns)
    .eq('suspended', false)
    .lte('due', learnAheadCutoff())
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
    queryFn: () => getDueCards(userId, deckId),
    // Offline the kept copy answers, so the query runs without a network.
    networkMode: 'always',
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
}

/** What a review session needs of a deck. */
export type ReviewDeck = Pick<Deck, 'id' | 'name' | 'desiredRetention'>;

async function getReviewDecks(userId: string): Promise<ReviewDeck[]> {
  if (!isOnline()) return savedDecks(userId);
  return getDecks();
}

export function useReviewDecks(userId: string) {
  return useQuery({
    queryKey: flashcardKeys.reviewDecks(userId),
    queryFn: () => getReviewDecks(userId),
    networkMode: 'always',
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
}

export async function undoReview(reviewId: string): Promise<CardRow> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('undo_flashcard_review', { review_id: reviewId });
  if (error) throw serviceError(error);
  return data as CardRow;
}
