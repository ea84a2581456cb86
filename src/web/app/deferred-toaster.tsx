import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { findSiteRoute, isAppPath } from '@common/site-routes';
import { requestToaster, useToasterRequested } from '@/lib/toaster-demand';
import { useHydrated } from '@/lib/use-hydrated';
import { afterFirstLoad } from '@/lib/after-first-load';

const Toaster = lazy(() =>
  import('@/components/ui/sonner').then((module) => ({ default: module.Toaster })),
);

const belowHeader = 'calc(var(--header-height) + 0.5rem)';

/** Pages rendered in the browser only (account screens, data room, learning app) may toast as they load. */
function mayToastOnLoad(pathname: string): boolean {
  if (isAppPath(pathname)) return true;
  const route = findSiteRoute(pathname);
  return route !== undefined && !route.prerender;
}

/**
 * The toaster and the installed app's service worker, both outside every page's first load.
 * On a public page a toast only follows a visitor's action (or the worker's "new version"
 * notice, which asks for the toaster itself), so sonner loads at the first key press or
 * pointer press, not with the page; the worker registers once the page's first load is over
 * and the browser is idle (decisions 0190, 0184), so its downloads never compete with it.
 */
export function DeferredToaster() {
  // The server HTML has no toaster.
  const hydrated = useHydrated();
  const requested = useToasterRequested();
  const { pathname } = useLocation();

  useEffect(
    () =>
      afterFirstLoad(() => {
        // Without a worker the site still works online; nothing to tell the visitor.
        import('./offline/service-worker')
          .then(({ registerServiceWorker }) => registerServiceWorker())
          .catch(() => undefined);
      }),
    [],
  );

  useEffect(() => {
    const events = ['pointerdown', 'keydown'] as const;
    const request = () => {
      for (const event of events) window.removeEventListener(event, request, true);
      requestToaster();
    };
    for (const event of events) window.addEventListener(event, request, true);
    return () => {
      for (const event of events) window.removeEventListener(event, request, true);
    };
  }, []);

  if (!hydrated || !(requested || mayToastOnLoad(pathname))) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        position="top-right"
        closeButton
        // Below the sticky header, so a toast never hides its buttons (the data room, sign-in).
        offset={{ top: belowHeader }}
        mobileOffset={{ top: belowHeader }}
      />
    </Suspense>
  );
}
