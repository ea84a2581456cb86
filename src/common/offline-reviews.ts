/**
 * The rules for a flashcard rating that arrives late (decision 0181): made in the installed app
 * without a connection, queued on the device, and sent when the connection returns. Shared by
 * the flashcards function, which applies them, and their unit tests.
 */

/** A queued rating older than this is refused: the card's schedule has moved on too far. */
export const OFFLINE_REVIEW_MAX_AGE_DAYS = 30;
/** Device clocks drift; a rating this far "in the future" is still taken as now. */
export const CLOCK_SKEW_MS = 2 * 60_000;

export type ReviewTimeCheck =
  { ok: true; reviewedAt: Date } | { ok: false; reason: 'future' | 'too_old'; message: string };

/**
 * When a late rating counts as made. A rating a few minutes ahead of the server's clock is
 * taken as now; one further ahead, or older than the queue may hold, is refused with the reason.
 */
export function checkReviewTime(reviewedAt: string, now: Date): ReviewTimeCheck {
  const at = new Date(reviewedAt);
  const ahead = at.getTime() - now.getTime();
  if (ahead > CLOCK_SKEW_MS) {
    return {
      ok: false,
      reason: 'future',
      message: 'reviewedAt is in the future; check the device’s clock.',
    };
  }
  if (-ahead > OFFLINE_REVIEW_MAX_AGE_DAYS * 86_400_000) {
    return {
      ok: false,
      reason: 'too_old',
      message: `A rating made more than ${OFFLINE_REVIEW_MAX_AGE_DAYS} days ago can no longer be recorded.`,
    };
  }
  return { ok: true, reviewedAt: ahead > 0 ? now : at };
}

/**
 * The conflict rule: a late rating is applied to the card as the server holds it, unless the
 * card was reviewed after it (on another device, or another tab that was online). Then the
 * server's schedule stands, since it already reflects the most recent recall, and the late
 * rating is not recorded.
 */
export function lateReviewApplies(lastReview: string | Date | null, reviewedAt: Date): boolean {
  if (lastReview === null) return true;
  return new Date(lastReview).getTime() <= reviewedAt.getTime();
}
