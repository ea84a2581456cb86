/** A course's leaderboard: opted-in learners only (course_leaderboard, decision 0171). */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { progressKeys } from './progress-keys';

export interface LeaderboardRow {
  rank: number;
  displayName: string;
  xp: number;
  isMe: boolean;
}

export async function getLeaderboard(courseId: string): Promise<LeaderboardRow[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('course_leaderboard', { course_id: courseId });
  if (error) throw new Error(error.message);
  return (
    data as { rank: number; display_name: string; xp: number | string; is_me: boolean }[]
  ).map((r) => ({
    rank: Number(r.rank),
    displayName: r.display_name,
    xp: Number(r.xp),
    isMe: r.is_me,
  }));
}

export function useLeaderboard(userId: string, courseId: string | null) {
  return useQuery({
    queryKey: progressKeys.leaderboard(userId, courseId ?? ''),
    queryFn: () => getLeaderboard(courseId!),
    enabled: courseId !== null,
  });
}
