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
  }).href = `${location.origin}${route.path === '/' ? '/' : route.path}`;
}

// Counts calls so a description that arrives after the visitor has moved on is dropped.
let latestCall = 0;

/**
 * Sets <title>, meta description and canonical link for the current page. Pages without a
 * description get neither, so a stale one from the previous page never lingers. The
 * descriptions load on demand (the prerendered HTML already has the first page's).
 */
export function applyDocumentMeta(route: RouteEntry | undefined, location: Location): void {
  document.title = route?.title ?? notFoundTitle;
  const call = ++latestCall;
  void import('@common/route-descriptions').then(({ routeDescription }) => {
    if (call === latestCall)
      applyDescription(route, route && routeDescription(route.path), location);
  });
}
