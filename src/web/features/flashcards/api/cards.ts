/** A deck's cards, and the writes of a card's content (never its schedule: decision 0160). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CardSchedule } from '@common/flashcards';
import { getSupabase } from '@/lib/supabase';
import type { CardSides } from '../card-sides';
import { flashcardKeys, serviceError } from './flashcard-keys';

export type CardRow = CardSchedule & {
  id: string;
  deck_id: string;
  front: string;
  back: string;
  suspended: boolean;
  source: string;
};

export const cardColumns =
  'id, deck_id, front, back, suspended, source, state, due, stability, difficulty, ' +
  'scheduled_days, learning_steps, reps, lapses, last_review';

export async function getDeckCards(deckId: string): Promise<CardRow[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('flashcards')
    .select(cardColumns)
    .eq('deck_id', deckId)
    .order('created_at')
    .limit(2000);
  if (error) throw serviceError(error);
  return data as unknown as CardRow[];
}

/** Every card's two sides, in the order they were made, for a deck's export. */
export async function getAllDeckSides(deckId: string): Promise<CardSides[]> {
  const client = await getSupabase();
  const sides: CardSides[] = [];
  const page = 1000;
  for (let from = 0; ; from += page) {
    const { data, error } = await client
      .from('flashcards')
      .select('front, back')
      .eq('deck_id', deckId)
      .order('created_at')
      .order('id')
      .range(from, from + page - 1);
    if (error) throw serviceError(error);
    sides.push(...(data as CardSides[]));
    if (data.length < page) return sides;
  }
}

export function useDeckCards(userId: string, deckId: string) {
  return useQuery({
    queryKey: flashcardKeys.deckCards(userId, deckId),
    queryFn: () => getDeckCards(deckId),
  });
}

export interface NewCard {
  /** Null: the database puts the card in the owner's personal deck "My cards" (decision 0160). */
  deckId: string | null;
  front: string;
  back: string;
  source: 'typed' | 'note' | 'highlight' | 'question';
  noteId?: string | null;
  highlightId?: string | null;
}

export async function createCard(card: NewCard): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('flashcards')
    .insert({
      deck_id: card.deckId,
      front: card.front,
      back: card.back,
      source: card.source,
      note_id: card.noteId ?? null,
      highlight_id: card.highlightId ?? null,
    })
    .select('id')
    .single();
  if (error) throw serviceError(error);
  return (data as { id: string }).id;
}

// REST takes bodies up to 1 MB; a batch stays well under it even with JSON's escapes.
const IMPORT_BATCH_BYTES = 600 * 1024;

/**
 * Adds imported cards to a deck, all or none: batches that fit the REST body limit, and when one
 * fails the batches already written are deleted again before the error is thrown.
 */
export async function importCards(deckId: string, cards: readonly CardSides[]): Promise<number> {
  const client = await getSupabase();
  const batches: { deck_id: string; front: string; back: string; source: 'import' }[][] = [[]];
  let batchBytes = 0;
  for (const card of cards) {
    const row = { deck_id: deckId, front: card.front, back: card.back, source: 'import' as const };
    const bytes = JSON.stringify(row).length;
    if (batchBytes + bytes > IMPORT_BATCH_BYTES && batches.at(-1)!.length > 0) {
      batches.push([]);
      batchBytes = 0;
    }
    batches.at(-1)!.push(row);
    batchBytes += bytes;
  }
  const written: string[] = [];
  for (const batch of batches) {
    const { data, error } = await client.from('flashcards').insert(batch).select('id');
    if (error) {
      // Ids in the query string: a few hundred at a time keep the address short.
      for (let i = 0; i < written.length; i += 200)
        await client
          .from('flashcards')
          .delete()
          .in('id', written.slice(i, i + 200));
      throw serviceError(error);
    }
    written.push(...(data as { id: string }[]).map((row) => row.id));
  }
  return written.length;
}

export function useImportCards(userId: string, deckId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cards: readonly CardSides[]) => importCards(deckId, cards),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flashcardKeys.user(userId) }),
  });
}

export type CardChange = Partial<{
  front: string;
  back: string;
  suspended: boolean;
  deck_id: string;
}>;

export async function updateCard(id: string, change: CardChange): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.from('flashcards').update(change).eq('id', id);
  if (error) throw serviceError(error);
}

export async function deleteCard(id: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.from('flashcards').delete().eq('id', id);
  if (error) throw serviceError(error);
}

export function useCreateCard(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCard,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flashcardKeys.user(userId) }),
  });
}

/** Changes a card; the lists refresh, but a review session keeps its own queue. */
export function useUpdateCard(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: CardChange }) => updateCard(id, change),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: flashcardKeys.decks(userId) }).then(() =>
        queryClient.invalidateQueries({
          predicate: (q) => q.queryKey[2] === 'deck-cards' && q.queryKey[1] === userId,
        }),
      ),
  });
}

export function useDeleteCard(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCard,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flashcardKeys.user(userId) }),
  });
}
