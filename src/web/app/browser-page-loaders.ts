/**
 * Loaders of the pages that are rendered in the browser only (never prerendered, so never
 * hydrated): account screens, the data room and the learning app. They live apart from
 * route-pages.tsx and load on demand, so the entry chunk of every public page does not carry
 * their module lists (decision 0002). Their screens pass overriding classes to the UI
 * primitives, so each loader also brings in tailwind-merge (decision 0190).
 */
import type { ComponentType } from 'react';
import type { RouteEntry } from '@common/routes';
import { loadClassMerge } from '@/lib/utils';
import { appPages } from './app-pages';
import { authPageModule, authSlug, pageExportName } from './page-modules';
import { MissingPageError } from './missing-page-error';
import { loadQueryClient } from './query-provider';

type PageModule = Record<string, unknown>;

const authModules = import.meta.glob<PageModule>([
  '../features/auth/*-page.tsx',
  '!../features/auth/*.test.tsx',
]);

async function loadAuthPage(route: RouteEntry): Promise<ComponentType> {
  const load = authModules[`../${authPageModule(route)}`];
  if (!load) throw new MissingPageError(`No account page module for ${route.path}.`);
  const [module] = await Promise.all([load(), loadQueryClient(), loadClassMerge()]);
  const page = module[pageExportName(authSlug(route.path))];
  if (typeof page !== 'function') {
    throw new MissingPageError(`${authPageModule(route)} does not export its page.`);
  }
  return page as ComponentType;
}

async function loadDataRoomPage(): Promise<ComponentType> {
  const [{ DataRoomPage }] = await Promise.all([
    import('@/features/data-room/data-room-page'),
    loadQueryClient(),
    loadClassMerge(),
  ]);
  return DataRoomPage;
}

async function loadAppPage(route: RouteEntry): Promise<ComponentType> {
  const load = appPages[route.path];
  if (!load) throw new MissingPageError(`No app page for ${route.path}.`);
  const [page] = await Promise.all([load(), loadQueryClient(), loadClassMerge()]);
  return page;
}

export type BrowserPageKind = 'auth' | 'data-room' | 'app';

export function loadBrowserPage(
  route: RouteEntry & { kind: BrowserPageKind },
): Promise<ComponentType> {
  switch (route.kind) {
    case 'auth':
      return loadAuthPage(route);
    case 'data-room':
      return loadDataRoomPage();
    case 'app':
      return loadAppPage(route);
  }
}
