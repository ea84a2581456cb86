/**
 * The Security & Compliance page describes what runs: the audit log's fields as the table has
 * them, consent and data subject requests called planned until their tables exist (and no
 * longer once they do), and no hosting facts (TLS, encryption at rest, region, uptime) stated
 * as facts of a service we do not run.
 */
import { describe, expect, it } from 'vitest';
import { docPageTexts } from './content/check-doc-page';
import { docPage } from './content/docs/security-compliance';
import { sqlWords } from './sql-words';

const words = sqlWords();
const section = (id: string) => docPage.sections.find((s) => s.id === id)!;

describe('/security-compliance', () => {
  it('lists the audit log fields the table has', () => {
    const table = section('audit-logging').blocks.find((block) => block.type === 'table');
    const fields =
      table?.type === 'table' ? table.rows.map((row) => row[0]!.replace(/`/g, '')) : [];
    expect(fields).toEqual(
      expect.arrayContaining([
        'user_id',
        'action',
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
      ]),
    );
    for (const field of fields) expect(words.has(field), field).toBe(true);
  });

  it.each([
    ['consent-management', 'user_consent'],
    ['data-subject-requests', 'data_subject_requests'],
  ])('calls %s planned exactly while %s is not in the migrations', (id, table) => {
    expect(/planned/i.test(section(id).heading)).toBe(!words.has(table));
  });

  it('names HIPAA’s separate access log exactly when hipaa_audit_log exists', () => {
    const text = docPageTexts(docPage).join('\n');
    expect(text.includes('hipaa_audit_log')).toBe(words.has('hipaa_audit_log'));
    expect(/access log for PHI is planned/.test(text)).toBe(!words.has('hipaa_audit_log'));
  });

  it('states no hosting facts: TLS, encryption at rest, region and uptime are the operator’s', () => {
    const text = docPageTexts(docPage).join('\n');
    expect(text).not.toMatch(/\bTLS\b|AES|data cent(er|re)|\bregion\b|uptime|99\.\d|\bSLA\b/i);
  });
});
