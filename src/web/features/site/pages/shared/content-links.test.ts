import { describe, expect, it } from 'vitest';
import { isKnownRoute } from '@common/routes';
import * as adapt from '../adapt/adapt-content';
import * as coach from '../coach/coach-content';
import * as homeHero from '../home/home-content';
import * as homeDetails from '../home/home-details-content';

const home = { ...homeHero, ...homeDetails };
import * as platform from '../platform/platform-content';

/** Every internal link target (`to`) and in-page anchor (`href`) found anywhere in a value. */
function collectTargets(value: unknown, found: { to: string[]; href: string[] }) {
  if (Array.isArray(value)) value.forEach((item) => collectTargets(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'to' && typeof inner === 'string') found.to.push(inner);
      else if (key === 'href' && typeof inner === 'string') found.href.push(inner);
      else collectTargets(inner, found);
    }
  }
  return found;
}

const modules = { home, platform, coach, adapt };

describe('marketing content links', () => {
  it.each(Object.entries(modules))('%s links only to pages in the route table', (_name, module) => {
    const { to } = collectTargets(module, { to: [], href: [] });
    expect(to.filter((path) => !isKnownRoute(path))).toEqual([]);
  });

  it('home links to at least ten documentation pages', () => {
    const { to } = collectTargets(home, { to: [], href: [] });
    expect(new Set(to).size).toBeGreaterThanOrEqual(10);
  });

  it('finds a broken link when one is present', () => {
    const broken = { items: [{ link: { to: '/no-such-page', label: 'Nowhere' } }] };
    const { to } = collectTargets(broken, { to: [], href: [] });
    expect(to.filter((path) => !isKnownRoute(path))).toEqual(['/no-such-page']);
  });
});
