/**
 * Starts loading an /app page's code from the entry script, beside the app's frame instead of
 * after it (decision 0185): the frame's chunk and its few dozen dependencies take several round
 * trips, and the page (the reader, with its pdf.js worker and its data) used to wait for all of
 * them and for the frame's first render before it was even requested. The frame asks again
 * when it renders and joins this load.
 */
import pdfWorkerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { findRoute } from '@common/routes';
import { startEarlyPdfWorker } from '@/features/reader/early-open';
import { routePage } from './route-pages';

export function preloadAppPage(pathname: string): void {
  // The reader's pdf.js worker is the longest download its first page waits for (decision 0186).
  startEarlyPdfWorker(pathname, () => new Worker(pdfWorkerUrl, { type: 'module' }));
  const route = findRoute(pathname);
  if (route)
    void routePage(route)
      .preload()
      .catch(() => undefined);
}
