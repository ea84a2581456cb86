import { describe, expect, it } from 'vitest';
import { routes } from '@common/routes';
import { appPages } from './app-pages';

describe('app pages', () => {
  it('gives every app route a page and names no page without a route', () => {
    const appRoutes = routes.filter((route) => route.kind === 'app').map((route) => route.path);
    expect(Object.keys(appPages).sort()).toEqual([...appRoutes].sort());
  });

  it('never prerenders an app route (its content is per user)', () => {
    expect(routes.filter((route) => route.kind === 'app' && route.prerender)).toEqual([]);
  });
});
