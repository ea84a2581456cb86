import { describe, expect, it } from 'vitest';
import { routes } from '@common/routes';
import { hasOwnIcon, iconPathsWithoutRoute } from './route-icons';

describe('route icons', () => {
  it('gives every page in the documentation sidebar its own icon', () => {
    const missing = routes.filter((route) => route.group && !hasOwnIcon(route.path));
    expect(missing.map((route) => route.path)).toEqual([]);
  });

  it('names no page that the route table does not have', () => {
    expect(iconPathsWithoutRoute()).toEqual([]);
  });
});
