/**
 * The compliance console's export of the audit log (decision 0428): every entry the filters
 * match, as CSV or JSON, streamed in keyset batches straight to the response. Each batch is its
 * own short query as the caller, so row-level security and the column grants decide what is
 * written, memory stays one batch whatever the size, PGlite is never held by one long
 * transaction, and a client that goes away stops the export before its next batch. A period is
 * bounded by the ids of its days as the console's pages are (src/common/audit-period.ts), so an
 * export of a period far back starts there.
 */
import { z } from 'zod';
import {
  auditPeriodIdBounds,
  type PeriodIdBounds,
  type PeriodIdsRow,
} from '../../common/audit-period';
import { csvCell } from '../../common/csv';
import type { Database, JwtClaims } from '../db/types';

/** Entries per query: big enough to amortise a round trip, small enough to keep memory flat. */
export const AUDIT_EXPORT_BATCH = 1000;

const uuid = z.uuid('Name a person or organization by its id (a UUID).');
const day = z.iso.date('Give dates as YYYY-MM-DD.');

/** The console's filters (src/web/features/compliance/api/audit-log.ts), as query parameters. */
export const auditExportQuery = z
  .object({
    format: z.enum(['csv', 'json'], 'Choose format=csv or format=json.'),
    organization: uuid.optional(),
    action: z.string().trim().min(1).max(200).optional(),
    table: z.string().trim().min(1).max(200).optional(),
    person: uuid.optional(),
    search: z
      .string()
      .trim()
      .min(4, 'Search a record id by the whole id or its first 4 characters or more.')
      .max(500)
      .optional(),
    from: day.optional(),
    to: day.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'The "from" date is after the "to" date.',
    path: ['to'],
  });
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

/** The columns written, in order: identifiers and actions, never recorded values. */
export const AUDIT_EXPORT_COLUMNS = [
  'id',
  'timestamp',
  'user_id',
  'action',
  'table_name',
  'record_id',
  'changed_fields',
  'purpose',
  'legal_basis',
  'ip_address',
  'session_id',
  'subject_user_id',
  'organization_id',
] as const;

type ExportRow = Record<(typeof AUDIT_EXPORT_COLUMNS)[number], unknown> & { id: string };

/**
 * One batch's statement: the filters, the ids of the period's days (decision 0431, as the
 * console's pages), then entries older than the last one written.
 */
function batchQuery(query: AuditExportQuery, bounds: PeriodIdBounds, before: string | null) {
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  // A record id search reads through the function that makes its prefix an index range
  // (decision 0427); a hex id is lower-cased as the console does.
  const search =
    query.search && /^[0-9a-f-]+$/i.test(query.search) ? query.search.toLowerCase() : query.search;
  const source = search ? `public.audit_log_by_record_id(${param(search)})` : 'public.audit_log';
  const where: string[] = [];
  if (query.organization) where.push(`organization_id = ${param(query.organization)}::uuid`);
  if (query.action) where.push(`action = ${param(query.action)}`);
  if (query.table) where.push(`table_name = ${param(query.table)}`);
  if (query.person) {
    const person = param(query.person);
    where.push(`(user_id = ${person}::uuid or subject_user_id = ${person}::uuid)`);
  }
  if (query.from)
    where.push(`"timestamp" >= ${param(query.from)}::date::timestamp at time zone 'UTC'`);
  if (query.to)
    where.push(`"timestamp" < (${param(query.to)}::date + 1)::timestamp at time zone 'UTC'`);
  if (bounds.atLeast !== undefined) where.push(`entry.id >= ${param(bounds.atLeast)}::bigint`);
  if (bounds.atMost !== undefined) where.push(`entry.id <= ${param(bounds.atMost)}::bigint`);
  if (before !== null) where.push(`entry.id < ${param(before)}::bigint`);
  const sql = `select id::text as id, "timestamp", user_id, action, table_name, record_id,
      changed_fields, purpose, legal_basis, host(ip_address) as ip_address, session_id,
      subject_user_id, organization_id
    from ${source} as entry
    ${where.length > 0 ? `where ${where.join(' and ')}` : ''}
    order by entry.id desc limit ${AUDIT_EXPORT_BATCH}`;
  return { sql, params };
}

function csvLine(row: ExportRow): string {
  return (
    AUDIT_EXPORT_COLUMNS.map((column) => {
      const value = row[column];
      if (Array.isArray(value)) return csvCell(value.join(' '));
      if (value instanceof Date) return csvCell(value.toISOString());
      return csvCell(value as string | null);
    }).join(',') + '\r\n'
  );
}

function jsonRow(row: ExportRow): string {
  return JSON.stringify({ ...row, id: Number(row.id) });
}

/**
 * Records the export in the audit log as the caller (bursts of exports raise a mass-export
 * incident, decision 0403), then returns its body: a stream that reads one batch each time the
 * client has taken the last. Cancelling it (the client went away) ends it: a batch being read
 * is dropped and no other is read. `onEnd` learns how many entries were written, in how many
 * batches, and whether the export was complete.
 */
export async function exportAuditLog(
  db: Database,
  claims: JwtClaims,
  query: AuditExportQuery,
  onEnd?: (outcome: { entries: number; complete: boolean; batches: number }) => void,
): Promise<ReadableStream<Uint8Array>> {
  await db.asRole(claims, (tx) =>
    tx.query(
      `select public.record_audit_event(
         action => 'audit_log.export', purpose => 'compliance review of the audit log',
         legal_basis => 'legal_obligation', table_name => 'public.audit_log',
         details => $1::jsonb)`,
      [JSON.stringify({ format: query.format, filters: { ...query, format: undefined } })],
    ),
  );
  // The ids every entry of the period lies between: the first batch starts at the period's end
  // instead of walking down to it from the newest entry. A period with no entry reads nothing.
  const bounds = await auditPeriodIdBounds(query, async (since, until) => {
    const { rows } = await db.queryAsRole<PeriodIdsRow & Record<string, unknown>>(
      claims,
      'select first_id::text, last_id::text from public.audit_log_ids_between($1::date, $2::date)',
      [since, until],
    );
    return rows;
  });
  const encoder = new TextEncoder();
  let before: string | null = null;
  let entries = 0;
  let batches = 0;
  let ended = false;
  const end = (complete: boolean) => {
    if (ended) return;
    ended = true;
    onEnd?.({ entries, complete, batches });
  };
  const json = query.format === 'json';

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // CSV starts with a byte-order mark, as lib/csv's downloads do, so Excel reads UTF-8.
        controller.enqueue(
          encoder.encode(json ? '[' : `\uFEFF${AUDIT_EXPORT_COLUMNS.join(',')}\r\n`),
        );
      },
      async pull(controller) {
        if (ended) return;
        let rows: ExportRow[] = [];
        try {
          if (bounds !== null) {
            const { sql, params } = batchQuery(query, bounds, before);
            rows = (await db.queryAsRole<ExportRow>(claims, sql, params)).rows;
            batches += 1;
          }
        } catch (error) {
          if (ended) return;
          end(false);
          controller.error(error);
          return;
        }
        // Cancelled while this batch was read: nothing more is written or read.
        if (ended) return;
        if (rows.length > 0) {
          const body = json
            ? rows.map((row, i) => (entries + i === 0 ? '\n' : ',\n') + jsonRow(row)).join('')
            : rows.map(csvLine).join('');
          entries += rows.length;
          before = rows[rows.length - 1]!.id;
          controller.enqueue(encoder.encode(body));
        }
        if (rows.length < AUDIT_EXPORT_BATCH) {
          if (json) controller.enqueue(encoder.encode(entries === 0 ? ']\n' : '\n]\n'));
          end(true);
          controller.close();
        }
      },
      cancel() {
        end(false);
      },
    },
    // One batch waits at most: the next is read only once the client has taken this one.
    { highWaterMark: 0 },
  );
}
