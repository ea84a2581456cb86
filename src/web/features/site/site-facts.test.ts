/**
 * The public pages describe the running build, nothing more and nothing less. Each fact below
 * is checked against the route table (src/common/routes.ts), where every screen of the product
 * is listed: a page that says a feature runs links to the route that runs it, and a feature
 * without a route is called planned. When a feature lands, its route makes one of these tests
 * fail until the copy (and the test) say it runs.
 */
import { describe, expect, it } from 'vitest';
import { brand } from '@common/brand';
import { isPublicApiPath } from '@common/public-api-paths';
import { findRoute, routes } from '@common/routes';
import { docPageLinks, docPageTexts } from './content/check-doc-page';
import type { DocPage } from './content/types';
import { sqlWords } from './sql-words';
import * as adaptContent from './pages/adapt/adapt-content';
import * as coachContent from './pages/coach/coach-content';
import * as homeHero from './pages/home/home-content';
import * as homeDetails from './pages/home/home-details-content';

const homeContent = { ...homeHero, ...homeDetails };
import * as platformContent from './pages/platform/platform-content';

const docModules = import.meta.glob<{ docPage: DocPage }>(
  ['./content/docs/*.ts', '!./content/docs/*.test.ts'],
  { eager: true },
);
const docPages = Object.values(docModules).map((module) => module.docPage);
const docPage = (path: string) => docPages.find((page) => page.path === path)!;

/** Every string a content module shows (icons and other components are skipped). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object' && !('$$typeof' in value) && !('render' in value))
    return Object.values(value).flatMap(strings);
  return [];
}

const saysPlanned = /planned|not in this build|not part of th/i;

/** A documentation page's words, less the sections whose heading already says "planned". */
function claimedTexts(page: DocPage): string[] {
  const sections = page.sections.filter((section) => !saysPlanned.test(section.heading));
  return docPageTexts({ ...page, sections });
}

/** The words of every public page that is not a learning-app screen, by path. */
const publicPages: Record<string, string[]> = {
  '/': strings(homeContent),
  '/platform-overview': strings(platformContent),
  '/ai-study-coach': strings(coachContent),
  [`/${brand.initials.toLowerCase()}-adapt`]: strings(adaptContent),
  ...Object.fromEntries(docPages.map((page) => [page.path, claimedTexts(page)])),
};
const hasRoute = (pattern: RegExp) => routes.some((route) => pattern.test(route.path));

describe('every public page is written for a page of the route table', () => {
  it('covers every prerendered page', () => {
    const prerendered = routes.filter((route) => route.prerender).map((route) => route.path);
    expect(Object.keys(publicPages).sort()).toEqual(prerendered.sort());
  });
});

describe.each(Object.entries(publicPages))('%s', (_path, texts) => {
  it('names no help centre while the product has none', () => {
    if (hasRoute(/help/)) return;
    expect(texts.filter((text) => /help cent(re|er)/i.test(text))).toEqual([]);
  });

  it('never calls the coupon-only sign-up planned: it runs (BETA_GATE, /app/admin/coupons)', () => {
    expect(findRoute('/signup')?.kind).toBe('auth');
    expect(findRoute('/app/admin/coupons')?.kind).toBe('app');
    const claims = texts.filter((text) => /coupon/i.test(text));
    expect(claims.filter((text) => saysPlanned.test(text))).toEqual([]);
  });

  it('no longer says two-factor is unenforced: it runs in Account Settings', () => {
    expect(findRoute('/account')?.kind).toBe('auth');
    expect(texts.filter((text) => /not yet enforce|2FA toggle/i.test(text))).toEqual([]);
  });
});

describe.each(Object.entries(publicPages))('%s as an app', (_path, texts) => {
  it('says the app installs and keeps chosen lessons offline, never calling offline study planned', () => {
    const claims = texts.filter((text) => /progressive web app|install|offline/i.test(text));
    expect(claims.filter((text) => /install\w* (offline )?app[^.;]*planned/i.test(text))).toEqual(
      [],
    );
    expect(
      claims.filter(
        (text) => /(studying|study) offline|offline study/i.test(text) && saysPlanned.test(text),
      ),
    ).toEqual([]);
  });

  it('no longer says notes made offline are not kept: they wait on the device (decision 0182)', () => {
    expect(
      texts.filter((text) => /notes?\b[^.]*offline[^.]*not (kept|queued)/i.test(text)),
    ).toEqual([]);
  });
});

describe.each(Object.entries(publicPages).filter(([path]) => path !== '/sso-integration'))(
  '%s on SAML',
  (_path, texts) => {
    it('never calls SAML single sign-on planned: it runs (decision 0032)', () => {
      expect(texts.filter((text) => /SAML/.test(text) && saysPlanned.test(text))).toEqual([]);
    });
  },
);

describe('/release-notes', () => {
  const page = docPage('/release-notes');
  const section = (id: string) => page.sections.find((s) => s.id === id)!;

  it('links each feature that runs to the route that runs it', () => {
    const cards = section('what-runs').blocks.find((block) => block.type === 'cards');
    expect(cards?.type === 'cards' && cards.items.length).toBeGreaterThan(0);
    for (const card of cards?.type === 'cards' ? cards.items : []) {
      const links = [...card.text.matchAll(/\]\((\/[^)#]*)/g)].map((match) => match[1]!);
      expect(links, card.title).not.toEqual([]);
      for (const link of links) expect(findRoute(link), `${card.title}: ${link}`).toBeDefined();
    }
  });

  it('lists as planned the features that have no screen yet', () => {
    const planned = docPageTexts({ ...page, sections: [section('planned')] }).join('\n');
    const appRoute = (pattern: RegExp) =>
      routes.some((route) => route.kind === 'app' && pattern.test(route.path));
    if (!appRoute(/coach/)) expect(planned).toContain(brand.coach);
    if (!appRoute(/adapt/)) expect(planned).toContain(brand.adaptTool);
    if (!appRoute(/flashcards|notes/)) expect(planned).toMatch(/Notes and flashcards/);
    if (!appRoute(/compliance|audit/)) expect(planned).toMatch(/audit log/);
    if (!appRoute(/billing|plans|subscription/)) expect(planned).toMatch(/subscriptions/);
    expect(planned).not.toMatch(/SAML/);
    // A feature that lands must leave this list: the checks of the other pages skip it.
    if (appRoute(/^\/app\/offline$/)) expect(planned).not.toMatch(/offline/i);
    if (appRoute(/\/live$/)) expect(planned).not.toMatch(/live (hub|room)/i);
    if (appRoute(/library|read$/)) expect(planned).not.toMatch(/reader/i);
  });

  it('says sign-up needs a coupon during the beta and links to it, and names two-factor with its screen', () => {
    const links = docPageLinks(page);
    expect(links).toContain('/signup');
    expect(links).toContain('/account');
    expect(docPageTexts(page).join('\n')).toMatch(
      /During the beta, \[creating an account\]\(\/signup\) needs a coupon/,
    );
  });
});

describe('/ (home)', () => {
  it('states only facts in "at a glance"', () => {
    const labels = homeContent.atAGlance.items.map((item) => item.label);
    expect(labels.filter((label) => /help cent/i.test(label))).toEqual([]);
    expect(labels).toContain('email support');
  });

  it('marks as planned each listed feature that has no screen in the app', () => {
    const screens: [RegExp, RegExp][] = [
      [/Home dashboard/, /^\/app$/],
      [/Course library/, /^\/app\/courses$/],
      [/Coach/, /coach/],
      [/flashcards/, /flashcards|notes/],
      [/Goals/, /^\/app\/progress/],
      [/Activity analytics/, /^\/app\/progress/],
      [/Live hub/, /live/],
      [/User management/, /people|users/],
      [/Course management|Module manager/, /^\/app\/course-editor/],
      [/^Analytics/, /\/org\/analytics/],
      [/Thresholds/, /thresholds/],
      [/Reporting/, /reports/],
    ];
    const items = [...homeContent.platformFeatures.learner, ...homeContent.platformFeatures.admin];
    for (const { title } of items) {
      const screen = screens.find(([name]) => name.test(title));
      if (!screen) continue;
      const runs = routes.some((route) => route.kind === 'app' && screen[1].test(route.path));
      expect(title.endsWith('(planned)'), title).toBe(!runs);
    }
  });

  it('describes the beta by what runs and links to the release notes', () => {
    const point = homeContent.executiveSummary.points.find((p) => p.title === 'Where it stands');
    expect(point?.link?.to).toBe('/release-notes');
    expect(point?.text).not.toMatch(/coupon|single sign-on/);
  });
});

describe.each([
  ['/ai-study-coach', coachContent.coachHero, /coach/],
  [`/${brand.initials.toLowerCase()}-adapt`, adaptContent.adaptHero, /adapt/],
])('%s', (_path, hero, screen) => {
  it('says at the top that the product is planned while the app has no screen for it', () => {
    if (routes.some((route) => route.kind === 'app' && screen.test(route.path))) return;
    expect(hero.badges[0]).toBe('Planned: not in this build');
    expect(hero.lead).toMatch(/It is planned, not in this build/);
  });
});

describe('/sso-integration', () => {
  const page = docPage('/sso-integration');

  it('says SAML and OpenID Connect both run, and nowhere that SAML is planned', () => {
    expect(page.lead).toMatch(/SAML 2\.0 service provider/);
    expect(page.lead).toMatch(/OpenID Connect/);
    expect(page.badges).toEqual(['SAML 2.0', 'OpenID Connect']);
    expect(docPageTexts(page).filter((text) => saysPlanned.test(text))).toEqual([]);
  });
});

describe('/data-quotas', () => {
  it('says coach messages are metered, subscriptions are planned and the rate limit applies', () => {
    const page = docPage('/data-quotas');
    expect(page.lead).toMatch(/planned/);
    const text = docPageTexts(page).join('\n');
    expect(text).toMatch(/500 .* messages a month\. Each message the coach answers is counted/);
    expect(text).toMatch(/Subscriptions, paid tiers .* are planned/);
    expect(text).toContain('100 requests per second');
  });
});

describe('/technical-support-sla', () => {
  it('offers only channels that exist: email, and the account manager on Enterprise', () => {
    const text = docPageTexts(docPage('/technical-support-sla')).join('\n');
    expect(text).toContain(`mailto:${brand.supportEmail}`);
    expect(text).not.toMatch(/help cent/i);
  });
});

/** Snake-case names a page writes as code (`audit_log`, `verify_audit_chain()`, `auth.users`). */
function sqlNamesOn(page: DocPage): string[] {
  if (saysPlanned.test(page.lead)) return [];
  const sections = page.sections.filter((section) => !saysPlanned.test(section.heading));
  const code = sections.flatMap((section) =>
    section.blocks.flatMap((block) => (block.type === 'code' ? [block.code] : [])),
  );
  const text = [...claimedTexts(page), ...code].join('\n');
  return [
    ...new Set(
      [...text.matchAll(/`(?:[a-z_][a-z0-9_]*\.)?([a-z][a-z0-9]*_[a-z0-9_]+)(?:\([^`]*\))?`/g)].map(
        (match) => match[1]!,
      ),
    ),
  ];
}

/** Code-formatted names that are not SQL: an auth error code and OpenID Connect claims. */
const notSql = new Set(['weak_password', 'given_name', 'family_name']);

/**
 * Named as running by pages outside the compliance work, with no migration yet. Each entry
 * leaves when its SQL lands (the test fails until it does) or the page calls it planned.
 */
const unbackedToday: Record<string, string[]> = {};

describe('documentation pages name only SQL that exists in db/', () => {
  const words = sqlWords();
  it.each(docPages.map((page) => [page.path, page] as const))('%s', (pagePath, page) => {
    const missing = sqlNamesOn(page).filter((name) => !notSql.has(name) && !words.has(name));
    expect(missing.sort()).toEqual([...(unbackedToday[pagePath] ?? [])].sort());
  });

  it('checks the names the Security & Compliance page gives its procedures', () => {
    expect(sqlNamesOn(docPage('/security-compliance'))).toEqual(
      expect.arrayContaining(['audit_log', 'record_audit_event', 'verify_audit_chain']),
    );
  });
});

describe('/api-access', () => {
  const page = docPage('/api-access');

  it('says integrations use organization keys, made on the key screen, with the reference page', () => {
    const links = docPageLinks(page);
    expect(links).toContain('/app/org/api-keys');
    expect(links).toContain('/api/reference');
    for (const link of links.filter((l) => l.startsWith('/') && !isPublicApiPath(l)))
      expect(findRoute(link.split('#')[0]!), link).toBeDefined();
    expect(page.lead).toMatch(/organization API key/);
    expect(docPageTexts(page).join('\n')).toMatch(/Revoking it stops it at once/);
  });
});
