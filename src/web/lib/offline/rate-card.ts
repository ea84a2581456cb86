/**
 * One flashcard rating from the review screen (decision 0181). It gets its id on the device;
 * online it goes straight to the flashcards function with that id, and when no answer comes
 * (offline, a dropped connection, an ended session) it is queued in the user's device store
 * with the card's next schedule computed here, so the session goes on; `offline-sync.ts`
 * sends the queue later. The id makes a second send of one rating harmless.
 */
import { nextSchedule, type CardSchedule, type RatingValue } from '@common/flashcards';
import { getSupabase } from '@/lib/supabase';
import { isOnline } from '@/lib/use-online';
import {
  deleteQueuedReview,
  deviceStore,
  putQueuedReview,
  putSavedCard,
  type SavedCard,
} from './device-store';
import { refreshQueueStatus } from './offline-sync';

export interface RatedCard {
  /** The server's review id, or the queued rating's id. */
  reviewId: string;
  card: CardSchedule & { id: string; deck_id: string };
  /** Kept on the device to be sent later. */
  queued: boolean;
}

async function keepCopyOf(userId: string, card: SavedCard): Promise<void> {
  const db = await deviceStore(userId);
  if (await db.get('cards', card.id)) await db.put('cards', card);
}

/**
 * One rating of a card. Sent at once when online; queued (and the card's copy on this device
 * moved by the schedule computed here) when offline or when no answer comes. A refusal the
 * server states (the card is suspended, …) is thrown as before.
 */
export async function rateCard(
  userId: string,
  card: SavedCard,
  rating: RatingValue,
  retention: number,
): Promise<RatedCard> {
  const opId = crypto.randomUUID();
  if (isOnline()) {
    const client = await getSupabase();
    const { data, error, response } = await client.functions.invoke<{
      reviewId: string;
      card: RatedCard['card'];
    }>('flashcards/review', { body: { cardId: card.id, rating, opId } });
    if (!error && data) {
      await keepCopyOf(userId, { ...card, ...data.card }).catch(() => undefined);
      return { reviewId: data.reviewId, card: data.card, queued: false };
    }
    const ended = response?.status === 401 || response?.status === 403;
    if (response && !ended) {
      const body = (await response.json().catch(() => null)) as { error?: string } | null;
      throw new Error(body?.error ?? error?.message ?? 'The rating was refused.');
    }
  }
  const now = new Date();
  const { schedule } = nextSchedule(card, retention, rating, now);
  const next = { ...card, ...schedule };
  await putQueuedReview(userId, {
    opId,
    userId,
    cardId: card.id,
    rating,
    reviewedAt: now.toISOString(),
    cardFront: card.front,
    status: 'waiting',
  });
  await putSavedCard(userId, next);
  await refreshQueueStatus(userId);
  return { reviewId: opId, card: next, queued: true };
}

/** Takes back a rating still waiting on this device: the card's copy returns to `before`. */
export async function undoQueuedRating(
  userId: string,
  opId: string,
  before: SavedCard,
): Promise<void> {
  await deleteQueuedReview(userId, opId);
  await putSavedCard(userId, before);
  await refreshQueueStatus(userId);
}
