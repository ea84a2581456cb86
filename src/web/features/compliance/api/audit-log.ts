/**
 * The audit log as a compliance officer reads it (decision 0401): identifiers and actions,
 * filtered and searched on the server, newest first, a page at a time; the chain check; the
 * data-access patterns by day; and an export of the filtered entries, itself recorded.
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { complianceKeys } from './compliance-keys';

export interface AuditEntry {
  id: number;
  timestamp: string;
  user_id: string | null;
  action: string;
  table_name: string | null;
  record_id: string | null;
  changed_fields: string[];
  purpose: string;
  legal_basis: string;
  ip_address: string | null;
  session_id: string | null;
  subject_user_id: string | null;
}

export interface AuditFilters {
  action: string;
  table: string;
  person: string;
  search: string;
  from: string;
  to: string;
}

export const emptyAuditFilters: AuditFilters = {
  action: '',
  table: '',
  person: '',
  search: '',
  from: '',
  to: '',
};

export const AUDIT_PAGE_SIZE = 50;
/** The most entries one export writes; narrow the filters for more. */
export const AUDIT_EXPORT_LIMIT = 5000;

const columns =
  'id, timestamp, user_id, action, table_name, record_id, changed_fields, purpose, legal_basis, ip_address, session_id, subject_user_id';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The shortest start of a record id the search takes (decision 0427). */
export const RECORD_ID_MIN_PREFIX = 4;

/** What is wrong with the filters, said for the field it concerns, or null. */
export function auditFilterError(filters: AuditFilters): string | null {
  if (filters.person && !uuidPattern.test(filters.person.trim()))
    return 'A person is named by their user id (a UUID such as 3f2b…-…).';
  const search = filters.search.trim();
  if (search && search.length < RECORD_ID_MIN_PREFIX)
    return `Search a record id by the whole id or its first ${RECORD_ID_MIN_PREFIX} characters or more.`;
  if (filters.from && filters.to && filters.from > filters.to)
    return 'The "from" date is after the "to" date.';
  return null;
}

/** One page of entries, newest first, older than `before` (keyset: the last id shown). */
export async function queryAuditLog(
  organizationId: string | null,
  filters: AuditFilters,
  limit: number,
  before?: number,
): Promise<AuditEntry[]> {
  const client = await getSupabase();
  let query = client.from('audit_log').select(columns);
  if (organizationId) query = query.eq('organization_id', organizationId);
  if (filters.action) query = query.eq('action', filters.action);
  if (filters.table) query = query.eq('table_name', filters.table);
  const person = filters.person.trim();
  if (person) query = query.or(`user_id.eq.${person},subject_user_id.eq.${person}`);
  const search = recordIdSearch(filters.search);
  if (search) {
    query =
      search.kind === 'whole'
        ? query.eq('record_id', search.value)
        : query.like('record_id', `${search.value}*`);
  }
  if (filters.from) query = query.gte('timestamp', `${filters.from}T00:00:00Z`);
  if (filters.to) query = query.lt('timestamp', nextDay(filters.to));
  if (before !== undefined) query = query.lt('id', before);
  const { data, error } = await query.order('id', { ascending: false }).limit(limit);
  if (error) throw new Error(error.message);
  return data as AuditEntry[];
}

/**
 * The search box's text as a record id filter (decision 0427): a whole UUID is matched exactly,
 * anything else as the start of an id, read as a range of the record id index. Hex ids are
 * lower-cased as the database writes them; LIKE's wildcards are escaped, and `*` (PostgREST's
 * wildcard) dropped, so the text matches only ids that start with it.
 */
export function recordIdSearch(text: string): { kind: 'whole' | 'prefix'; value: string } | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const value = /^[0-9a-f-]+$/i.test(trimmed) ? trimmed.toLowerCase() : trimmed;
  if (uuidPattern.test(value)) return { kind: 'whole', value };
  return { kind: 'prefix', value: value.replace(/\*/g, '').replace(/[\\%_]/g, '\\$&') };
}

function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString();
}

export function useAuditLog(
  userId: string,
  organizationId: string | null,
  filters: AuditFilters,
  before: number | undefined,
) {
  const invalid = auditFilterError(filters);
  return useQuery({
    queryKey: complianceKeys.auditLog(userId, organizationId, { ...filters, before }),
    queryFn: () => queryAuditLog(organizationId, filters, AUDIT_PAGE_SIZE + 1, before),
    enabled: invalid === null,
    placeholderData: keepPreviousData,
  });
}

/**
 * The filtered entries (at most AUDIT_EXPORT_LIMIT) for a CSV; the export is recorded in the
 * audit log first, as every export of personal-data identifiers is (decision 0403 watches
 * for bursts of them).
 */
export async function exportAuditLog(
  organizationId: string | null,
  filters: AuditFilters,
): Promise<AuditEntry[]> {
  const client = await getSupabase();
  const recorded = await client.rpc('record_audit_event', {
    action: 'audit_log.export',
    purpose: 'compliance review of the audit log',
    legal_basis: 'legal_obligation',
    table_name: 'public.audit_log',
    details: { filters: { ...filters }, organization_id: organizationId },
  });
  if (recorded.error) throw new Error(recorded.error.message);
  return queryAuditLog(organizationId, filters, AUDIT_EXPORT_LIMIT);
}

export interface ChainCheck {
  ok: boolean;
  checked: number;
  first_broken_id: number | null;
  problem: string | null;
}

export function useVerifyChain() {
  return useMutation({
    mutationFn: async (): Promise<ChainCheck> => {
      const client = await getSupabase();
      const { data, error } = await client.rpc('verify_audit_chain');
      if (error) throw new Error(error.message);
      const [row] = data as ChainCheck[];
      if (!row) throw new Error('The chain check returned nothing.');
      return row;
    },
  });
}

export interface AccessPattern {
  day: string;
  user_id: string | null;
  table_name: string;
  action: string;
  entries: number;
}

export function useAccessPatterns(userId: string, organizationId: string | null, days: number) {
  return useQuery({
    queryKey: complianceKeys.patterns(userId, organizationId, days),
    queryFn: () => getAccessPatterns(organizationId, days),
  });
}

export async function getAccessPatterns(
  organizationId: string | null,
  days: number,
): Promise<AccessPattern[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('audit_access_patterns', {
    since_days: days,
    organization: organizationId,
  });
  if (error) throw new Error(error.message);
  return (data as AccessPattern[]).map((row) => ({ ...row, entries: Number(row.entries) }));
}
