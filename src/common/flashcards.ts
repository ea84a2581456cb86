/**
 * Flashcard scheduling with FSRS (ts-fsrs), shared by the server, which decides every review
 * (decision 0160), and the review screen, which only previews the intervals on its buttons.
 */
import { fsrs, type Card, type FSRS, type Grade } from 'ts-fsrs';
import { z } from 'zod';

/** The ratings, in the order of their keys 1–4. */
export const ratings = [
  { value: 1, label: 'Again' },
  { value: 2, label: 'Hard' },
  { value: 3, label: 'Good' },
  { value: 4, label: 'Easy' },
] as const;
export type RatingValue = (typeof ratings)[number]['value'];

export const cardStates = ['New', 'Learning', 'Review', 'Relearning'] as const;

export const DEFAULT_RETENTION = 0.9;
export const MIN_RETENTION = 0.7;
export const MAX_RETENTION = 0.99;

export const reviewInputSchema = z
  .object({
    cardId: z.uuid({ message: 'cardId must be a card id' }),
    rating: z
      .number({ message: 'rating must be 1, 2, 3 or 4' })
      .int({ message: 'rating must be 1, 2, 3 or 4' })
      .min(1, { message: 'rating must be 1, 2, 3 or 4' })
      .max(4, { message: 'rating must be 1, 2, 3 or 4' }),
    // The rating's own id, made by the browser: sending it twice records it once (decision 0181).
    opId: z.uuid({ message: 'opId must be a UUID' }).optional(),
    // When a rating made offline happened; only with opId (src/common/offline-reviews.ts).
    reviewedAt: z.iso
      .datetime({ offset: true, message: 'reviewedAt must be an ISO date and time' })
      .optional(),
  })
  .refine((input) => input.reviewedAt === undefined || input.opId !== undefined, {
    message: 'reviewedAt needs the rating’s opId',
    path: ['reviewedAt'],
  });
export type ReviewInput = z.infer<typeof reviewInputSchema>;

/** A card's schedule as the database stores it (`public.flashcards`). */
// A type, not an interface, so rows of it satisfy the database's `Record<string, unknown>`.
export type CardSchedule = {
  state: number;
  due: string;
  stability: number;
  difficulty: number;
  scheduled_days: number;
  learning_steps: number;
  reps: number;
  lapses: number;
  last_review: string | null;
};

const schedulers = new Map<number, FSRS>();

/** The scheduler for a deck's desired retention (one per distinct value). */
export function schedulerFor(retention: number): FSRS {
  const key = Math.round(retention * 100);
  let scheduler = schedulers.get(key);
  if (!scheduler) {
    scheduler = fsrs({ request_retention: key / 100, enable_fuzz: true });
    schedulers.set(key, scheduler);
  }
  return scheduler;
}

function toCard(row: CardSchedule, now: Date): Card {
  const lastReview = row.last_review ? new Date(row.last_review) : undefined;
  return {
    due: new Date(row.due),
    stability: row.stability,
    difficulty: row.difficulty,
    elapsed_days: lastReview ? Math.max(0, (now.getTime() - lastReview.getTime()) / 86_400_000) : 0,
    scheduled_days: row.scheduled_days,
    learning_steps: row.learning_steps,
    reps: row.reps,
    lapses: row.lapses,
    state: row.state,
    last_review: lastReview,
  };
}

export interface NextSchedule {
  schedule: CardSchedule;
  /** Days since the previous review (0 for a new card). */
  elapsedDays: number;
}

/** The card's schedule after `rating` at `now`. */
export function nextSchedule(
  row: CardSchedule,
  retention: number,
  rating: RatingValue,
  now: Date,
): NextSchedule {
  const card = toCard(row, now);
  const { card: next } = schedulerFor(retention).next(card, now, rating as Grade);
  return {
    elapsedDays: card.elapsed_days,
    schedule: {
      state: next.state,
      due: next.due.toISOString(),
      stability: next.stability,
      difficulty: next.difficulty,
      scheduled_days: next.scheduled_days,
      learning_steps: next.learning_steps,
      reps: next.reps,
      lapses: next.lapses,
      last_review: (next.last_review ?? now).toISOString(),
    },
  };
}

/** "10 min", "3 h", "4 d", "2.5 mo": how far `due` lies after `now`, for the rating buttons. */
export function intervalLabel(due: Date, now: Date): string {
  const minutes = Math.max(1, Math.round((due.getTime() - now.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = minutes / 60;
  if (hours < 24) return `${Math.round(hours)} h`;
  const days = hours / 24;
  if (days < 30) return `${Math.round(days)} d`;
  if (days < 365) return `${(days / 30).toFixed(1).replace(/\.0$/, '')} mo`;
  return `${(days / 365).toFixed(1).replace(/\.0$/, '')} y`;
}

/** The interval each rating would give, for the buttons (fuzz makes the real one vary a little). */
export function previewIntervals(
  row: CardSchedule,
  retention: number,
  now: Date,
): Record<RatingValue, string> {
  const labels = {} as Record<RatingValue, string>;
  for (const { value } of ratings) {
    labels[value] = intervalLabel(
      new Date(nextSchedule(row, retention, value, now).schedule.due),
      now,
    );
  }
  return labels;
}
