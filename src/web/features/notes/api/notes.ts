/**
 * The learner's notes: the list (searched with Postgres full-text search, filtered by tag),
 * one note, and its writes. Notes are their author's alone (RLS, decision 0161). Offline, and
 * while a change made offline waits, they are read from and written to the device (decision
 * 0182).
 */
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEnrolledCourses } from '@/lib/enrolled-courses';
import { deviceStoreSupported } from '@/lib/offline/device-store';
import { matchesOffline, type Note, type NoteFields } from '@/lib/offline/note-queue';
import {
  deviceNote,
  keptNotes,
  noteColumns,
  noteRow,
  queueNoteChange,
  toNote,
  updateKeptNote,
  waitingNoteChange,
  withDeviceChanges,
  type NoteRow,
} from '@/lib/offline/offline-notes';
import { refreshQueueStatus, syncNow, useSyncStatus } from '@/lib/offline/offline-sync';
import { getSupabase } from '@/lib/supabase';
import { isOnline } from '@/lib/use-online';

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

export type { Note, NoteFields };

/** The device keeps notes and their offline changes only where IndexedDB works. */
const onDevice = deviceStoreSupported;

export async function getNotes(userId: string, search: string, tag: string): Promise<Note[]> {
  if (!isOnline() && onDevice())
    return (await keptNotes(userId)).filter((note) => matchesOffline(note, search, tag));
  const client = await getSupabase();
  let query = client.from('notes').select(noteColumns);
  if (search.trim())
    query = query.textSearch('search', search.trim(), { type: 'websearch', config: 'english' });
  if (tag) query = query.contains('tags', [tag]);
  const { data, error } = await query.order('updated_at', { ascending: false }).limit(200);
  if (error) throw serviceError(error);
  const notes = (data as unknown as NoteRow[]).map(toNote);
  if (!onDevice()) return notes;
  // Changes still waiting on this device show as the learner left them.
  return (await withDeviceChanges(userId, notes)).filter(
    (note) => !note.pending || matchesOffline(note, search, tag),
  );
}

/** Re-reads the note screens when changes made offline reach the server. */
function useRereadWhenSent(userId: string) {
  const queryClient = useQueryClient();
  const { notesSent } = useSyncStatus(userId);
  useEffect(() => {
    if (notesSent > 0) void queryClient.invalidateQueries({ queryKey: noteKeys.user(userId) });
  }, [notesSent, userId, queryClient]);
}

export function useNotes(userId: string, search: string, tag: string) {
  useRereadWhenSent(userId);
  return useQuery({
    queryKey: noteKeys.list(userId, search, tag),
    queryFn: () => getNotes(userId, search, tag),
    // Offline the device's copy answers.
    networkMode: 'always',
    retry: (failures) => isOnline() && failures < 3,
  });
}

export async function getNote(userId: string, id: string): Promise<Note | null> {
  if (!isOnline() && onDevice()) return deviceNote(userId, id);
  const client = await getSupabase();
  const { data, error } = await client.from('notes').select(noteColumns).eq('id', id).maybeSingle();
  if (error) throw serviceError(error);
  const note = data ? toNote(data as unknown as NoteRow) : null;
  return onDevice() ? deviceNote(userId, id, note) : note;
}

export function useNote(userId: string, id: string) {
  useRereadWhenSent(userId);
  return useQuery({
    queryKey: noteKeys.note(userId, id),
    queryFn: () => getNote(userId, id),
    networkMode: 'always',
    retry: (failures) => isOnline() && failures < 3,
    // The editor owns the text once loaded; a refetch must not overwrite typing.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

export interface SaveResult {
  id: string;
  /** The server's time of the save; null when it waits on this device. */
  updatedAt: string | null;
  /** Kept on this device, to be sent when the connection returns. */
  queued: boolean;
}

export interface NoteWrite {
  userId: string;
  noteId: string;
  /** Not on the server yet: the first save creates it, with this id. */
  isNew: boolean;
  fields: NoteFields;
  courseTitle: string | null;
  /** When the server last changed the version being edited (null for a new note). */
  baseUpdatedAt: string | null;
}

/** Whether a write goes to the device's queue: offline, or the note has a change waiting. */
async function queueing(write: NoteWrite): Promise<boolean> {
  if (!onDevice()) return false;
  return !isOnline() || (await waitingNoteChange(write.userId, write.noteId)) !== null;
}

async function queue(write: NoteWrite, kind: 'create' | 'update' | 'delete'): Promise<void> {
  await queueNoteChange(write.userId, {
    noteId: write.noteId,
    kind,
    fields: write.fields,
    courseTitle: write.courseTitle,
    baseUpdatedAt: write.baseUpdatedAt,
  });
  await refreshQueueStatus(write.userId);
  if (isOnline()) void syncNow(write.userId);
}

/**
 * Creates (with the id made on the device) or updates the note. Offline, when the note has a
 * change waiting, or when no answer comes, the change waits on this device instead.
 */
export async function saveNote(write: NoteWrite): Promise<SaveResult> {
  const kind = write.isNew ? 'create' : 'update';
  if (!(await queueing(write))) {
    const client = await getSupabase();
    const query = write.isNew
      ? client.from('notes').insert({ id: write.noteId, ...noteRow(write.fields) })
      : client.from('notes').update(noteRow(write.fields)).eq('id', write.noteId);
    const { data, error, status } = await query.select(noteColumns).single();
    if (!error) {
      const note = toNote(data as unknown as NoteRow);
      if (onDevice()) await updateKeptNote(write.userId, note).catch(() => undefined);
      return { id: note.id, updatedAt: note.updatedAt, queued: false };
    }
    if (status !== 0 || !onDevice()) throw serviceError(error);
  }
  await queue(write, kind);
  return { id: write.noteId, updatedAt: null, queued: true };
}

/** Deletes the note; offline (or with a change waiting) the deletion waits on this device. */
export async function deleteNote(write: NoteWrite): Promise<{ queued: boolean }> {
  if (!(await queueing(write))) {
    const client = await getSupabase();
    const { error, status } = await client.from('notes').delete().eq('id', write.noteId);
    if (!error) {
      if (onDevice())
        await updateKeptNote(write.userId, { id: write.noteId, deleted: true }).catch(
          () => undefined,
        );
      return { queued: false };
    }
    if (status !== 0 || !onDevice()) throw serviceError(error);
  }
  await queue(write, 'delete');
  return { queued: true };
}

export function useDeleteNote(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNote,
    networkMode: 'always',
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
