/**
 * Server rendering for the prerenderer (scripts/prerender.ts loads this through Vite, so
 * import.meta.glob and the `@/` aliases work as in the browser build).
 */
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { findRoute } from '@common/routes';
import { loadDeferredParts } from '@/lib/deferred-part';
import { App } from './app';
import { routePage } from './route-pages';

/** The HTML of <div id="root"> for a path; unknown paths render the not-found page. */
export async function renderPage(path: string): Promise<string> {
  const route = findRoute(path);
  if (route) await routePage(route).preload();
  // Parts of the page that load near the viewport in the browser are in its HTML (0194).
  await loadDeferredParts();
  return renderToString(
    <StaticRouter location={path}>
      <App />
    </StaticRouter>,
  );
}
