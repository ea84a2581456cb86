/**
 * One flashcard rating (decision 0160): the card is read through row-level security (a card
 * that is not the caller's is simply not there), its next FSRS state is computed here with
 * ts-fsrs, and `learning.record_flashcard_review` logs the review and moves the card under the
 * card's lock, refusing if another rating moved it since the read (decision 0173: two round
 * trips instead of a transaction held open across six). Clients cannot write either
 * themselves, so a review in the log is one this code computed.
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

type ReadCard = LockedCard & { earlier_id: string | null; earlier_card_id: string | null };

/**
 * The card, its deck's retention and the rating already recorded under `opId` (if any), in one
 * statement; nothing is locked: `learning.record_flashcard_review` locks the card and refuses
 * the write if another rating moved it meanwhile (its `reps` changed).
 */
const readCard = `select ${scheduleColumns}, c.suspended, d.desired_retention::text,
          r.id as earlier_id, r.card_id as earlier_card_id
     from public.flashcards c
     join public.flashcard_decks d on d.id = c.deck_id
     left join public.flashcard_reviews r on r.client_op_id = $2::uuid
    where c.id = $1`;

const recordReview = `select (learning.record_flashcard_review($1, $2::smallint, $3, $4, $5, $6::jsonb, $7)).id`;

/** Reads and writes a rating may take: a second try when another rating won the race. */
const ATTEMPTS = 2;

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
  for (let attempt = 1; ; attempt++) {
    try {
      return await reviewOnce(db, claims, input, reviewedAt);
    } catch (error) {
      // Another rating of this card (or another send of this one) was written between the
      // read and the write: read again, which finds it (a replay) or schedules on top of it,
      // as the card's lock did when the read held it.
      const code = (error as { code?: unknown }).code;
      const raced = code === '40001' || (code === '23505' && input.opId !== undefined);
      if (!raced || attempt >= ATTEMPTS) mapDatabaseError(error);
    }
  }
}

/**
 * One rating in two round trips (decision 0173): the card read under the caller's role, FSRS
 * computed here, and the write, which holds the card's lock only while it runs.
 */
async function reviewOnce(
  db: Database,
  claims: JwtClaims,
  input: ReviewInput,
  reviewedAt: Date,
): Promise<ReviewResult> {
  const { rows } = await db.queryAsRole<ReadCard>(
    claims,
    readCard,
    [input.cardId, input.opId ?? null],
    {
      prepare: true,
    },
  );
  const card = rows[0];
  if (!card) throw new FlashcardError(404, 'not_found', 'No such card');
  const current = { ...card, due: iso(card.due)!, last_review: iso(card.last_review) };
  if (card.earlier_id !== null) {
    if (card.earlier_card_id !== card.id) throw opReused();
    return {
      reviewId: card.earlier_id,
      card: { ...pickSchedule(current), id: card.id, deck_id: card.deck_id },
      replayed: true as const,
    };
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
  const written = await db.queryAsRole<{ id: string }>(
    claims,
    recordReview,
    [
      input.cardId,
      input.rating,
      reviewedAt.toISOString(),
      card.reps,
      elapsedDays,
      JSON.stringify(schedule),
      input.opId ?? null,
    ],
    { prepare: true },
  );
  return {
    reviewId: written.rows[0]!.id,
    card: { id: card.id, deck_id: card.deck_id, ...schedule },
  };
}
