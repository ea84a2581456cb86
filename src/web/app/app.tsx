import { DeferredToaster } from './deferred-toaster';
import { QueryProvider } from './query-provider';
import { SiteLayout } from './site-layout';

/**
 * Providers and the site frame, shared by the browser entry (inside BrowserRouter) and the
 * prerenderer (inside StaticRouter). SiteLayout looks the path up in the one route table
 * (src/common/routes.ts) and renders that page, or the not-found page for any other path.
 */
export function App() {
  return (
    <QueryProvider>
      <SiteLayout />
      <DeferredToaster />
    </QueryProvider>
  );
}
