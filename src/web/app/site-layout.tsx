import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { Link, useLocation } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import type { RouteEntry } from '@common/route-table';
import { findSiteRoute, isAppPath } from '@common/site-routes';
import { SidebarInset, SidebarProvider } from '@/components/ui/sidebar';
import { Button } from '@/components/ui/button';
import { loadClassMerge } from '@/lib/utils';
import type { AppLayout } from './app-layout';
import { DeferredBackToTop } from './deferred-back-to-top';
import { applyDocumentMeta } from './document-meta';
import { DocSidebar } from './doc-sidebar';
import { NotFoundPage } from './not-found-page';
import { PageErrorBoundary } from './page-error-boundary';
import { PageSkeleton } from './page-skeleton';
import { loadQueryClient } from './query-provider';
import { routePage } from './route-pages';
import { ScrollReset } from './scroll-reset';
import { SiteBreadcrumb } from './site-breadcrumb';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

interface AppLayoutModule {
  AppLayout: typeof AppLayout;
}
let appLayoutModule: AppLayoutModule | undefined;

/**
 * The learning app's frame loads with its first page, never with the public site. Loaded
 * before hydration when the server answered an /app address with its not-found page, so the
 * first render matches that HTML.
 */
export async function loadAppLayout(): Promise<AppLayoutModule> {
  const [module] = await Promise.all([import('./app-layout'), loadQueryClient(), loadClassMerge()]);
  appLayoutModule = module;
  return module;
}

const LazyAppLayout = lazy(async () => ({ default: (await loadAppLayout()).AppLayout }));
/** The consent banner's slot loads after hydration: a choice lives in the browser, not the HTML. */
const ConsentSlot = lazy(() => import('./consent-slot').then((m) => ({ default: m.ConsentSlot })));
const noSubscription = () => () => undefined;

function hasDocSidebar(route: RouteEntry | undefined): boolean {
  return route?.kind === 'doc' || route?.kind === 'marketing';
}

function RoutedPage({ route }: { route: RouteEntry }) {
  const { Component } = routePage(route);
  return <Component />;
}

/**
 * The learning app's addresses get the app's frame, which knows the app's routes; every other
 * address gets the public frame, which knows only the public site's (decision 0002).
 */
export function SiteLayout() {
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return (
    <>
      <SiteOrAppFrame />
      {inBrowser && (
        <Suspense fallback={null}>
          <ConsentSlot />
        </Suspense>
      )}
    </>
  );
}

function SiteOrAppFrame() {
  const location = useLocation();
  if (isAppPath(location.pathname)) {
    const notFound = <PublicFrame route={undefined} />;
    return (
      <PageErrorBoundary resetKey="app">
        {appLayoutModule ? (
          <appLayoutModule.AppLayout notFound={notFound} />
        ) : (
          <Suspense fallback={<PageSkeleton />}>
            <LazyAppLayout notFound={notFound} />
          </Suspense>
        )}
      </PageErrorBoundary>
    );
  }
  return <PublicFrame route={findSiteRoute(location.pathname)} />;
}

/** Header, documentation sidebar, breadcrumb, the page, footer: the frame of every public page. */
function PublicFrame({ route }: { route: RouteEntry | undefined }) {
  const withSidebar = hasDocSidebar(route);

  useEffect(() => {
    applyDocumentMeta(route, window.location);
  }, [route]);

  return (
    <SidebarProvider className="flex-col">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <SiteHeader withSidebar={withSidebar} />
      <ScrollReset />
      <div className="flex flex-1">
        {withSidebar && <DocSidebar />}
        <SidebarInset>
          {route && route.path !== '/' && (
            <div className="flex flex-wrap items-center justify-between gap-3 border-b bg-background px-5 py-3 sm:px-8">
              <SiteBreadcrumb route={route} />
              {route.kind === 'doc' && (
                <Button asChild variant="outline" size="sm">
                  <Link to="/">
                    <ArrowLeft aria-hidden="true" />
                    Back to Home
                  </Link>
                </Button>
              )}
            </div>
          )}
          <main id="main-content" tabIndex={-1} className="flex flex-1 flex-col outline-none">
            {route ? (
              <PageErrorBoundary resetKey={route.path}>
                <Suspense fallback={<PageSkeleton />}>
                  <RoutedPage route={route} />
                </Suspense>
              </PageErrorBoundary>
            ) : (
              <NotFoundPage />
            )}
          </main>
          <SiteFooter />
        </SidebarInset>
      </div>
      <DeferredBackToTop />
    </SidebarProvider>
  );
}
