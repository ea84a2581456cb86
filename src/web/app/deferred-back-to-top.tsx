import { lazy, Suspense, useSyncExternalStore } from 'react';

const BackToTop = lazy(() =>
  import('./back-to-top').then((module) => ({ default: module.BackToTop })),
);

// Once the page has scrolled, the button's code stays (it hides itself near the top).
let scrolledOnce = false;
const hasScrolled = () => (scrolledOnce ||= window.scrollY > 0);
const notOnTheServer = () => false;

function subscribeToScroll(onChange: () => void): () => void {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
}

/**
 * The back-to-top button appears only after 300 px of scrolling, so its code loads at the
 * visitor's first scroll instead of with the page (decision 0190). The server HTML has no
 * button, and neither has the render that hydrates it.
 */
export function DeferredBackToTop() {
  const scrolled = useSyncExternalStore(subscribeToScroll, hasScrolled, notOnTheServer);
  if (!scrolled) return null;
  return (
    <Suspense fallback={null}>
      <BackToTop />
    </Suspense>
  );
}
