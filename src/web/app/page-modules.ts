/**
 * The naming convention that maps a route of src/common/routes.ts to its source modules,
 * shared by the router (which loads them) and the prerenderer (which preloads their chunks).
 * Paths are relative to the Vite root (src/web).
 */
import type { RouteEntry } from '@common/routes';

export const DOC_PAGE_VIEW_MODULE = 'features/site/doc-page/doc-page-view.tsx';
/** "/" composes the site's home content with other features' parts (decision 0008). */
export const HOME_ROUTE_MODULE = 'app/home-route.tsx';
export const DATA_ROOM_PAGE_MODULE = 'features/data-room/data-room-page.tsx';
/** Pages that fetch data before they render (browser-only pages) also need the query client. */
export const QUERY_CLIENT_MODULE = 'lib/query-client.ts';

/** "/" is "home"; every other path is its single segment. */
export function routeSlug(path: string): string {
  return path === '/' ? 'home' : path.slice(1);
}

/** "ai-study-coach" → "AiStudyCoachPage". */
export function pageExportName(slug: string): string {
  return `${slug
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Page`;
}

export function docContentModule(route: RouteEntry): string {
  return `features/site/content/docs/${routeSlug(route.path)}.ts`;
}

/** Account screens: features/auth/<slug>-page.tsx, "/auth/confirm" → "auth-confirm". */
export function authPageModule(route: RouteEntry): string {
  return `features/auth/${authSlug(route.path)}-page.tsx`;
}

export function authSlug(path: string): string {
  return path.slice(1).replace(/\//g, '-');
}

export function pageComponentModule(route: RouteEntry): string {
  return `features/site/pages/${routeSlug(route.path)}-page.tsx`;
}

/** Every source module a route needs to render. */
export function routeModules(route: RouteEntry): string[] {
  switch (route.kind) {
    case 'doc':
      return [DOC_PAGE_VIEW_MODULE, docContentModule(route)];
    // The home page's live dashboards load the query client when they come into view;
    // the marketing pages fetch nothing (decision 0191).
    case 'home':
      return [HOME_ROUTE_MODULE];
    case 'marketing':
      return [pageComponentModule(route)];
    case 'data-room':
      return [DATA_ROOM_PAGE_MODULE, QUERY_CLIENT_MODULE];
    case 'auth':
      return [authPageModule(route), QUERY_CLIENT_MODULE];
    case 'app':
      // Rendered in the browser only (never prerendered), so there is nothing to preload.
      return [];
  }
}
