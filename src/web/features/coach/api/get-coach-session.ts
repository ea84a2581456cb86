/** One session's messages and teaching history, to show it again or resume it. */
import { useQuery } from '@tanstack/react-query';
import type { CoachOffer, CoachState } from '@common/coach-chat';
import { getSupabase } from '@/lib/supabase';
import { coachKeys } from './coach-keys';

export interface CoachMessage {
  id: string;
  sender: 'learner' | 'coach';
  content: string;
  state: CoachState | null;
  offer: CoachOffer | null;
  questionId: string | null;
  engine: string | null;
}

export interface TeachingStep {
  id: number;
  questionId: string | null;
  approach: string;
  learnerAnswer: string | null;
  verdict: 'correct' | 'partially_correct' | 'incorrect' | null;
  createdAt: string;
}

export interface CoachSessionDetail {
  messages: CoachMessage[];
  history: TeachingStep[];
}

export async function getCoachSession(sessionId: string): Promise<CoachSessionDetail> {
  const client = await getSupabase();
  const [messages, history] = await Promise.all([
    client
      .from('chat_messages')
      .select('id, sender, content, state, offer, question_id, engine')
      .eq('session_id', sessionId)
      .order('id'),
    client
      .from('coach_teaching_log')
      .select('id, question_id, approach, learner_answer, verdict, created_at')
      .eq('session_id', sessionId)
      .order('id'),
  ]);
  if (messages.error) throw new Error(messages.error.message);
  if (history.error) throw new Error(history.error.message);
  return {
    messages: (
      messages.data as {
        id: number;
        sender: 'learner' | 'coach';
        content: string;
        state: CoachState | null;
        offer: CoachOffer | null;
        question_id: string | null;
        engine: string | null;
      }[]
    ).map((m) => ({
      id: String(m.id),
      sender: m.sender,
      content: m.content,
      state: m.state,
      offer: m.offer,
      questionId: m.question_id,
      engine: m.engine,
    })),
    history: (
      history.data as {
        id: number;
        question_id: string | null;
        approach: string;
        learner_answer: string | null;
        verdict: TeachingStep['verdict'];
        created_at: string;
      }[]
    ).map((h) => ({
      id: h.id,
      questionId: h.question_id,
      approach: h.approach,
      learnerAnswer: h.learner_answer,
      verdict: h.verdict,
      createdAt: h.created_at,
    })),
  };
}

export function useCoachSession(userId: string, sessionId: string | null) {
  return useQuery({
    queryKey: coachKeys.session(userId, sessionId ?? ''),
    queryFn: () => getCoachSession(sessionId!),
    enabled: sessionId !== null,
  });
}
