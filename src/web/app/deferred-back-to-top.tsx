import { lazy, Suspense } from 'react';
import { useHydrated } from '@/lib/use-hydrated';

const BackToTop = lazy(() =>
  import('./back-to-top').then((module) => ({ default: module.BackToTop })),
);

/**
 * The back-to-top button appears only after 300 px of scrolling, so its code loads once the
 * page is interactive instead of in every page's first load.
 */
export function DeferredBackToTop() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={null}>
      <BackToTop />
    </Suspense>
  );
}
