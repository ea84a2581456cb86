/**
 * The dashboard's view of the learner's level, streak and goals, measured by the database
 * (get_my_progress and get_my_goals, decisions 0171 and 0172); the progress screen has the rest.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { learnKeys } from './learn-keys';
import { serviceError } from './scope';

export interface StudySummary {
  xp: number;
  level: number;
  currentStreak: number;
  activeToday: boolean;
  today: string;
  goals: {
    id: string;
    title: string;
    percent: number;
    dueOn: string | null;
    courseTitle: string | null;
  }[];
}

export async function getStudySummary(): Promise<StudySummary> {
  const client = await getSupabase();
  const [progress, goals] = await Promise.all([
    client.rpc('get_my_progress'),
    client.rpc('get_my_goals'),
  ]);
  if (progress.error) throw serviceError(progress.error);
  if (goals.error) throw serviceError(goals.error);
  const p = progress.data as {
    xp: number;
    level: number;
    current_streak: number;
    active_today: boolean;
    today: string;
  };
  return {
    xp: Number(p.xp),
    level: p.level,
    currentStreak: p.current_streak,
    activeToday: p.active_today,
    today: p.today,
    goals: (
      goals.data as {
        id: string;
        title: string;
        percent: number;
        due_on: string | null;
        course_title: string | null;
      }[]
    ).map((g) => ({
      id: g.id,
      title: g.title,
      percent: g.percent,
      dueOn: g.due_on,
      courseTitle: g.course_title,
    })),
  };
}

export function useStudySummary(userId: string) {
  return useQuery({
    queryKey: [...learnKeys.user(userId), 'study-summary'],
    queryFn: getStudySummary,
  });
}
