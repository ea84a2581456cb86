import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brand } from '@common/brand';
import { findRoute } from '@common/routes';
import { docPageLinks, docPageProblems, docPageTexts } from '../check-doc-page';
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

describe.each(Object.entries(pages))('%s', (file, page) => {
  it('is the documentation page of the route it claims', () => {
    expect(page.path).toBe(`/${file}`);
    const route = findRoute(page.path);
    expect(route?.kind).toBe('doc');
    expect(page.heading).toBe(route?.label);
  });

  it('breaks no content rule', () => {
    expect(docPageProblems(page, { sections: { min: 4, max: 8 } })).toEqual([]);
  });

  it('links to at least one related page', () => {
    const targets = docPageLinks(page);
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
  const text = (page: DocPage) => docPageTexts(page).join('\n');
  const code = (page: DocPage) => codeBlocks(page).join('\n');

  it('release notes: Beta 2025-08, linking to the pages of both AI products', () => {
    const all = text(releaseNotes);
    expect(releaseNotes.meta).toContain('Beta 2025-08');
    const adaptRoute = findRoute(`/${brand.initials.toLowerCase()}-adapt`);
    expect(all).toContain(`(${adaptRoute?.path})`);
    expect(all).toContain('(/ai-study-coach)');
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
  });

  it('data and quotas: the quota procedures, metered features, rate limit and retention fields', () => {
    const all = text(dataQuotas) + code(dataQuotas);
    expect(all).toContain('initialize_user_quotas(tier)');
    expect(all).toContain('track_usage(user_id, feature_type, usage_amount, metadata)');
    expect(all).toContain('reset_monthly_quotas');
    expect(all).toContain('100 requests per second');
    const retention = tables(dataQuotas).find((table) => table.caption.includes('retention'));
    expect(retention?.rows.map((row) => row[0])).toEqual([
      '`table_name`',
      '`retention_period_days`',
      '`legal_basis`',
      '`is_active`',
    ]);
  });

  it('API access: the profiles example with an organization key, never in client code', () => {
    const samples = code(apiAccess);
    expect(samples).toContain('GET /rest/v1/profiles?select=*');
    expect(samples).toContain('apikey: {key}');
    expect(samples).toContain('Authorization: Bearer {token}');
    expect(text(apiAccess)).toMatch(
      /never appears in client code|Never put the service role key in client code/,
    );
  });

  it('SSO: the three attributes and the SAML assertion consumer path on the auth service', () => {
    expect(text(ssoIntegration)).toContain('/auth/v1/sso/saml/acs');
    const attributes = tables(ssoIntegration).find((table) => table.caption === 'User attributes');
    expect(attributes?.rows.map((row) => row[0])).toEqual(['`email`', '`firstName`', '`lastName`']);
  });

  it('developer build and security: re-authentication, email verification, RLS, no service key in clients', () => {
    const all = text(developerBuildSecurity);
    for (const practice of [
      'row-level security',
      're-authentication',
      'Email verification',
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
