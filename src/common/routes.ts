/**
 * The one route table. The web router, the breadcrumb, the documentation sidebar, the
 * prerenderer and the server's 404 decision all read it, so a page exists in exactly one place.
 * Its entries live in two lists so the public site's first load carries only its own
 * (decision 0002): `site-routes.ts` (public pages, account screens) and `app-routes.ts`
 * (the learning app; add an app page there).
 */
import { appRoutes } from './app-routes';
import { routeMatcher, type RouteEntry, type RouteMatch } from './route-table';
import { siteRoutes } from './site-routes';

export type { DocGroup, RouteEntry, RouteKind, RouteMatch } from './route-table';
export { normalizePath, routePath } from './route-table';
export { docGroups, notFoundTitle, routesInGroup } from './site-routes';

export const routes: readonly RouteEntry[] = [...siteRoutes, ...appRoutes];

export const matchRoute: (pathname: string) => RouteMatch | undefined = routeMatcher(routes);

export function findRoute(pathname: string): RouteEntry | undefined {
  return matchRoute(pathname)?.route;
}

export function isKnownRoute(pathname: string): boolean {
  return matchRoute(pathname) !== undefined;
}
