import { lazy, Suspense } from 'react';
import { useHydrated } from '@/lib/use-hydrated';

const NotificationArea = lazy(() =>
  import('./notification-area').then((module) => ({ default: module.NotificationArea })),
);

const belowHeader = 'calc(var(--header-height) + 0.5rem)';

/**
 * The notification area (toasts, and the service worker that announces new versions), mounted
 * right after the page becomes interactive. Toasts only follow a visitor's action, so the
 * page's first load does not need to carry sonner.
 */
export function DeferredToaster() {
  // The server HTML has no toaster.
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={null}>
      <NotificationArea
        position="top-right"
        closeButton
        // Below the sticky header, so a toast never hides its buttons (the data room, sign-in).
        offset={{ top: belowHeader }}
        mobileOffset={{ top: belowHeader }}
      />
    </Suspense>
  );
}
