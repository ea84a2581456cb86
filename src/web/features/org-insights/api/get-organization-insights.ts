/** The organization's totals (or one board's, for the owner) from the maintained counters. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { insightsKeys, serviceError } from './insights-keys';

export interface OrganizationTotals {
  courses: number;
  learners: number;
  enrollments: number;
  completions: number;
  gradedAttempts: number;
  averageScore: number | null;
  activeLearners7d: number;
  /** The 7-day window: its first and last UTC day (YYYY-MM-DD). */
  windowStart: string;
  windowEnd: string;
}

interface TotalsRow {
  courses: number;
  learners: number;
  enrollments: number;
  completions: number;
  graded_attempts: number;
  average_score: number | null;
  active_learners_7d: number;
  window_start: string;
  window_end: string;
}

export async function getOrganizationInsights(
  organizationId: string,
  boardId: string | null,
): Promise<OrganizationTotals> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('get_organization_insights', {
    organization_id: organizationId,
    board_id: boardId,
  });
  if (error) throw serviceError(error);
  const row = data as TotalsRow;
  return {
    courses: row.courses,
    learners: row.learners,
    enrollments: row.enrollments,
    completions: row.completions,
    gradedAttempts: row.graded_attempts,
    averageScore: row.average_score,
    activeLearners7d: row.active_learners_7d,
    windowStart: row.window_start,
    windowEnd: row.window_end,
  };
}

export function useOrganizationInsights(
  userId: string,
  organizationId: string,
  boardId: string | null,
) {
  return useQuery({
    queryKey: insightsKeys.totals(userId, organizationId, boardId),
    queryFn: () => getOrganizationInsights(organizationId, boardId),
  });
}
