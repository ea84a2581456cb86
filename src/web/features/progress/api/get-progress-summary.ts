/** XP, level, streak (get_my_progress, decision 0171) and the badges earned. */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { progressKeys } from './progress-keys';

export interface ProgressSummary {
  xp: number;
  level: number;
  /** XP at which the current level began and the next one begins. */
  levelXp: number;
  nextLevelXp: number;
  currentStreak: number;
  longestStreak: number;
  freezes: number;
  activeToday: boolean;
  today: string;
  timeZone: string;
  badges: { badge: string; earnedAt: string }[];
}

interface SummaryRow {
  xp: number;
  level: number;
  level_xp: number;
  next_level_xp: number;
  current_streak: number;
  longest_streak: number;
  freezes: number;
  active_today: boolean;
  today: string;
  time_zone: string;
}

export async function getProgressSummary(userId: string): Promise<ProgressSummary> {
  const client = await getSupabase();
  const [summary, badges] = await Promise.all([
    client.rpc('get_my_progress'),
    client.from('user_badges').select('badge, earned_at').eq('user_id', userId).order('earned_at'),
  ]);
  if (summary.error) throw new Error(summary.error.message);
  if (badges.error) throw new Error(badges.error.message);
  const row = summary.data as SummaryRow;
  return {
    xp: Number(row.xp),
    level: row.level,
    levelXp: Number(row.level_xp),
    nextLevelXp: Number(row.next_level_xp),
    currentStreak: row.current_streak,
    longestStreak: row.longest_streak,
    freezes: row.freezes,
    activeToday: row.active_today,
    today: row.today,
    timeZone: row.time_zone,
    badges: (badges.data as { badge: string; earned_at: string }[]).map((b) => ({
      badge: b.badge,
      earnedAt: b.earned_at,
    })),
  };
}

export function useProgressSummary(userId: string) {
  return useQuery({
    queryKey: progressKeys.summary(userId),
    queryFn: () => getProgressSummary(userId),
  });
}
