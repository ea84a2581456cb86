import { lazy, Suspense, useSyncExternalStore } from 'react';

const NotificationArea = lazy(() =>
  import('./notification-area').then((module) => ({ default: module.NotificationArea })),
);

const belowHeader = 'calc(var(--header-height) + 0.5rem)';

const subscribeNever = () => () => undefined;

/**
 * The notification area (toasts, and the service worker that announces new versions), mounted
 * right after the page becomes interactive. Toasts only follow a visitor's action, so the
 * page's first load does not need to carry sonner.
 */
export function DeferredToaster() {
  // False while prerendering and hydrating, true afterwards: the server HTML has no toaster.
  const hydrated = useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
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
