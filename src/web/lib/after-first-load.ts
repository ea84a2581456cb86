/**
 * Runs work once the page's first load is over (decision 0184): the document has loaded, no
 * resource (script, style, image, API call, file) has finished loading for `quietMs`, and the
 * browser is idle. Optional work such as the service worker's registration, with its own
 * downloads, then never competes with what the visitor is waiting for — an idle moment while
 * a page waits for its next chunk or its data is not the end of the load. A page that never
 * falls quiet (a screen polling every second) runs the work `maxWaitMs` after `load`.
 * Returns a cancel function.
 */
import { whenIdle } from './when-idle';

export interface FirstLoadOptions {
  quietMs?: number;
  maxWaitMs?: number;
}

export function afterFirstLoad(
  work: () => void,
  { quietMs = 2000, maxWaitMs = 15_000 }: FirstLoadOptions = {},
): () => void {
  let cancelled = false;
  let timer: number | undefined;
  let cancelIdle: (() => void) | undefined;
  let observer: PerformanceObserver | undefined;
  let lastActivity = performance.now();

  const latestEnd = () =>
    performance
      .getEntriesByType('resource')
      .reduce(
        (latest, entry) => Math.max(latest, (entry as PerformanceResourceTiming).responseEnd),
        0,
      );

  if (typeof PerformanceObserver === 'function') {
    observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        lastActivity = Math.max(lastActivity, (entry as PerformanceResourceTiming).responseEnd);
      }
    });
    observer.observe({ type: 'resource', buffered: true });
  }

  const run = () => {
    observer?.disconnect();
    cancelIdle = whenIdle(() => {
      if (!cancelled) work();
    });
  };

  const onLoad = () => {
    if (cancelled) return;
    const loadedAt = performance.now();
    lastActivity = Math.max(lastActivity, latestEnd());
    const check = () => {
      if (cancelled) return;
      const now = performance.now();
      const quietFor = now - lastActivity;
      if (quietFor >= quietMs || now - loadedAt >= maxWaitMs) {
        run();
        return;
      }
      timer = window.setTimeout(check, Math.min(quietMs - quietFor, maxWaitMs - (now - loadedAt)));
    };
    check();
  };

  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });

  return () => {
    cancelled = true;
    window.removeEventListener('load', onLoad);
    window.clearTimeout(timer);
    observer?.disconnect();
    cancelIdle?.();
  };
}
