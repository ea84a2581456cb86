import { describe, expect, it } from 'vitest';
import { describedPaths, routeDescription } from './route-descriptions';
import { findRoute } from './routes';
import { siteRoutes } from './site-routes';

describe('route descriptions', () => {
  it('describe only prerendered public pages', () => {
    for (const path of describedPaths) {
      const route = findRoute(path);
      expect(route?.path, path).toBe(path);
      expect(route?.prerender, path).toBe(true);
    }
  });

  it('describe the home page and every marketing page', () => {
    const pages = siteRoutes.filter((route) => route.kind === 'home' || route.kind === 'marketing');
    expect(pages.length).toBeGreaterThan(1);
    for (const route of pages) expect(routeDescription(route.path), route.path).toBeTruthy();
  });
});
