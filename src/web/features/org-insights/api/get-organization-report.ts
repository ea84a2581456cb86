/**
 * The progress-and-results report: one row per enrolment, newest first. The preview and the
 * printable view read one bounded page; the CSV export walks every page (keyset paging on the
 * server) up to a stated limit and says when it stopped there.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import type { ReportFilters } from '../report-filters';
import { insightsKeys, serviceError } from './insights-keys';

export interface ReportRow {
  enrollmentId: string;
  learner: string;
  email: string;
  boards: string | null;
  course: string;
  status: 'active' | 'completed' | 'dropped';
  progressPercent: number;
  enrolledAt: string;
  completedAt: string | null;
  lastActiveDay: string | null;
  gradedAttempts: number;
  averageScore: number | null;
}

interface Row {
  enrollment_id: string;
  learner: string | null;
  email: string | null;
  boards: string | null;
  course: string;
  status: ReportRow['status'];
  progress_percent: number;
  enrolled_at: string;
  completed_at: string | null;
  last_active_day: string | null;
  graded_attempts: number;
  average_score: number | null;
}

/** The most rows one export writes; beyond it the admin narrows the filters. */
export const EXPORT_ROW_LIMIT = 50_000;
const SERVER_PAGE = 1000;

async function getReportPage(
  organizationId: string,
  filters: ReportFilters,
  after: ReportRow | null,
  pageSize: number,
): Promise<ReportRow[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('get_organization_report', {
    organization_id: organizationId,
    course_id: filters.course || null,
    board_id: filters.board || null,
    enrolled_from: filters.from || null,
    enrolled_to: filters.to || null,
    after_enrolled_at: after?.enrolledAt ?? null,
    after_id: after?.enrollmentId ?? null,
    page_size: pageSize,
  });
  if (error) throw serviceError(error);
  return (data as Row[]).map((row) => ({
    enrollmentId: row.enrollment_id,
    learner: row.learner ?? row.email ?? 'Unknown learner',
    email: row.email ?? '',
    boards: row.boards,
    course: row.course,
    status: row.status,
    progressPercent: row.progress_percent,
    enrolledAt: row.enrolled_at,
    completedAt: row.completed_at,
    lastActiveDay: row.last_active_day,
    gradedAttempts: row.graded_attempts,
    averageScore: row.average_score,
  }));
}

export interface ReportRows {
  rows: ReportRow[];
  /** More rows match than were read. */
  truncated: boolean;
}

/** Up to `limit` rows, reading pages until the report ends or the limit is reached. */
export async function getOrganizationReport(
  organizationId: string,
  filters: ReportFilters,
  limit: number,
): Promise<ReportRows> {
  const rows: ReportRow[] = [];
  for (;;) {
    const want = Math.min(SERVER_PAGE, limit + 1 - rows.length);
    const page = await getReportPage(organizationId, filters, rows.at(-1) ?? null, want);
    rows.push(...page);
    if (page.length < want) return { rows, truncated: false };
    if (rows.length > limit) return { rows: rows.slice(0, limit), truncated: true };
  }
}

export function useOrganizationReport(
  userId: string,
  organizationId: string,
  filters: ReportFilters,
  limit: number,
  enabled = true,
) {
  return useQuery({
    queryKey: insightsKeys.report(userId, organizationId, filters, limit),
    queryFn: () => getOrganizationReport(organizationId, filters, limit),
    enabled,
  });
}
