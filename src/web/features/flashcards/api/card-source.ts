/** What a new card starts from: a note or a highlight of the learner's own (RLS keeps it so). */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { flashcardKeys, serviceError } from './flashcard-keys';

export interface CardSource {
  kind: 'note' | 'highlight';
  id: string;
  front: string;
  back: string;
  courseId: string | null;
}

export async function getCardSource(kind: 'note' | 'highlight', id: string): Promise<CardSource> {
  const client = await getSupabase();
  if (kind === 'note') {
    const { data, error } = await client
      .from('notes')
      .select('id, title, body, course_id')
      .eq('id', id)
      .maybeSingle();
    if (error) throw serviceError(error);
    if (!data) throw new Error('This note does not exist, or is not yours.');
    const note = data as { id: string; title: string; body: string; course_id: string | null };
    return {
      kind,
      id,
      front: note.title.trim() || 'What does this note say?',
      back: note.body.slice(0, 20_000),
      courseId: note.course_id,
    };
  }
  const { data, error } = await client
    .from('highlights')
    .select('id, text, course_id')
    .eq('id', id)
    .maybeSingle();
  if (error) throw serviceError(error);
  if (!data) throw new Error('This highlight does not exist, or is not yours.');
  const highlight = data as { id: string; text: string; course_id: string };
  return { kind, id, front: '', back: highlight.text, courseId: highlight.course_id };
}

export function useCardSource(
  userId: string,
  kind: 'note' | 'highlight' | null,
  id: string | null,
) {
  return useQuery({
    queryKey: flashcardKeys.source(userId, kind ?? 'typed', id ?? ''),
    queryFn: () => getCardSource(kind!, id!),
    enabled: kind !== null && id !== null,
  });
}
