import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brand } from '@common/brand';
import { findRoute, isKnownRoute } from '@common/routes';
import type { Block, DocPage } from '../types';
import { docPage as apiAccess } from './api-access';
import { docPage as buildSpecs } from './build-specs';
import { docPage as dataQuotas } from './data-quotas';
import { docPage as developerBuildSecurity } from './developer-build-security';
import { docPage as releaseNotes } from './release-notes';
import { docPage as ssoIntegration } from './sso-integration';
import { docPage as systemArchitecture } from './system-architecture';
import { docPage as technicalSupportSla } from './technical-support-sla';

/** Module file name (without .ts) → its page. */
const pages: Record<string, DocPage> = {
  'release-notes': releaseNotes,
  'system-architecture': systemArchitecture,
  'build-specs': buildSpecs,
  'data-quotas': dataQuotas,
  'api-access': apiAccess,
  'sso-integration': ssoIntegration,
  'developer-build-security': developerBuildSecurity,
  'technical-support-sla': technicalSupportSla,
};

const kebabCase = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const inlineLink = /\[([^\]]*)\]\(([^)\s]*)\)/g;

/** The inline-markup strings a block shows (code blocks are shown verbatim, not parsed). */
function inlineTexts(block: Block): string[] {
  switch (block.type) {
    case 'paragraph':
      return [block.text];
    case 'list':
      return block.items;
    case 'table':
      return [block.caption, ...block.columns, ...block.rows.flat()];
    case 'callout':
      return block.title === undefined ? [block.text] : [block.title, block.text];
    case 'code':
      return block.caption === undefined ? [] : [block.caption];
    case 'cards':
    case 'steps':
      return block.items.flatMap((item) => [item.title, item.text]);
    case 'definitions':
      return block.items.flatMap((item) => [item.term, item.text]);
  }
}

function pageTexts(page: DocPage): string[] {
  return [
    page.heading,
    page.lead,
    ...page.sections.flatMap((section) => [
      section.heading,
      ...section.blocks.flatMap(inlineTexts),
    ]),
  ];
}

function codeBlocks(page: DocPage): string[] {
  return page.sections.flatMap((section) =>
    section.blocks.flatMap((block) => (block.type === 'code' ? [block.code] : [])),
  );
}

function tables(page: DocPage): Extract<Block, { type: 'table' }>[] {
  return page.sections.flatMap((section) =>
    section.blocks.filter(
      (block): block is Extract<Block, { type: 'table' }> => block.type === 'table',
    ),
  );
}

function blockProblems(block: Block): string[] {
  const problems: string[] = [];
  if (block.type === 'code' && block.code.trim() === '') problems.push('empty code block');
  if ('items' in block && block.items.length === 0) problems.push(`empty ${block.type} block`);
  if (block.type === 'table') {
    if (block.columns.length === 0 || block.rows.length === 0)
      problems.push(`table "${block.caption}" is empty`);
    for (const row of block.rows)
      if (row.length !== block.columns.length)
        problems.push(`table "${block.caption}" has a row of ${row.length} cells`);
  }
  for (const text of inlineTexts(block)) {
    if (text.trim() === '') problems.push(`empty text in a ${block.type} block`);
    const withoutCode = text.replace(/`[^`]*`/g, '');
    if ((text.match(/`/g) ?? []).length % 2 !== 0) problems.push(`unbalanced code span: ${text}`);
    if ((withoutCode.match(/\*\*/g) ?? []).length % 2 !== 0)
      problems.push(`unbalanced bold: ${text}`);
    for (const [, label, target = ''] of text.matchAll(inlineLink)) {
      if (!label?.trim()) problems.push(`link to ${target} has no text`);
      if (target.startsWith('/')) {
        if (!isKnownRoute(target)) problems.push(`link to unknown route ${target}`);
      } else if (!target.startsWith('https://') && !/^mailto:[^@\s]+@[^@\s]+$/.test(target)) {
        problems.push(`link target ${target} is not a route, an https URL or an email address`);
      }
    }
  }
  return problems;
}

/** Everything that would make a page break the content contract or render badly. */
function pageProblems(page: DocPage): string[] {
  const problems: string[] = [];
  const route = findRoute(page.path);
  if (route === undefined || route.path !== page.path) problems.push(`no route ${page.path}`);
  if (page.heading.trim() === '' || page.lead.trim() === '') problems.push('empty heading or lead');
  if (page.sections.length < 4 || page.sections.length > 8)
    problems.push(`${page.sections.length} sections (4–8 expected)`);
  const ids = new Set<string>();
  for (const section of page.sections) {
    if (!kebabCase.test(section.id)) problems.push(`section id "${section.id}" is not kebab-case`);
    if (ids.has(section.id)) problems.push(`duplicate section id "${section.id}"`);
    ids.add(section.id);
    if (section.heading.trim() === '') problems.push(`section "${section.id}" has no heading`);
    if (section.blocks.length === 0) problems.push(`section "${section.id}" has no blocks`);
    problems.push(...section.blocks.flatMap(blockProblems));
  }
  return problems;
}

describe('the content checker', () => {
  it('reports every kind of broken page', () => {
    const broken: DocPage = {
      path: '/no-such-page',
      heading: 'Broken',
      lead: 'A page that breaks every rule.',
      sections: [
        { id: 'Not_Kebab', heading: 'One', blocks: [{ type: 'paragraph', text: '' }] },
        { id: 'twice', heading: 'Two', blocks: [{ type: 'list', items: [] }] },
        {
          id: 'twice',
          heading: 'Three',
          blocks: [
            {
              type: 'paragraph',
              text: 'See [nowhere](/nowhere), [script](javascript:void) and [mail](mailto:nobody).',
            },
            { type: 'table', caption: 'Short row', columns: ['A', 'B'], rows: [['only one']] },
            { type: 'code', code: '   ' },
          ],
        },
        { id: 'empty', heading: '', blocks: [] },
        { id: 'markup', heading: 'Markup', blocks: [{ type: 'paragraph', text: '**bold `code' }] },
      ],
    };
    const problems = pageProblems(broken);
    expect(problems).toEqual(
      expect.arrayContaining([
        'no route /no-such-page',
        'section id "Not_Kebab" is not kebab-case',
        'duplicate section id "twice"',
        'empty text in a paragraph block',
        'empty list block',
        'link to unknown route /nowhere',
        'link target javascript:void is not a route, an https URL or an email address',
        'link target mailto:nobody is not a route, an https URL or an email address',
        'table "Short row" has a row of 1 cells',
        'empty code block',
        'section "empty" has no heading',
        'section "empty" has no blocks',
        'unbalanced code span: **bold `code',
      ]),
    );
  });
});

describe.each(Object.entries(pages))('%s', (file, page) => {
  it('is the documentation page of the route it claims', () => {
    expect(page.path).toBe(`/${file}`);
    const route = findRoute(page.path);
    expect(route?.kind).toBe('doc');
    expect(page.heading).toBe(route?.label);
  });

  it('breaks no content rule', () => {
    expect(pageProblems(page)).toEqual([]);
  });

  it('links to at least one related page', () => {
    const targets = pageTexts(page).flatMap((text) =>
      [...text.matchAll(inlineLink)].map((match) => match[2] ?? ''),
    );
    expect(targets.filter((target) => target.startsWith('/')).length).toBeGreaterThan(0);
  });

  it('takes brand names from the brand module', () => {
    const source = readFileSync(fileURLToPath(new URL(`./${file}.ts`, import.meta.url)), 'utf8');
    for (const name of [brand.product, brand.adaptTool, brand.coach, brand.company])
      expect(source).not.toContain(name);
    expect(source).not.toMatch(/lorem|ipsum|TODO|TBD/i);
  });
});

describe('facts the pages must state', () => {
  const text = (page: DocPage) => pageTexts(page).join('\n');
  const code = (page: DocPage) => codeBlocks(page).join('\n');

  it('release notes: Beta 2025-08, coupon-only access, disabled pricing, two AI models', () => {
    const all = text(releaseNotes);
    expect(releaseNotes.meta).toContain('Beta 2025-08');
    expect(all).toMatch(/coupon/);
    expect(all).toMatch(/purchase buttons are disabled/);
    expect(all).toMatch(/two AI models/);
    expect(all).toContain('Known limitations');
    const adaptRoute = findRoute(`/${brand.initials.toLowerCase()}-adapt`);
    expect(all).toContain(`(${adaptRoute?.path})`);
  });

  it('system architecture: a text diagram of the five components and GDPR functions', () => {
    const diagram = code(systemArchitecture);
    for (const part of [
      'Web app',
      'Auth',
      'Database',
      'Storage',
      'Edge functions',
      'Cloud platform',
    ])
      expect(diagram).toContain(part);
    expect(diagram).toContain('GDPR deletion and export');
    expect(text(systemArchitecture)).toContain('/auth/v1/.well-known/jwks.json');
  });

  it('build specs: stack, commands and the 120 KB budget', () => {
    const all = text(buildSpecs) + code(buildSpecs);
    for (const part of ['TypeScript', 'React', 'Vite', 'Tailwind', 'Node.js', 'PostgreSQL'])
      expect(all).toContain(part);
    for (const command of ['npm start', 'npm test', 'npm run dev', 'npm run bench'])
      expect(all).toContain(command);
    expect(all).toContain('At most 120 KB (gzip)');
  });

  it('data and quotas: the quota procedures, metered features, rate limit and retention fields', () => {
    const all = text(dataQuotas) + code(dataQuotas);
    expect(all).toContain('initialize_user_quotas(tier)');
    expect(all).toContain('track_usage(user_id, feature_type, usage_amount, metadata)');
    expect(all).toContain('reset_monthly_quotas');
    expect(all).toContain('100 requests per second per API key');
    const retention = tables(dataQuotas).find((table) => table.caption.includes('retention'));
    expect(retention?.rows.map((row) => row[0])).toEqual([
      '`table_name`',
      '`retention_period_days`',
      '`legal_basis`',
      '`is_active`',
    ]);
  });

  it('API access: the profiles example as curl and supabase-js, 429 and the error shape', () => {
    const samples = code(apiAccess);
    expect(samples).toContain('GET /rest/v1/profiles?select=*');
    expect(samples).toContain('apikey: {key}');
    expect(samples).toContain('Authorization: Bearer {token}');
    expect(samples).toMatch(/curl "\$API_URL\/rest\/v1\/profiles\?select=\*"/);
    expect(samples).toContain(".from('profiles').select('*')");
    expect(samples).toMatch(/"code"[\s\S]*"message"[\s\S]*"details"[\s\S]*"hint"/);
    const all = text(apiAccess);
    expect(all).toContain('`npm run keys`');
    expect(all).toContain('`Retry-After`');
    expect(all).toMatch(
      /never appears in client code|Never put the service role key in client code/,
    );
  });

  it('SSO: SAML 2.0 and OIDC, the three attributes and the SAML service paths', () => {
    const all = text(ssoIntegration);
    expect(all).toContain('SAML 2.0');
    expect(all).toContain('OpenID Connect');
    expect(all).toContain('/auth/v1/sso/saml/acs');
    expect(all).toContain('/auth/v1/sso/saml/metadata');
    const attributes = tables(ssoIntegration).find((table) => table.caption === 'User attributes');
    expect(attributes?.rows.map((row) => row[0])).toEqual(['`email`', '`firstName`', '`lastName`']);
  });

  it('developer build and security: the practices issue 2 lists', () => {
    const all = text(developerBuildSecurity);
    for (const practice of [
      'row-level security',
      'Parameterised SQL',
      're-authentication',
      'Email verification',
      'TOTP',
      '`npm run typecheck`',
      'axe-core',
      'client code',
    ])
      expect(all).toContain(practice);
  });

  it('support and SLA: response targets, uptime formula and a correct worked example', () => {
    const targets = tables(technicalSupportSla).find((table) =>
      table.caption.startsWith('First-response'),
    );
    expect(targets?.rows.map((row) => [row[0], row.at(-1)])).toEqual([
      ['Urgent', '1 hour'],
      ['High', '4 business hours'],
      ['Normal', '8 business hours'],
      ['Low', '24 business hours'],
    ]);
    expect(code(technicalSupportSla)).toContain(
      '(total minutes − downtime minutes) / total minutes × 100',
    );
    const all = text(technicalSupportSla);
    const allowed = (30 * 24 * 60 * (100 - 99.9)) / 100;
    expect(allowed).toBeCloseTo(43.2, 6);
    expect(all).toContain(`**${allowed.toFixed(1)} minutes**`);
    for (const fact of [
      '9am–5pm ET',
      'Enterprise plan only',
      'one business day',
      '48 hours',
      'within the last 7 days',
      '24/7',
    ])
      expect(all).toContain(fact);
  });
});
