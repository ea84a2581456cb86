/**
 * The shape of a route and the matching over a list of them. The route table itself is
 * `routes.ts` (the public site's entries in `site-routes.ts`, the learning app's in
 * `app-routes.ts`); the public site's entry chunk reads only the first list (decision 0002).
 */
export type RouteKind = 'home' | 'marketing' | 'doc' | 'data-room' | 'auth' | 'app';

export type DocGroup = 'Platform Overview' | 'Technical Documentation' | 'Security & Compliance';

export interface RouteEntry {
  /**
   * The address. App pages may name parameters (`/app/courses/:courseId`); each is one path
   * segment holding a UUID, so `/app/courses/anything-else` is not a page and answers 404.
   */
  path: string;
  /** Page label: last breadcrumb item and sidebar entry. */
  label: string;
  /** Section label: middle breadcrumb item. */
  section: string;
  /** The browser title this page sets. */
  title: string;
  kind: RouteKind;
  /** Sidebar group for documentation navigation, if listed there. */
  group?: DocGroup;
  /** Prerender the page's HTML at build time (public, no per-visitor content). */
  prerender: boolean;
}

export interface RouteMatch {
  route: RouteEntry;
  /** The path's parameters by name (empty for a route without any). */
  params: Record<string, string>;
}

const UUID_SEGMENT = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `/app/courses/:courseId` → a pattern with one named UUID group per parameter. */
function compilePattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? `(?<${segment.slice(1)}>${UUID_SEGMENT})` : escapeRegExp(segment),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

/** Normalises a pathname (drops a trailing slash, except for "/"). */
export function normalizePath(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/';
  return pathname;
}

/** Finds the entry of `list` a pathname names: exact paths first, then parameterised ones. */
export function routeMatcher(
  list: readonly RouteEntry[],
): (pathname: string) => RouteMatch | undefined {
  const hasParameters = (route: RouteEntry) => route.path.includes('/:');
  const byPath = new Map(
    list.filter((route) => !hasParameters(route)).map((route) => [route.path, route]),
  );
  const patterns = list
    .filter(hasParameters)
    .map((route) => ({ route, pattern: compilePattern(route.path) }));
  return (pathname) => {
    const path = normalizePath(pathname);
    const exact = byPath.get(path);
    if (exact) return { route: exact, params: {} };
    for (const { route, pattern } of patterns) {
      const match = pattern.exec(path);
      if (match) return { route, params: { ...match.groups } };
    }
    return undefined;
  };
}

/** A route's address with its parameters filled in: `routePath('/app/courses/:courseId', …)`. */
export function routePath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`routePath: ${path} needs the parameter ${name}`);
    return encodeURIComponent(value);
  });
}
