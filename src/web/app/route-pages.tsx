/**
 * Which component renders each route of the table in src/common/routes.ts. Nothing here lists
 * paths: pages are found by convention, so adding a route means adding its module.
 * - doc: the content module features/site/content/docs/<slug>.ts rendered by the doc page view
 * - marketing: features/site/pages/<slug>-page.tsx exporting <PascalSlug>Page
 * - home ("/"): app/home-route.tsx, which composes the site's home page with other features
 * - auth, data-room and app (rendered in the browser only): see browser-page-loaders.ts, loaded
 *   on demand so that a public page's entry chunk does not carry their module lists
 */
import type { ComponentType } from 'react';
import type { RouteEntry } from '@common/routes';
import type { DocPage } from '@/features/site/content/types';
import type { BrowserPageKind } from './browser-page-loaders';
import { MissingPageError } from './missing-page-error';
import { docContentModule, pageComponentModule, pageExportName, routeSlug } from './page-modules';
import { preloadable, type PreloadableComponent } from './preloadable';

type PageModule = Record<string, unknown>;

const docModules = import.meta.glob<{ docPage: DocPage }>([
  '../features/site/content/docs/*.ts',
  '!../features/site/content/docs/*.test.ts',
]);
const pageModules = import.meta.glob<PageModule>([
  '../features/site/pages/*-page.tsx',
  '!../features/site/pages/*.test.tsx',
]);

function loadDocPage(route: RouteEntry): () => Promise<ComponentType> {
  return async () => {
    const loadContent = docModules[`../${docContentModule(route)}`];
    if (!loadContent) throw new MissingPageError(`No documentation content for ${route.path}.`);
    const [{ DocPageView }, { docPage }] = await Promise.all([
      import('@/features/site/doc-page/doc-page-view'),
      loadContent(),
    ]);
    if (docPage.path !== route.path) {
      throw new MissingPageError(
        `The content for ${route.path} declares the path ${docPage.path}.`,
      );
    }
    return function RoutedDocPage() {
      return <DocPageView page={docPage} />;
    };
  };
}

function loadPageComponent(route: RouteEntry): () => Promise<ComponentType> {
  return async () => {
    const slug = routeSlug(route.path);
    const load = pageModules[`../${pageComponentModule(route)}`];
    if (!load) throw new MissingPageError(`No page module for ${route.path}.`);
    const module = await load();
    const page = module[pageExportName(slug)];
    if (typeof page !== 'function') {
      throw new MissingPageError(`${slug}-page.tsx does not export ${pageExportName(slug)}.`);
    }
    return page as ComponentType;
  };
}

async function loadHomeRoute(): Promise<ComponentType> {
  const { HomeRoute } = await import('./home-route');
  return HomeRoute;
}

function loadBrowserPage(route: RouteEntry & { kind: BrowserPageKind }) {
  return async () => {
    const { loadBrowserPage: load } = await import('./browser-page-loaders');
    return load(route);
  };
}

function loaderFor(route: RouteEntry): () => Promise<ComponentType> {
  switch (route.kind) {
    case 'doc':
      return loadDocPage(route);
    case 'home':
      return loadHomeRoute;
    case 'marketing':
      return loadPageComponent(route);
    case 'data-room':
    case 'auth':
    case 'app':
      return loadBrowserPage({ ...route, kind: route.kind });
  }
}

const pages = new Map<string, PreloadableComponent>();

/** The page component for a route, loaded on first use and shared afterwards. */
export function routePage(route: RouteEntry): PreloadableComponent {
  let page = pages.get(route.path);
  if (!page) {
    page = preloadable(loaderFor(route));
    pages.set(route.path, page);
  }
  return page;
}
