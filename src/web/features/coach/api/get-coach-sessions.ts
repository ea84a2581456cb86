/** The learner's past coach sessions, latest first, to resume one. */
import { useQuery } from '@tanstack/react-query';
import type { CoachMode, CoachOffer, CoachState } from '@common/coach-chat';
import { getSupabase } from '@/lib/supabase';
import { coachKeys } from './coach-keys';

export interface CoachSessionSummary {
  id: string;
  mode: CoachMode;
  state: CoachState;
  offer: CoachOffer | null;
  title: string;
  courseId: string | null;
  topic: string | null;
  updatedAt: string;
}

export const SESSIONS_SHOWN = 20;

export async function getCoachSessions(userId: string): Promise<CoachSessionSummary[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('chat_sessions')
    .select('id, mode, state, offer, title, course_id, topic, updated_at')
    .eq('user_id', userId)
    .order('updated_at', { ascending: false })
    .limit(SESSIONS_SHOWN);
  if (error) throw new Error(error.message);
  return (
    data as {
      id: string;
      mode: CoachMode;
      state: CoachState;
      offer: CoachOffer | null;
      title: string;
      course_id: string | null;
      topic: string | null;
      updated_at: string;
    }[]
  ).map((row) => ({
    id: row.id,
    mode: row.mode,
    state: row.state,
    offer: row.offer,
    title: row.title,
    courseId: row.course_id,
    topic: row.topic,
    updatedAt: row.updated_at,
  }));
}

export function useCoachSessions(userId: string) {
  return useQuery({
    queryKey: coachKeys.sessions(userId),
    queryFn: () => getCoachSessions(userId),
  });
}
