/**
 * The live room's reads, from the tables (decision 0310): the course and whether the user
 * teaches it, the latest chat, the open (or last closed) question with the user's answer, the
 * raise-hand queue and the mutes. Row-level security decides what each person gets; the same
 * reads catch a client up after a reconnect.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { liveKeys } from './live-keys';

/** How much chat the room loads: the latest messages, oldest first on screen. */
export const CHAT_HISTORY = 200;

export interface LiveHeader {
  title: string;
  /** Teaches the course (instructor, the organization's admins, a personal course's owner). */
  teaches: boolean;
  /** Enrolled (and not deactivated): a learner of the room. */
  enrolled: boolean;
  /** The user's own name as the room shows it (their profile's). */
  myName: string;
}

export interface LiveMessage {
  id: string;
  userId: string;
  authorName: string;
  fromInstructor: boolean;
  body: string;
  createdAt: string;
  removedAt: string | null;
  /** Demo content (the seed's welcome), shown as a sample. */
  sample: boolean;
}

export interface LiveQuestion {
  id: string;
  kind: 'poll' | 'short';
  prompt: string;
  choices: string[];
  status: 'open' | 'closed';
  tally: number[];
  answers: number;
  openedAt: string;
  closedAt: string | null;
}

export interface LiveAnswer {
  id: string;
  userId: string;
  userName: string;
  choice: number | null;
  text: string | null;
  createdAt: string;
}

export interface QuestionState {
  question: LiveQuestion | null;
  /** The user's own answer to it; for those who teach, every answer (short ones are read). */
  answers: LiveAnswer[];
}

export interface LiveHand {
  userId: string;
  userName: string;
  raisedAt: string;
}

export interface LiveMute {
  userId: string;
  userName: string;
}

function failed(error: { message: string }): Error {
  return new Error(error.message);
}

export async function getLiveHeader(userId: string, courseId: string): Promise<LiveHeader | null> {
  const client = await getSupabase();
  const [course, teaches, enrolled, profile] = await Promise.all([
    client.from('courses').select('title').eq('id', courseId).maybeSingle(),
    client.rpc('has_role', { uid: userId, role_name: 'instructor', scope: courseId }),
    client.rpc('has_role', { uid: userId, role_name: 'learner', scope: courseId }),
    client.from('profiles').select('display_name, full_name').eq('id', userId).maybeSingle(),
  ]);
  if (course.error) throw failed(course.error);
  if (teaches.error) throw failed(teaches.error);
  if (enrolled.error) throw failed(enrolled.error);
  if (!course.data) return null;
  const names = profile.data as { display_name: string | null; full_name: string | null } | null;
  return {
    myName: names?.full_name?.trim() || names?.display_name?.trim() || 'Someone',
    title: (course.data as { title: string }).title,
    teaches: teaches.data === true,
    enrolled: enrolled.data === true,
  };
}

export interface MessageRow {
  id: string;
  user_id: string;
  author_name: string;
  from_instructor: boolean;
  body: string;
  created_at: string;
  removed_at: string | null;
  sample: boolean;
}

export const messageColumns =
  'id, user_id, author_name, from_instructor, body, created_at, removed_at, sample';

export function messageFrom(row: MessageRow): LiveMessage {
  return {
    id: row.id,
    userId: row.user_id,
    authorName: row.author_name,
    fromInstructor: row.from_instructor,
    body: row.body,
    createdAt: row.created_at,
    removedAt: row.removed_at,
    sample: row.sample,
  };
}

export async function getLiveMessages(courseId: string): Promise<LiveMessage[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('live_messages')
    .select(messageColumns)
    .eq('course_id', courseId)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(CHAT_HISTORY);
  if (error) throw failed(error);
  return (data as MessageRow[]).map(messageFrom).reverse();
}

interface QuestionRow {
  id: string;
  kind: 'poll' | 'short';
  prompt: string;
  choices: string[];
  status: 'open' | 'closed';
  tally: number[];
  answers: number;
  opened_at: string;
  closed_at: string | null;
}

export async function getQuestionState(courseId: string): Promise<QuestionState> {
  const client = await getSupabase();
  const latest = await client
    .from('live_questions')
    .select('id, kind, prompt, choices, status, tally, answers, opened_at, closed_at')
    .eq('course_id', courseId)
    .order('opened_at', { ascending: false })
    .limit(1)
    .maybeSingle();
  if (latest.error) throw failed(latest.error);
  const row = latest.data as QuestionRow | null;
  if (!row) return { question: null, answers: [] };
  const answers = await client
    .from('live_answers')
    .select('id, user_id, user_name, choice, text, created_at')
    .eq('question_id', row.id)
    .order('created_at')
    .limit(1000);
  if (answers.error) throw failed(answers.error);
  return {
    question: {
      id: row.id,
      kind: row.kind,
      prompt: row.prompt,
      choices: row.choices,
      status: row.status,
      tally: row.tally,
      answers: row.answers,
      openedAt: row.opened_at,
      closedAt: row.closed_at,
    },
    answers: (
      answers.data as {
        id: string;
        user_id: string;
        user_name: string;
        choice: number | null;
        text: string | null;
        created_at: string;
      }[]
    ).map((a) => ({
      id: a.id,
      userId: a.user_id,
      userName: a.user_name,
      choice: a.choice,
      text: a.text,
      createdAt: a.created_at,
    })),
  };
}

export async function getHands(courseId: string): Promise<LiveHand[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('live_hands')
    .select('user_id, user_name, raised_at')
    .eq('course_id', courseId)
    .order('raised_at')
    .limit(500);
  if (error) throw failed(error);
  return (data as { user_id: string; user_name: string; raised_at: string }[]).map((h) => ({
    userId: h.user_id,
    userName: h.user_name,
    raisedAt: h.raised_at,
  }));
}

export async function getMutes(courseId: string): Promise<LiveMute[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('live_mutes')
    .select('user_id, user_name')
    .eq('course_id', courseId)
    .order('created_at')
    .limit(1000);
  if (error) throw failed(error);
  return (data as { user_id: string; user_name: string }[]).map((m) => ({
    userId: m.user_id,
    userName: m.user_name,
  }));
}

export function useLiveHeader(userId: string, courseId: string) {
  return useQuery({
    queryKey: liveKeys.header(userId, courseId),
    queryFn: () => getLiveHeader(userId, courseId),
  });
}

export function useLiveMessages(userId: string, courseId: string, enabled: boolean) {
  return useQuery({
    queryKey: liveKeys.messages(userId, courseId),
    queryFn: () => getLiveMessages(courseId),
    enabled,
  });
}

export function useQuestionState(userId: string, courseId: string, enabled: boolean) {
  return useQuery({
    queryKey: liveKeys.question(userId, courseId),
    queryFn: () => getQuestionState(courseId),
    enabled,
  });
}

export function useHands(userId: string, courseId: string, enabled: boolean) {
  return useQuery({
    queryKey: liveKeys.hands(userId, courseId),
    queryFn: () => getHands(courseId),
    enabled,
  });
}

/** For those who teach: everyone muted. For a learner: themself, when muted. */
export function useMutes(userId: string, courseId: string, enabled: boolean) {
  return useQuery({
    queryKey: liveKeys.mutes(userId, courseId),
    queryFn: () => getMutes(courseId),
    enabled,
  });
}
