import { lazy, Suspense, useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { findRoute, type RouteEntry } from '@common/routes';
import { SidebarInset, SidebarProvider } from '@/components/ui/sidebar';
import { Button } from '@/components/ui/button';
import { BackToTop } from './back-to-top';
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

// The learning app's frame loads with its first page, never with the public site.
const AppLayout = lazy(async () => {
  const [{ AppLayout: layout }] = await Promise.all([import('./app-layout'), loadQueryClient()]);
  return { default: layout };
});

function hasDocSidebar(route: RouteEntry | undefined): boolean {
  return route?.kind === 'doc' || route?.kind === 'marketing';
}

function RoutedPage({ route }: { route: RouteEntry }) {
  const { Component } = routePage(route);
  return <Component />;
}

/** Header, documentation sidebar, breadcrumb, the page, footer: the frame of every route. */
export function SiteLayout() {
  const location = useLocation();
  const route = findRoute(location.pathname);
  const withSidebar = hasDocSidebar(route);

  useEffect(() => {
    applyDocumentMeta(route, window.location);
  }, [route]);

  if (route?.kind === 'app') {
    return (
      <PageErrorBoundary resetKey="app">
        <Suspense fallback={<PageSkeleton />}>
          <AppLayout route={route} />
        </Suspense>
      </PageErrorBoundary>
    );
  }

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
      <BackToTop />
    </SidebarProvider>
  );
}
