/** The user's latest quiz attempts in the given courses. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export interface RecentResult {
  id: string;
  courseId: string;
  assessmentId: string;
  title: string;
  status: 'awaiting_grading' | 'graded';
  score: number | null;
  submittedAt: string;
}

interface AttemptRow {
  id: string;
  course_id: string;
  assessment_id: string;
  status: RecentResult['status'];
  score: number | string | null;
  submitted_at: string;
  assessment: { title: string } | null;
}

export async function getRecentResults(
  userId: string,
  courseIds: readonly string[],
): Promise<RecentResult[]> {
  if (courseIds.length === 0) return [];
  const client = await getSupabase();
  const { data, error } = await client
    .from('assessment_attempts')
    .select(
      'id, course_id, assessment_id, status, score, submitted_at, assessment:assessments(title)',
    )
    .eq('user_id', userId)
    .in('course_id', courseIds)
    .order('submitted_at', { ascending: false })
    .limit(5);
  if (error) throw serviceError(error);
  return (data as unknown as AttemptRow[]).map((row) => ({
    id: row.id,
    courseId: row.course_id,
    assessmentId: row.assessment_id,
    title: row.assessment?.title ?? 'Quiz',
    status: row.status,
    score: row.score === null ? null : Number(row.score),
    submittedAt: row.submitted_at,
  }));
}

export function useRecentResults(userId: string, workspace: string, courseIds: string[]) {
  return useQuery({
    queryKey: [...learnKeys.recentResults(userId, workspace), courseIds.join(',')],
    queryFn: () => getRecentResults(userId, courseIds),
  });
}
