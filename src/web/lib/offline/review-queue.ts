/**
 * The queue of flashcard ratings made offline (decision 0181), as logic apart from where it is
 * kept: what the server's answer to one send means, and sending the queue in the order the
 * ratings were made. Each rating keeps the id it was given when made (`opId`), so a send whose
 * answer was lost is simply sent again: the server finds the first and records nothing twice.
 */
import type { RatingValue } from '@common/flashcards';

export interface QueuedReview {
  /** Made on the device when the card was rated; the server records it once. */
  opId: string;
  /** The account that rated it: only that account's session ever sends it. */
  userId: string;
  cardId: string;
  rating: RatingValue;
  /** When it was rated, by the device's clock. */
  reviewedAt: string;
  /** The card's question, to name it if the server refuses the rating. */
  cardFront: string;
  /** `waiting` to be sent; `refused` when the server will never take it (`reason` says why). */
  status: 'waiting' | 'refused';
  reason?: string;
}

/** What one send came to. */
export type SendOutcome =
  | { kind: 'recorded' }
  /** The server answered and will never take it: the card was deleted, suspended, … */
  | { kind: 'refused'; reason: string }
  /** The session is gone: sign in again, keep the queue. */
  | { kind: 'signed-out' }
  /** No answer, or a passing failure: try again later. */
  | { kind: 'unreachable'; reason: string };

export interface ServerAnswer {
  /** The HTTP status, or null when no answer came (offline, connection dropped). */
  status: number | null;
  body: { error?: string; code?: string } | null;
}

export function outcomeOf({ status, body }: ServerAnswer): SendOutcome {
  if (status === null) return { kind: 'unreachable', reason: 'No connection to Lyceum.' };
  if (status >= 200 && status < 300) return { kind: 'recorded' };
  if (status === 401 || status === 403) return { kind: 'signed-out' };
  if (status === 404) return { kind: 'refused', reason: 'The card was deleted.' };
  if (status === 408 || status === 429 || status >= 500)
    return {
      kind: 'unreachable',
      reason: body?.error ?? `Lyceum could not take it just now (HTTP ${status}).`,
    };
  return { kind: 'refused', reason: body?.error ?? `Refused (HTTP ${status}).` };
}

/** The order ratings are sent in: as they were made, so a card's second rating follows its first. */
export function sendOrder(queue: readonly QueuedReview[], userId: string): QueuedReview[] {
  return queue
    .filter((review) => review.status === 'waiting' && review.userId === userId)
    .sort((a, b) => a.reviewedAt.localeCompare(b.reviewedAt) || a.opId.localeCompare(b.opId));
}

export interface QueueStore {
  list(): Promise<QueuedReview[]>;
  remove(opId: string): Promise<void>;
  refuse(opId: string, reason: string): Promise<void>;
}

export interface DrainResult {
  recorded: number;
  refused: number;
  /** Why sending stopped before the end of the queue, if it did. */
  stopped: null | { kind: 'signed-out' } | { kind: 'unreachable'; reason: string };
}

/**
 * Sends the user's waiting ratings one at a time, oldest first. A recorded rating leaves the
 * queue; a refused one stays, marked with the reason, until the learner dismisses it; no
 * answer or an ended session stops the run with the rest kept for the next one.
 */
export async function drainQueue(
  userId: string,
  store: QueueStore,
  send: (review: QueuedReview) => Promise<SendOutcome>,
): Promise<DrainResult> {
  const result: DrainResult = { recorded: 0, refused: 0, stopped: null };
  for (const review of sendOrder(await store.list(), userId)) {
    const outcome = await send(review);
    if (outcome.kind === 'recorded') {
      await store.remove(review.opId);
      result.recorded += 1;
    } else if (outcome.kind === 'refused') {
      await store.refuse(review.opId, outcome.reason);
      result.refused += 1;
    } else {
      result.stopped = outcome;
      break;
    }
  }
  return result;
}
