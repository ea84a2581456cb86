/** The learner's goals with progress measured by the database (get_my_goals, decision 0172). */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { progressKeys } from './progress-keys';

export type GoalKind =
  | 'complete_course'
  | 'complete_module'
  | 'reach_score'
  | 'review_cards_daily'
  | 'study_minutes_weekly'
  | 'custom';

export interface Goal {
  id: string;
  courseId: string | null;
  courseTitle: string | null;
  kind: GoalKind;
  title: string;
  note: string;
  dueOn: string | null;
  achievedAt: string | null;
  setByMe: boolean;
  current: number;
  target: number;
  percent: number;
  /** The day or ISO week a recurring goal is measured in. */
  period: string | null;
}

interface GoalRow {
  id: string;
  course_id: string | null;
  course_title: string | null;
  kind: GoalKind;
  title: string;
  note: string;
  due_on: string | null;
  achieved_at: string | null;
  set_by_me: boolean;
  current: number | string;
  target: number | string;
  percent: number;
  period: string | null;
}

export async function getGoals(): Promise<Goal[]> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('get_my_goals');
  if (error) throw new Error(error.message);
  return (data as GoalRow[]).map((row) => ({
    id: row.id,
    courseId: row.course_id,
    courseTitle: row.course_title,
    kind: row.kind,
    title: row.title,
    note: row.note,
    dueOn: row.due_on,
    achievedAt: row.achieved_at,
    setByMe: row.set_by_me,
    current: Number(row.current),
    target: Number(row.target),
    percent: row.percent,
    period: row.period,
  }));
}

export function useGoals(userId: string) {
  return useQuery({ queryKey: progressKeys.goals(userId), queryFn: getGoals });
}
