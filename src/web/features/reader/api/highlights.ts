/**
 * The learner's highlights in a lesson's file (`public.highlights`, decision 0150), and a note
 * made with one (`public.notes.highlight_id`, decision 0161). The locator is the reader's own:
 * `{ kind: 'pdf', page, start, end }` for PDF, `{ kind: 'epub', cfi, chapter, label? }` for ePub
 * (the CFI of the selected range, its chapter's spine position and title; decision 0167).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { readerKeys } from './reader-keys';

export const highlightColours = ['yellow', 'green', 'blue', 'pink'] as const;
export type HighlightColour = (typeof highlightColours)[number];

export type Locator =
  | { kind: 'pdf'; page: number; start: number; end: number }
  | { kind: 'epub'; cfi: string; chapter: number; label?: string };

export interface Highlight {
  id: string;
  locator: Locator;
  text: string;
  colour: HighlightColour;
  createdAt: string;
}

interface HighlightRow {
  id: string;
  locator: Locator;
  text: string;
  colour: HighlightColour;
  created_at: string;
}

export async function listHighlights(lessonId: string): Promise<Highlight[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('highlights')
    .select('id, locator, text, colour, created_at')
    .eq('lesson_id', lessonId)
    .order('created_at')
    .limit(2000);
  if (error) throw new Error(error.message);
  return ((data ?? []) as HighlightRow[]).map((row) => ({
    id: row.id,
    locator: row.locator,
    text: row.text,
    colour: row.colour,
    createdAt: row.created_at,
  }));
}

export function useHighlights(userId: string, lessonId: string) {
  return useQuery({
    queryKey: readerKeys.highlights(userId, lessonId),
    queryFn: () => listHighlights(lessonId),
  });
}

export interface NewHighlight {
  courseId: string;
  lessonId: string;
  lessonTitle: string;
  locator: Locator;
  text: string;
  colour: HighlightColour;
  /** A note to keep with it (Markdown); made as a note linked to the highlight. */
  note: string;
}

/** Where a highlight is, in words: a note's title and the reader's highlights panel. */
export function placeOf(locator: Locator): string {
  if (locator.kind === 'pdf') return `Page ${locator.page}`;
  const label = typeof locator.label === 'string' ? locator.label.trim() : '';
  return label || `Chapter ${locator.chapter}`;
}

export async function createHighlight(input: NewHighlight): Promise<Highlight> {
  const client = await getSupabase();
  const text = input.text.trim().slice(0, 5000);
  const { data, error } = await client
    .from('highlights')
    .insert({
      course_id: input.courseId,
      lesson_id: input.lessonId,
      locator: input.locator,
      text,
      colour: input.colour,
    })
    .select('id, locator, text, colour, created_at')
    .single();
  if (error) throw new Error(error.message);
  const row = data as HighlightRow;
  const note = input.note.trim();
  if (note) {
    const { error: noteError } = await client.from('notes').insert({
      title: `${input.lessonTitle}, ${placeOf(input.locator)}`.slice(0, 200),
      body: `> ${text.replace(/\n/g, '\n> ')}\n\n${note}`,
      course_id: input.courseId,
      lesson_id: input.lessonId,
      highlight_id: row.id,
    });
    if (noteError) {
      throw new Error(`The highlight was saved, but not its note: ${noteError.message}`);
    }
  }
  return {
    id: row.id,
    locator: row.locator,
    text: row.text,
    colour: row.colour,
    createdAt: row.created_at,
  };
}

export async function deleteHighlight(id: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.from('highlights').delete().eq('id', id);
  if (error) throw new Error(error.message);
}

export function useHighlightMutations(userId: string, lessonId: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: readerKeys.highlights(userId, lessonId) });
  const create = useMutation({ mutationFn: createHighlight, onSettled: refresh });
  const remove = useMutation({ mutationFn: deleteHighlight, onSettled: refresh });
  return { create, remove };
}
