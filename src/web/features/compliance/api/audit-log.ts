/**
 * The audit log as a compliance officer reads it (decision 0401): identifiers and actions,
 * filtered and searched on the server, newest first, a page at a time; the chain check; the
 * data-access patterns by day; and an export of the filtered entries (CSV or JSON, streamed by
 * the server, which records it).
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { auditPeriodIdBounds, type PeriodIdBounds, type PeriodIdsRow } from '@common/audit-period';
import { getClientConfig } from '@/lib/client-config';
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
  const prefix = recordIdSearch(filters.search);
  // A record id search reads through the function that turns its prefix into an index range
  // (decision 0427); the other filters, the order and the page apply to it the same way.
  const table = client.from('audit_log').select(columns);
  // The function returns the log's own columns, so its rows filter like the table's.
  let query =
    prefix === null
      ? table
      : (client
          .rpc('audit_log_by_record_id', { prefix })
          .select(columns) as unknown as typeof table);
  if (organizationId) query = query.eq('organization_id', organizationId);
  if (filters.action) query = query.eq('action', filters.action);
  if (filters.table) query = query.eq('table_name', filters.table);
  const person = filters.person.trim();
  if (person) query = query.or(`user_id.eq.${person},subject_user_id.eq.${person}`);
  if (filters.from) query = query.gte('timestamp', `${filters.from}T00:00:00Z`);
  if (filters.to) query = query.lt('timestamp', nextDay(filters.to));
  // The ids every entry of the period lies between (decision 0431): the newest-first scan
  // starts at the period's end instead of walking down to it from the newest entry.
  const bounds = await periodIdBounds(filters.from, filters.to);
  if (bounds === null) return [];
  if (bounds.atLeast !== undefined) query = query.gte('id', bounds.atLeast);
  if (bounds.atMost !== undefined) query = query.lte('id', bounds.atMost);
  if (before !== undefined) query = query.lt('id', before);
  const { data, error } = await query.order('id', { ascending: false }).limit(limit);
  if (error) throw new Error(error.message);
  return data as AuditEntry[];
}

/**
 * The search box's text as the start of a record id (decision 0427), or null: a pasted UUID or
 * hex id is lower-cased, as the database writes them; a whole id is its own start.
 */
export function recordIdSearch(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  return /^[0-9a-f-]+$/i.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

/** The id bounds of the UTC days `from` to `to` (decision 0431); null when none was logged. */
export async function periodIdBounds(from: string, to: string): Promise<PeriodIdBounds | null> {
  const client = await getSupabase();
  return auditPeriodIdBounds({ from, to }, async (since, until) => {
    const { data, error } = await client.rpc('audit_log_ids_between', { since, until });
    if (error) throw new Error(error.message);
    return data as PeriodIdsRow[];
  });
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

export type AuditExportFormat = 'csv' | 'json';

/**
 * Every entry the filters match, as a CSV or JSON file: the server records the export in the
 * audit log (decision 0403 watches for bursts of them) and streams it in batches (decision
 * 0428), however many entries there are.
 */
export async function exportAuditLog(
  organizationId: string | null,
  filters: AuditFilters,
  format: AuditExportFormat,
): Promise<Blob> {
  const [client, config] = await Promise.all([getSupabase(), getClientConfig()]);
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('Sign in again to continue.');
  const params = new URLSearchParams({ format });
  if (organizationId) params.set('organization', organizationId);
  const search = recordIdSearch(filters.search);
  const given = { ...filters, person: filters.person.trim(), search: search ?? '' };
  for (const key of ['action', 'table', 'person', 'search', 'from', 'to'] as const)
    if (given[key]) params.set(key, given[key]);
  const response = await fetch(`${config.apiUrl}/functions/v1/audit-log-export?${params}`, {
    headers: { apikey: config.anonKey, authorization: `Bearer ${token}` },
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    throw new Error(answer.error ?? `The export failed (HTTP ${response.status}).`);
  }
  return response.blob();
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
