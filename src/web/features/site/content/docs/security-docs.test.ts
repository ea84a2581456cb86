import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brand } from '@common/brand';
import { findRoute } from '@common/routes';
import { docPageLinks, docPageProblems } from '../check-doc-page';
import type { DocPage } from '../types';
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

function allText(page: DocPage): string {
  return JSON.stringify(page);
}

describe.each(Object.entries(modules))('%s', (file, page) => {
  it('is the page of its own route', () => {
    expect(page.path).toBe(`/${file}`);
    expect(findRoute(page.path)?.group).toBe('Security & Compliance');
  });

  it('keeps the content contract', () => {
    expect(docPageProblems(page)).toEqual([]);
  });

  it('has between 4 and 10 sections', () => {
    expect(page.sections.length).toBeGreaterThanOrEqual(4);
    expect(page.sections.length).toBeLessThanOrEqual(10);
  });

  it('links to at least one related page', () => {
    expect(docPageLinks(page).some((href) => href.startsWith('/'))).toBe(true);
  });

  it('takes brand names from the brand module instead of typing them', () => {
    const source = readFileSync(fileURLToPath(new URL(`./${file}.ts`, import.meta.url)), 'utf8');
    for (const name of [brand.product, brand.company, brand.adaptTool]) {
      expect(source).not.toContain(name);
    }
    expect(allText(page)).not.toMatch(/lorem ipsum|TODO|TBD|placeholder/i);
  });
});

describe('facts a reader relies on', () => {
  it('the privacy policy was last updated October 3, 2025', () => {
    expect(privacyGdpr.meta).toBe('Last updated October 3, 2025');
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

  // site-facts.test.ts checks that every procedure a page names exists in a migration.
  it('names the compliance procedures that run and every audit log field', () => {
    const text = allText(securityCompliance);
    for (const name of [
      'record_audit_event',
      'verify_audit_chain',
      'cleanup_expired_data',
      'withdraw_user_consent',
      'validate_legal_basis',
      'detect_security_incident',
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
    for (const fact of ['TLS 1.3', 'AES-256']) expect(encryption).toContain(fact);
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
