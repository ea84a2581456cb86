/**
 * Runs work once the browser is idle (or after `timeoutMs` at the latest), so optional code
 * such as the service worker's registration does not lengthen the page's first busy stretch.
 * Returns a cancel function.
 */
export function whenIdle(work: () => void, timeoutMs = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(work, 200);
  return () => window.clearTimeout(handle);
}
