import { useSyncExternalStore } from 'react';

/** Below this width the documentation sidebar becomes a slide-in sheet (Tailwind's `md`). */
export const MOBILE_BREAKPOINT = 768;

const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/**
 * True under 768 px. The prerendered HTML assumes a wide screen; CSS hides what does not fit,
 * so hydration matches and the client corrects itself right after.
 */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
