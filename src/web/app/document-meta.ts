import type { RouteEntry } from '@common/route-table';
import { notFoundTitle } from '@common/site-routes';

function headElement<T extends Element>(selector: string, create: () => T): T {
  return document.head.querySelector<T>(selector) ?? document.head.appendChild(create());
}

function applyDescription(
  route: RouteEntry | undefined,
  description: string | undefined,
  location: Location,
) {
  if (!route || !description) {
    document.head.querySelector('meta[name="description"]')?.remove();
    document.head.querySelector('link[rel="canonical"]')?.remove();
    return;
  }
  headElement('meta[name="description"]', () => {
    const meta = document.createElement('meta');
    meta.name = 'description';
    return meta;
  }).content = description;
  // The canonical is the current address without query or fragment (see decision 0001).
  headElement('link[rel="canonical"]', () => {
    const link = document.createElement('link');
    link.rel = 'canonical';
    return link;
  }).href = canonicalUrl(route, location);
}

function canonicalUrl(route: RouteEntry, location: Location): string {
  return `${location.origin}${route.path === '/' ? '/' : route.path}`;
}

// Counts calls so a description that arrives after the visitor has moved on is dropped.
let latestCall = 0;

/**
 * Sets <title>, meta description and canonical link for the current page. Pages without a
 * description get neither, so a stale one from the previous page never lingers. The
 * descriptions load on demand, at the first move to another page: the prerendered HTML
 * already has the first page's, whose canonical only needs this origin.
 */
export function applyDocumentMeta(route: RouteEntry | undefined, location: Location): void {
  document.title = route?.title ?? notFoundTitle;
  const call = ++latestCall;
  // Only prerendered HTML comes with a description (the app shell and the dev server have none).
  if (call === 1 && route && document.head.querySelector('meta[name="description"]')) {
    const canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (canonical) canonical.href = canonicalUrl(route, location);
    return;
  }
  if (!route) {
    applyDescription(undefined, undefined, location);
    return;
  }
  void import('@common/route-descriptions').then(({ routeDescription }) => {
    if (call === latestCall) applyDescription(route, routeDescription(route.path), location);
  });
}
