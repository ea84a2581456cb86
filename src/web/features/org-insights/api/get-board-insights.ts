/** The owner's breakdown: every board of the organization with its learners' figures. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { insightsKeys, serviceError } from './insights-keys';

export interface BoardFigures {
  boardId: string;
  name: string;
  learners: number;
  enrollments: number;
  completions: number;
  gradedAttempts: number;
  averageScore: number | null;
  activeLearners7d: number;
}

interface BoardRow {
  board_id: string;
  name: string;
  learners: number;
  enrollments: number;
  completions: number;
  graded_attempts: number;
  average_score: number | null;
  active_learners_7d: number;
}

export async function getBoardInsights(organizationId: string): Promise<BoardFigures[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('get_board_insights', {
    organization_id: organizationId,
  });
  if (error) throw serviceError(error);
  return (data as BoardRow[]).map((row) => ({
    boardId: row.board_id,
    name: row.name,
    learners: row.learners,
    enrollments: row.enrollments,
    completions: row.completions,
    gradedAttempts: row.graded_attempts,
    averageScore: row.average_score,
    activeLearners7d: row.active_learners_7d,
  }));
}

export function useBoardInsights(userId: string, organizationId: string, enabled: boolean) {
  return useQuery({
    queryKey: insightsKeys.boards(userId, organizationId),
    queryFn: () => getBoardInsights(organizationId),
    enabled,
  });
}
