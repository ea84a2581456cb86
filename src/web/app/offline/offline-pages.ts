/**
 * The screens that work from what a learner kept on the device (decision 0181), and getting
 * them ready: their code is loaded and handed to the service worker's assets cache, so they
 * open with no network even if the learner never visited them online.
 */
import { appPages } from '../app-pages';
import { keepLoadedAssets } from './service-worker';

export const offlinePagePaths: ReadonlySet<string> = new Set([
  '/app/offline',
  '/app/courses/:courseId/lessons/:lessonId',
  '/app/flashcards/review',
  '/app/flashcards/decks/:deckId/review',
  '/app/notes',
  '/app/notes/new',
  '/app/notes/:noteId',
]);

export async function prepareOfflinePages(): Promise<void> {
  await Promise.all([...offlinePagePaths].map((path) => appPages[path]?.()));
  await keepLoadedAssets();
}
