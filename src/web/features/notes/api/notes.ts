/**
 * The learner's notes: the list (searched with Postgres full-text search, filtered by tag),
 * one note, and its writes. Notes are their author's alone (RLS, decision 0161).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEnrolledCourses } from '@/lib/enrolled-courses';
import { getSupabase } from '@/lib/supabase';

export const noteKeys = {
  all: ['notes'] as const,
  user: (userId: string) => [...noteKeys.all, userId] as const,
  list: (userId: string, search: string, tag: string) =>
    [...noteKeys.user(userId), 'list', search, tag] as const,
  note: (userId: string, id: string) => [...noteKeys.user(userId), 'note', id] as const,
  highlight: (userId: string, id: string) => [...noteKeys.user(userId), 'highlight', id] as const,
};

function serviceError(error: { message: string; code?: string }): Error {
  if (
    error.code === 'PGRST413' ||
    (error.code === '23514' && /notes_body_size/.test(error.message))
  )
    return new Error('A note must be smaller than 1 MB.');
  return new Error(error.message);
}

export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
  courseId: string | null;
  courseTitle: string | null;
  lessonId: string | null;
  highlightId: string | null;
  updatedAt: string;
}

interface NoteRow {
  id: string;
  title: string;
  body: string;
  tags: string[];
  course_id: string | null;
  lesson_id: string | null;
  highlight_id: string | null;
  updated_at: string;
  course: { title: string } | null;
}

const noteColumns =
  'id, title, body, tags, course_id, lesson_id, highlight_id, updated_at, course:courses(title)';

const toNote = (row: NoteRow): Note => ({
  id: row.id,
  title: row.title,
  body: row.body,
  tags: row.tags,
  courseId: row.course_id,
  courseTitle: row.course?.title ?? null,
  lessonId: row.lesson_id,
  highlightId: row.highlight_id,
  updatedAt: row.updated_at,
});

export async function getNotes(search: string, tag: string): Promise<Note[]> {
  const client = await getSupabase();
  let query = client.from('notes').select(noteColumns);
  if (search.trim())
    query = query.textSearch('search', search.trim(), { type: 'websearch', config: 'english' });
  if (tag) query = query.contains('tags', [tag]);
  const { data, error } = await query.order('updated_at', { ascending: false }).limit(200);
  if (error) throw serviceError(error);
  return (data as unknown as NoteRow[]).map(toNote);
}

export function useNotes(userId: string, search: string, tag: string) {
  return useQuery({
    queryKey: noteKeys.list(userId, search, tag),
    queryFn: () => getNotes(search, tag),
  });
}

export async function getNote(id: string): Promise<Note | null> {
  const client = await getSupabase();
  const { data, error } = await client.from('notes').select(noteColumns).eq('id', id).maybeSingle();
  if (error) throw serviceError(error);
  return data ? toNote(data as unknown as NoteRow) : null;
}

export function useNote(userId: string, id: string) {
  return useQuery({
    queryKey: noteKeys.note(userId, id),
    queryFn: () => getNote(id),
    // The editor owns the text once loaded; a refetch must not overwrite typing.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

export interface NoteFields {
  title: string;
  body: string;
  tags: string[];
  courseId: string | null;
  lessonId: string | null;
  highlightId: string | null;
}

const noteRow = (fields: NoteFields) => ({
  title: fields.title,
  body: fields.body,
  tags: fields.tags,
  course_id: fields.courseId,
  lesson_id: fields.lessonId,
  highlight_id: fields.highlightId,
});

/** Inserts (no id yet) or updates the note; returns its id and the time it was saved. */
export async function saveNote(
  id: string | null,
  fields: NoteFields,
): Promise<{ id: string; updatedAt: string }> {
  const client = await getSupabase();
  const query = id
    ? client.from('notes').update(noteRow(fields)).eq('id', id)
    : client.from('notes').insert(noteRow(fields));
  const { data, error } = await query.select('id, updated_at').single();
  if (error) throw serviceError(error);
  const row = data as { id: string; updated_at: string };
  return { id: row.id, updatedAt: row.updated_at };
}

export async function deleteNote(id: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.from('notes').delete().eq('id', id);
  if (error) throw serviceError(error);
}

export function useDeleteNote(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNote,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noteKeys.user(userId) }),
  });
}

/** Courses a note may be linked to: those the learner is enrolled in, by title. */
export function useNoteCourses(userId: string) {
  return useEnrolledCourses(userId, 'title');
}

export interface HighlightSource {
  id: string;
  text: string;
  courseId: string;
  lessonId: string;
}

export async function getHighlight(id: string): Promise<HighlightSource> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('highlights')
    .select('id, text, course_id, lesson_id')
    .eq('id', id)
    .maybeSingle();
  if (error) throw serviceError(error);
  if (!data) throw new Error('This highlight does not exist, or is not yours.');
  const row = data as { id: string; text: string; course_id: string; lesson_id: string };
  return { id: row.id, text: row.text, courseId: row.course_id, lessonId: row.lesson_id };
}

export function useHighlight(userId: string, id: string | null) {
  return useQuery({
    queryKey: noteKeys.highlight(userId, id ?? ''),
    queryFn: () => getHighlight(id!),
    enabled: id !== null,
  });
}
