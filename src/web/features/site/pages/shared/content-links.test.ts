import { describe, expect, it } from 'vitest';
import { brand } from '@common/brand';
import { isKnownRoute } from '@common/routes';
import * as adapt from '../adapt/adapt-content';
import * as coach from '../coach/coach-content';
import * as home from '../home/home-content';
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

  it('hero anchors point at sections the pages render', () => {
    expect(collectTargets(coach.coachHero, { to: [], href: [] }).href).toEqual([
      '#coach',
      '#how-it-works',
    ]);
    expect(collectTargets(adapt.adaptHero, { to: [], href: [] }).href).toEqual([
      '#example-flow',
      '#workspace',
    ]);
    expect(platform.overviewActions.primary.href).toBe('#features');
  });

  it('finds a broken link when one is present', () => {
    const broken = { items: [{ link: { to: '/no-such-page', label: 'Nowhere' } }] };
    const { to } = collectTargets(broken, { to: [], href: [] });
    expect(to.filter((path) => !isKnownRoute(path))).toEqual(['/no-such-page']);
  });

  it('builds the coach page copyright line from the brand', () => {
    expect(coach.coachFooter.copyright).toBe(
      `© ${brand.copyrightYear} ${brand.company}. All rights reserved.`,
    );
    expect(coach.coachFooter.copyright).toBe('© 2024 Lyceum Education. All rights reserved.');
  });
});
