/**
 * The organization export (decision 0611): every enrolment of an organization with its learner,
 * progress and quiz results, as JSON or CSV. It pages through `get_organization_report` — the
 * procedure the reports screen reads — under the caller's own claims, so the database decides
 * who may export what (an organization's admins and its API keys), and records the export in the
 * audit log.
 */
import { toCsv } from '../../common/csv';
import {
  EXPORT_MAX_ROWS,
  exportColumns,
  type ExportQuery,
  type ExportRow,
} from '../../common/organization-export';
import type { Database, JwtClaims } from '../db/types';

const PAGE_SIZE = 1000;

export class ExportError extends Error {
  constructor(
    public readonly status: 400 | 403 | 404 | 413,
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ExportError';
  }
}

function exportErrorFrom(error: unknown): ExportError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (code === '42501') return new ExportError(403, 'forbidden', error.message);
  if (code === '22023' || code === '22P02' || code === '22007' || code === '22008')
    return new ExportError(400, 'invalid_input', error.message);
  return undefined;
}

export interface OrganizationExport {
  rows: ExportRow[];
}

/** Reads every row of the filtered report, a page at a time, as the caller. */
export async function exportOrganization(
  db: Database,
  claims: JwtClaims,
  org: string,
  query: ExportQuery,
): Promise<OrganizationExport> {
  const rows: ExportRow[] = [];
  let after: { enrolled_at: string; id: string } | undefined;
  try {
    for (;;) {
      const { rows: page } = await db.queryAsRole<{ listing: ExportRow[] }>(
        claims,
        `select public.get_organization_report(
           organization_id => $1::uuid, course_id => $2::uuid, board_id => $3::uuid,
           enrolled_from => $4::date, enrolled_to => $5::date,
           after_enrolled_at => $6::timestamptz, after_id => $7::uuid, page_size => $8) as listing`,
        [
          org,
          query.course_id ?? null,
          query.board_id ?? null,
          query.enrolled_from ?? null,
          query.enrolled_to ?? null,
          after?.enrolled_at ?? null,
          after?.id ?? null,
          PAGE_SIZE,
        ],
      );
      const listing = page[0]?.listing ?? [];
      rows.push(...listing);
      if (rows.length > EXPORT_MAX_ROWS)
        throw new ExportError(
          413,
          'too_many_rows',
          `The export has more than ${EXPORT_MAX_ROWS} rows: narrow it by course, board or enrolment dates.`,
        );
      if (listing.length < PAGE_SIZE) break;
      const last = listing[listing.length - 1]!;
      after = { enrolled_at: last.enrolled_at, id: last.enrollment_id };
    }
  } catch (error) {
    throw exportErrorFrom(error) ?? error;
  }
  await db.queryAsRole(
    claims,
    `select public.record_audit_event(
       'organization.export', 'organization administration', 'contract',
       'public.enrollments', null, jsonb_build_object('organization_id', $1::text, 'rows', $2::int,
       'format', $3::text, 'filters', $4::jsonb))`,
    [
      org,
      rows.length,
      query.format,
      JSON.stringify({
        course_id: query.course_id ?? null,
        board_id: query.board_id ?? null,
        enrolled_from: query.enrolled_from ?? null,
        enrolled_to: query.enrolled_to ?? null,
      }),
    ],
  );
  return { rows };
}

/** The rows as a CSV file, guarded against spreadsheet formulas. */
export function exportCsv(rows: readonly ExportRow[]): string {
  return toCsv(
    exportColumns,
    rows.map((row) => exportColumns.map((column) => row[column])),
  );
}
