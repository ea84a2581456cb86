import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brand } from '@common/brand';
import { findRoute, isKnownRoute } from '@common/routes';
import type { Block, DocPage } from '../types';
import { docPage as dataBreachResponse } from './data-breach-response';
import { docPage as dataEncryption } from './data-encryption';
import { docPage as dataHosting } from './data-hosting';
import { docPage as privacyGdpr } from './privacy-gdpr';
import { docPage as securityAudits } from './security-audits';
import { docPage as securityCompliance } from './security-compliance';
import { docPage as securityNotes } from './security-notes';
import { docPage as userRolesPermissions } from './user-roles-permissions';

const modules: Record<string, DocPage> = {
  'security-compliance': securityCompliance,
  'security-notes': securityNotes,
  'user-roles-permissions': userRolesPermissions,
  'privacy-gdpr': privacyGdpr,
  'data-breach-response': dataBreachResponse,
  'data-encryption': dataEncryption,
  'data-hosting': dataHosting,
  'security-audits': securityAudits,
};

const kebabCase = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const markdownLink = /\[([^\]]*)\]\(([^)\s]*)\)/g;
const emailAddress = /^[^@\s]+@[^@\s]+\.[a-z]+$/;

/** Every piece of inline text a block shows, so links and emptiness are checked everywhere. */
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
      return [];
    case 'cards':
      return block.items.flatMap((item) => [item.title, item.text]);
    case 'steps':
      return block.items.flatMap((item) => [item.title, item.text]);
    case 'definitions':
      return block.items.flatMap((item) => [item.term, item.text]);
  }
}

function blockProblems(block: Block): string[] {
  const problems: string[] = [];
  if (block.type === 'code' && block.code.trim() === '') problems.push('empty code block');
  if ('items' in block && block.items.length === 0) problems.push(`empty ${block.type} block`);
  if (block.type === 'table') {
    if (block.rows.length === 0) problems.push(`table "${block.caption}" has no rows`);
    for (const row of block.rows) {
      if (row.length !== block.columns.length)
        problems.push(`table "${block.caption}" row "${row[0]}" has ${row.length} cells`);
    }
  }
  for (const text of inlineTexts(block)) {
    if (text.trim() === '') problems.push(`empty text in a ${block.type} block`);
  }
  return problems;
}

function linksIn(page: DocPage): string[] {
  const texts = [
    page.lead,
    ...page.sections.flatMap((section) => section.blocks.flatMap(inlineTexts)),
  ];
  return texts.flatMap((text) => [...text.matchAll(markdownLink)].map((match) => match[2] ?? ''));
}

/** Everything that would make a page break the content contract; empty when it is sound. */
function pageProblems(page: DocPage): string[] {
  const problems: string[] = [];
  if (!findRoute(page.path) || findRoute(page.path)?.path !== page.path)
    problems.push(`path ${page.path} is not in the route table`);
  if (page.heading.trim() === '' || page.lead.trim() === '') problems.push('empty heading or lead');
  if (page.sections.length === 0) problems.push('no sections');
  const ids = new Set<string>();
  for (const section of page.sections) {
    if (!kebabCase.test(section.id)) problems.push(`section id "${section.id}" is not kebab-case`);
    if (ids.has(section.id)) problems.push(`section id "${section.id}" is repeated`);
    ids.add(section.id);
    if (section.heading.trim() === '') problems.push(`section "${section.id}" has no heading`);
    if (section.blocks.length === 0) problems.push(`section "${section.id}" has no blocks`);
    for (const block of section.blocks) problems.push(...blockProblems(block));
  }
  for (const href of linksIn(page)) {
    if (href.startsWith('/')) {
      if (!isKnownRoute(href.split('#')[0] ?? href)) problems.push(`unknown internal link ${href}`);
    } else if (href.startsWith('mailto:')) {
      if (!emailAddress.test(href.slice('mailto:'.length))) problems.push(`bad mail link ${href}`);
    } else if (!href.startsWith('https://')) {
      problems.push(`link ${href || '(empty)'} is not an internal path, https or mailto`);
    }
  }
  return problems;
}

function allText(page: DocPage): string {
  return JSON.stringify(page);
}

describe.each(Object.entries(modules))('%s', (file, page) => {
  it('is the page of its own route', () => {
    expect(page.path).toBe(`/${file}`);
    expect(findRoute(page.path)?.group).toBe('Security & Compliance');
  });

  it('keeps the content contract', () => {
    expect(pageProblems(page)).toEqual([]);
  });

  it('has between 4 and 10 sections', () => {
    expect(page.sections.length).toBeGreaterThanOrEqual(4);
    expect(page.sections.length).toBeLessThanOrEqual(10);
  });

  it('links to at least one related page', () => {
    expect(linksIn(page).some((href) => href.startsWith('/'))).toBe(true);
  });

  it('takes brand names from the brand module instead of typing them', () => {
    const source = readFileSync(fileURLToPath(new URL(`./${file}.ts`, import.meta.url)), 'utf8');
    for (const name of [brand.product, brand.company, brand.adaptTool]) {
      expect(source).not.toContain(name);
    }
    expect(allText(page)).not.toMatch(/lorem ipsum|TODO|TBD|placeholder/i);
  });
});

describe('the contract check itself', () => {
  const sound: DocPage = {
    path: '/data-hosting',
    heading: 'Heading',
    lead: 'Lead.',
    sections: [{ id: 'one', heading: 'One', blocks: [{ type: 'paragraph', text: 'Text.' }] }],
  };

  it('accepts a sound page', () => {
    expect(pageProblems(sound)).toEqual([]);
  });

  it('rejects an unknown path, bad or repeated ids, dead links and empty blocks', () => {
    const broken: DocPage = {
      ...sound,
      path: '/no-such-page',
      sections: [
        {
          id: 'Data_Hosting',
          heading: 'A',
          blocks: [
            {
              type: 'paragraph',
              text: 'See [nowhere](/nowhere), [mail](mailto:x) and [ftp](ftp://x).',
            },
          ],
        },
        { id: 'same', heading: 'B', blocks: [{ type: 'list', items: [] }] },
        {
          id: 'same',
          heading: 'C',
          blocks: [{ type: 'table', caption: 'T', columns: ['a', 'b'], rows: [['only one']] }],
        },
        { id: 'empty', heading: 'D', blocks: [] },
      ],
    };
    expect(pageProblems(broken)).toEqual([
      'path /no-such-page is not in the route table',
      'section id "Data_Hosting" is not kebab-case',
      'empty list block',
      'section id "same" is repeated',
      'table "T" row "only one" has 1 cells',
      'section "empty" has no blocks',
      'unknown internal link /nowhere',
      'bad mail link mailto:x',
      'link ftp://x is not an internal path, https or mailto',
    ]);
  });
});

describe('facts a reader relies on', () => {
  it('the privacy policy has exactly the ten sections, last updated October 3, 2025', () => {
    expect(privacyGdpr.meta).toBe('Last updated October 3, 2025');
    expect(privacyGdpr.sections.map((section) => section.id)).toEqual([
      'introduction',
      'data-collected',
      'how-we-use-data',
      'sharing',
      'security',
      'gdpr-rights',
      'hipaa-ferpa',
      'international-transfers',
      'policy-changes',
      'contact',
    ]);
    expect(allText(privacyGdpr)).toContain('Standard Contractual Clauses');
    expect(allText(privacyGdpr)).toContain(brand.privacyEmail);
  });

  it('the breach plan is effective October 3, 2025 with four phases and both deadlines', () => {
    expect(dataBreachResponse.meta).toBe('Effective October 3, 2025');
    const headings = dataBreachResponse.sections.map((section) => section.heading);
    for (const phase of [
      'Identification and assessment',
      'Containment and eradication',
      'Notification and communication',
      'Post-incident analysis',
    ]) {
      expect(headings.some((heading) => heading.endsWith(phase))).toBe(true);
    }
    const text = allText(dataBreachResponse);
    expect(text).toContain('72 hours');
    expect(text).toContain('60 days');
  });

  it('names every compliance procedure and every audit log field', () => {
    const text = allText(securityCompliance);
    for (const name of [
      'record_audit_event',
      'cleanup_expired_data',
      'withdraw_user_consent',
      'validate_legal_basis',
      'create_data_subject_request',
      'detect_security_incident',
      'log_hipaa_access',
      'hipaa_audit_log',
      'user_id',
      'table_name',
      'record_id',
      'old_values',
      'new_values',
      'purpose',
      'legal_basis',
      'ip_address',
      'user_agent',
      'timestamp',
      'session_id',
    ]) {
      expect(text).toContain(name);
    }
  });

  it('the permission matrix has one column per standard role', () => {
    const matrix = userRolesPermissions.sections
      .flatMap((section) => section.blocks)
      .find((block) => block.type === 'table' && block.caption === 'Rights of the standard roles');
    expect(matrix?.type === 'table' && matrix.columns).toEqual([
      'Permission',
      'Student',
      'Instructor',
      'Org Admin',
      'Compliance Officer',
    ]);
  });

  it('states the hosting region, encryption and certification roadmap', () => {
    expect(allText(dataHosting)).toContain('us-east-1 (Northern Virginia)');
    const encryption = allText(dataEncryption);
    for (const fact of ['TLS 1.3', 'AES-256', 'argon2id', 'ES256'])
      expect(encryption).toContain(fact);
    const audits = allText(securityAudits);
    for (const fact of [
      'SOC 2 Type II',
      'Q2 2026',
      'ISO 27001',
      'Q4 2026',
      'Q1 2026',
      'August 2025',
    ])
      expect(audits).toContain(fact);
  });
});
