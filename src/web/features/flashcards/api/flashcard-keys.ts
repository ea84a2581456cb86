/**
 * Query keys of the flashcard screens, all under the signed-in user, so another account in
 * the same tab never sees them.
 */
export const flashcardKeys = {
  all: ['flashcards'] as const,
  user: (userId: string) => [...flashcardKeys.all, userId] as const,
  decks: (userId: string) => [...flashcardKeys.user(userId), 'decks'] as const,
  reviewDecks: (userId: string) => [...flashcardKeys.user(userId), 'review-decks'] as const,
  deckCards: (userId: string, deckId: string) =>
    [...flashcardKeys.user(userId), 'deck-cards', deckId] as const,
  due: (userId: string, deckId: string | null) =>
    [...flashcardKeys.user(userId), 'due', deckId ?? 'all'] as const,
  source: (userId: string, kind: string, id: string) =>
    [...flashcardKeys.user(userId), 'source', kind, id] as const,
};

/** A Supabase error as an Error with the service's message (what the screens show). */
export function serviceError(error: { message: string }): Error {
  return new Error(error.message);
}
