import type { RouteEntry } from '@common/routes';
import { notFoundTitle } from '@common/routes';

function headElement<T extends Element>(selector: string, create: () => T): T {
  return document.head.querySelector<T>(selector) ?? document.head.appendChild(create());
}

/**
 * Sets <title>, meta description and canonical link for the current page. Pages without a
 * description get neither, so a stale one from the previous page never lingers.
 */
export function applyDocumentMeta(route: RouteEntry | undefined, location: Location): void {
  document.title = route?.title ?? notFoundTitle;
  const description = route?.description;
  if (!description) {
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
