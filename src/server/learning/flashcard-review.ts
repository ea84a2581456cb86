/**
 * One flashcard rating (decision 0160): in one transaction under the caller's role, the card
 * is read and locked through row-level security (a card that is not the caller's is simply not
 * there), its next FSRS state is computed here with ts-fsrs, and
 * `learning.record_flashcard_review` logs the review and moves the card. Clients cannot write
 * either themselves, so a review in the log is one this code computed.
 */
import {
  nextSchedule,
  type CardSchedule,
  type RatingValue,
  type ReviewInput,
} from '../../common/flashcards';
import { checkReviewTime, lateReviewApplies } from '../../common/offline-reviews';
import type { Database, JwtClaims } from '../db/types';

export class FlashcardError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 422,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ReviewedCard extends CardSchedule {
  id: string;
  deck_id: string;
}

export interface ReviewResult {
  reviewId: string;
  card: ReviewedCard;
  /** Set when this rating's opId had been recorded already: nothing new was written. */
  replayed?: true;
}

type LockedCard = CardSchedule & {
  id: string;
  deck_id: string;
  suspended: boolean;
  desired_retention: string;
};

const scheduleColumns =
  'c.id, c.deck_id, c.state, c.due, c.stability, c.difficulty, c.scheduled_days, ' +
  'c.learning_steps, c.reps, c.lapses, c.last_review';

/** The database's refusals, as the answers the review screen shows. */
function mapDatabaseError(error: unknown): never {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'P0002') throw new FlashcardError(404, 'not_found', 'No such card');
  if (code === '55000') throw new FlashcardError(409, 'suspended', message);
  if (code === '40001') throw new FlashcardError(409, 'stale', message);
  if (code === '23505') throw opReused();
  throw error;
}

const opReused = () =>
  new FlashcardError(409, 'op_reused', 'This opId belongs to another rating; make a new one.');

const iso = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : value instanceof Date
      ? value.toISOString()
      : new Date(String(value)).toISOString();

function pickSchedule(card: CardSchedule): CardSchedule {
  return {
    state: card.state,
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    scheduled_days: card.scheduled_days,
    learning_steps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    last_review: card.last_review,
  };
}

export async function reviewFlashcard(
  db: Database,
  claims: JwtClaims,
  input: ReviewInput,
  now = new Date(),
): Promise<ReviewResult> {
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string')
    throw new FlashcardError(403, 'forbidden', 'Sign in to review your cards.');
  let reviewedAt = now;
  if (input.reviewedAt !== undefined) {
    const checked = checkReviewTime(input.reviewedAt, now);
    if (!checked.ok) throw new FlashcardError(422, checked.reason, checked.message);
    reviewedAt = checked.reviewedAt;
  }
  return db
    .asRole(claims, async (tx) => {
      const { rows } = await tx.query<LockedCard>(
        `select ${scheduleColumns}, c.suspended, d.desired_retention::text
           from public.flashcards c
           join public.flashcard_decks d on d.id = c.deck_id
          where c.id = $1
          for update of c`,
        [input.cardId],
      );
      const card = rows[0];
      if (!card) throw new FlashcardError(404, 'not_found', 'No such card');
      const current = { ...card, due: iso(card.due)!, last_review: iso(card.last_review) };
      if (input.opId !== undefined) {
        // Looked up under the card's lock, so two sends of one rating cannot both write it.
        const earlier = await tx.query<{ id: string; card_id: string }>(
          `select id, card_id from public.flashcard_reviews where client_op_id = $1`,
          [input.opId],
        );
        if (earlier.rows[0] && earlier.rows[0].card_id !== card.id) throw opReused();
        if (earlier.rows[0]) {
          return {
            reviewId: earlier.rows[0].id,
            card: { ...pickSchedule(current), id: card.id, deck_id: card.deck_id },
            replayed: true as const,
          };
        }
      }
      if (card.suspended)
        throw new FlashcardError(
          409,
          'suspended',
          'This card is suspended; unsuspend it to review it.',
        );
      if (input.reviewedAt !== undefined && !lateReviewApplies(current.last_review, reviewedAt))
        throw new FlashcardError(
          409,
          'superseded',
          'This card was reviewed later on another device; that review’s schedule stands.',
        );
      const { schedule, elapsedDays } = nextSchedule(
        pickSchedule(current),
        Number(card.desired_retention),
        input.rating as RatingValue,
        reviewedAt,
      );
      const written = await tx.query<{ id: string }>(
        `select (learning.record_flashcard_review($1, $2::smallint, $3, $4, $5, $6::jsonb, $7)).id`,
        [
          input.cardId,
          input.rating,
          reviewedAt.toISOString(),
          card.reps,
          elapsedDays,
          JSON.stringify(schedule),
          input.opId ?? null,
        ],
      );
      return {
        reviewId: written.rows[0]!.id,
        card: { id: card.id, deck_id: card.deck_id, ...schedule },
      };
    })
    .catch(mapDatabaseError);
}
