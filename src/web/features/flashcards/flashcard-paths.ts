/** Addresses of the flashcard screens, built from the one route table. */
import { routePath } from '@common/routes';

export const flashcardPaths = {
  decks: () => '/app/flashcards',
  reviewAll: () => '/app/flashcards/review',
  statistics: () => '/app/flashcards/statistics',
  deck: (deckId: string) => routePath('/app/flashcards/decks/:deckId', { deckId }),
  reviewDeck: (deckId: string) => routePath('/app/flashcards/decks/:deckId/review', { deckId }),
  newCard: (params: Record<string, string> = {}) => {
    const query = new URLSearchParams(params).toString();
    return `/app/flashcards/new${query ? `?${query}` : ''}`;
  },
};
