/**
 * Notes on this device (decision 0182): the copy of the learner's notes kept for reading and
 * editing offline, the changes made without a connection (queued by `note-queue.ts`'s rules),
 * and sending them. A change is sent against the version it was made on: an edit or deletion
 * of a note someone changed elsewhere since then does not overwrite it; the learner's edit is
 * kept as a second note, a deletion is not made, and the learner is told.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { getSupabase } from '@/lib/supabase';
import { deviceStore, readMeta, writeMeta } from './device-store';
import {
  copyTitle,
  mergeChange,
  noteSendOrder,
  pendingNote,
  sameFields,
  withWaitingChanges,
  type Note,
  type NoteChange,
  type NoteFields,
  type QueuedNoteChange,
} from './note-queue';
import { outcomeOf, type SendOutcome } from './review-queue';

export const noteColumns =
  'id, title, body, tags, course_id, lesson_id, highlight_id, updated_at, course:courses(title)';

export interface NoteRow {
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

export const toNote = (row: NoteRow): Note => ({
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

export const noteRow = (fields: NoteFields) => ({
  title: fields.title,
  body: fields.body,
  tags: fields.tags,
  course_id: fields.courseId,
  lesson_id: fields.lessonId,
  highlight_id: fields.highlightId,
});

/** The newest notes kept; a learner with more reads the rest online. */
const MAX_KEPT_NOTES = 500;
const KEEP_NOTES = 'keepNotes';

// --- the kept copy -------------------------------------------------------------------------

export async function keepsNotes(userId: string): Promise<boolean> {
  return (await readMeta<boolean>(userId, KEEP_NOTES)) === true;
}

/** Copies the learner's notes (the newest 500) to this device, replacing the older copy. */
export async function keepNotesOffline(userId: string): Promise<number> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('notes')
    .select(noteColumns)
    .order('updated_at', { ascending: false })
    .limit(MAX_KEPT_NOTES);
  if (error) throw new Error(`Could not keep your notes offline: ${error.message}`);
  const notes = (data as unknown as NoteRow[]).map(toNote);
  const db = await deviceStore(userId);
  const tx = db.transaction(['notes', 'meta'], 'readwrite');
  await tx.objectStore('notes').clear();
  await Promise.all(notes.map((note) => tx.objectStore('notes').put(note)));
  await tx.objectStore('meta').put({ key: KEEP_NOTES, value: true });
  await tx.objectStore('meta').put({ key: 'notesSavedAt', value: new Date().toISOString() });
  await tx.done;
  return notes.length;
}

/** Stops keeping notes: the copies go, changes still waiting to be sent stay. */
export async function stopKeepingNotes(userId: string): Promise<void> {
  await (await deviceStore(userId)).clear('notes');
  await writeMeta(userId, KEEP_NOTES, false);
}

export async function keptNoteCount(userId: string): Promise<number> {
  return (await deviceStore(userId)).count('notes');
}

/** Keeps the device's copy of one note in step with the server (when notes are kept). */
export async function updateKeptNote(
  userId: string,
  note: Note | { id: string; deleted: true },
): Promise<void> {
  if (!(await keepsNotes(userId))) return;
  const db = await deviceStore(userId);
  if ('deleted' in note) await db.delete('notes', note.id);
  else {
    const { pending: _pending, pendingBase: _base, ...copy } = note;
    await db.put('notes', copy);
  }
}

// --- reading, with the changes waiting on this device --------------------------------------

export async function noteChanges(userId: string): Promise<QueuedNoteChange[]> {
  return (await deviceStore(userId)).getAll('noteQueue');
}

export async function waitingNoteChange(
  userId: string,
  noteId: string,
): Promise<QueuedNoteChange | null> {
  const changes = await (await deviceStore(userId)).getAllFromIndex('noteQueue', 'note', noteId);
  return changes.find((change) => change.status === 'waiting' && change.userId === userId) ?? null;
}

/** The notes list offline: the kept copy with this device's changes laid over it. */
export async function keptNotes(userId: string): Promise<Note[]> {
  const db = await deviceStore(userId);
  return withWaitingChanges(await db.getAll('notes'), await db.getAll('noteQueue'), userId);
}

/** Lays this device's waiting changes over notes read from the server. */
export async function withDeviceChanges(userId: string, notes: Note[]): Promise<Note[]> {
  return withWaitingChanges(notes, await noteChanges(userId), userId);
}

/**
 * One note as the learner last left it on this device: its waiting change, else `fallback`
 * (the server's copy online), else the kept copy. Null when it was deleted here or is unknown.
 */
export async function deviceNote(
  userId: string,
  noteId: string,
  fallback?: Note | null,
): Promise<Note | null> {
  const change = await waitingNoteChange(userId, noteId);
  if (change) return change.kind === 'delete' ? null : pendingNote(change);
  if (fallback !== undefined) return fallback;
  return (await (await deviceStore(userId)).get('notes', noteId)) ?? null;
}

// --- queueing -------------------------------------------------------------------------------

/** Adds a change to the note's waiting one (or starts one); returns what now waits, if any. */
export async function queueNoteChange(
  userId: string,
  change: NoteChange,
): Promise<QueuedNoteChange | null> {
  const db = await deviceStore(userId);
  const tx = db.transaction(['noteQueue', 'notes'], 'readwrite');
  const queue = tx.objectStore('noteQueue');
  const current =
    (await queue.index('note').getAll(change.noteId)).find(
      (entry) => entry.status === 'waiting' && entry.userId === userId,
    ) ?? null;
  const next = mergeChange(current, change, {
    userId,
    at: new Date().toISOString(),
    opId: crypto.randomUUID(),
    copyId: crypto.randomUUID(),
  });
  if (next) await queue.put(next);
  else if (current) await queue.delete(current.opId);
  await tx.done;
  return next;
}

export async function deleteNoteChange(userId: string, opId: string): Promise<void> {
  await (await deviceStore(userId)).delete('noteQueue', opId);
}

/**
 * Takes a sent change out of the queue. If the learner changed the note again while it was on
 * its way, that later change stays waiting, now made on the version the server just stored
 * (`target`: the note, or the second note their version went to).
 */
async function settle(
  userId: string,
  sent: QueuedNoteChange,
  target: { noteId: string; updatedAt: string } | null,
): Promise<void> {
  const db = await deviceStore(userId);
  const tx = db.transaction('noteQueue', 'readwrite');
  const entry = await tx.store.get(sent.opId);
  if (!entry) {
    // Made offline and deleted while its creation was being sent: delete it there too.
    if (sent.kind === 'create' && target)
      await tx.store.put({
        ...sent,
        kind: 'delete',
        noteId: target.noteId,
        baseUpdatedAt: target.updatedAt,
        changedAt: new Date().toISOString(),
      });
  } else if (entry.changedAt === sent.changedAt || !target) {
    await tx.store.delete(entry.opId);
  } else {
    await tx.store.put({
      ...entry,
      noteId: target.noteId,
      kind: entry.kind === 'delete' ? 'delete' : 'update',
      baseUpdatedAt: target.updatedAt,
    });
  }
  await tx.done;
}

/** Keeps a notice for the learner: a note kept in two versions, or a change refused. */
async function notice(
  userId: string,
  sent: QueuedNoteChange,
  status: 'conflict' | 'refused',
  reason: string,
): Promise<void> {
  await (
    await deviceStore(userId)
  ).put('noteQueue', { ...sent, opId: crypto.randomUUID(), status, reason });
}

// --- sending ---------------------------------------------------------------------------------

export type NoteSendOutcome =
  | Exclude<SendOutcome, { kind: 'recorded' }>
  /** Stored; `updatedAt` is the server's new version of the note (null once deleted). */
  | { kind: 'recorded'; updatedAt: string | null }
  /** Not applied over a change made elsewhere; the learner's edit went to `copy`, if any. */
  | { kind: 'conflict'; reason: string; copy: { id: string; updatedAt: string } | null };

interface Answer {
  error: { message: string; code?: string } | null;
  status: number;
}

/** A failed request as the queue sees it: no answer (status 0), a passing failure or a refusal. */
function failure({ error, status }: Answer): NoteSendOutcome {
  const outcome = outcomeOf({
    status: status === 0 ? null : status,
    body: { error: error?.message },
  });
  return outcome.kind === 'recorded' ? { kind: 'recorded', updatedAt: null } : outcome;
}

const named = (fields: NoteFields) => `“${fields.title.trim() || 'Untitled note'}”`;

/** Keeps the learner's version as a second note (its id fixed when queued: a resend finds it). */
async function keepAsCopy(
  client: SupabaseClient,
  userId: string,
  change: QueuedNoteChange,
  why: string,
): Promise<NoteSendOutcome> {
  const title = copyTitle(change.fields.title);
  const copy = await client
    .from('notes')
    .insert({ id: change.copyId, ...noteRow({ ...change.fields, title }) })
    .select(noteColumns)
    .maybeSingle();
  if (copy.error && copy.error.code !== '23505') return failure(copy);
  let kept = copy.data ? toNote(copy.data as unknown as NoteRow) : null;
  if (!kept) {
    // Made by an earlier send whose answer was lost.
    const earlier = await serverNote(client, change.copyId);
    if (earlier.error) return failure(earlier);
    kept = earlier.data ? toNote(earlier.data as unknown as NoteRow) : null;
  }
  if (kept) await updateKeptNote(userId, kept);
  return {
    kind: 'conflict',
    reason: `${why} Both versions are kept: yours is the note “${title}”.`,
    copy: kept ? { id: kept.id, updatedAt: kept.updatedAt } : null,
  };
}

/** Reads the server's note after a conditional write matched nothing. */
async function serverNote(client: SupabaseClient, noteId: string) {
  return client.from('notes').select(noteColumns).eq('id', noteId).maybeSingle();
}

/** Sends one waiting change; what the answer means for the queue. */
export async function sendNoteChange(
  client: SupabaseClient,
  userId: string,
  change: QueuedNoteChange,
): Promise<NoteSendOutcome> {
  if (change.kind === 'create') {
    const created = await client
      .from('notes')
      .insert({ id: change.noteId, ...noteRow(change.fields) })
      .select(noteColumns)
      .maybeSingle();
    if (created.error?.code === '23505') {
      // Already there: an earlier send arrived and its answer was lost.
      const earlier = await serverNote(client, change.noteId);
      if (earlier.error) return failure(earlier);
      return { kind: 'recorded', updatedAt: (earlier.data as NoteRow | null)?.updated_at ?? null };
    }
    if (created.error) return failure(created);
    const note = toNote(created.data as unknown as NoteRow);
    await updateKeptNote(userId, note);
    return { kind: 'recorded', updatedAt: note.updatedAt };
  }

  const base = change.baseUpdatedAt ?? '';
  const written =
    change.kind === 'update'
      ? await client
          .from('notes')
          .update(noteRow(change.fields))
          .eq('id', change.noteId)
          .eq('updated_at', base)
          .select(noteColumns)
      : await client
          .from('notes')
          .delete()
          .eq('id', change.noteId)
          .eq('updated_at', base)
          .select('id');
  if (written.error) return failure(written);
  if (written.data.length > 0) {
    if (change.kind === 'delete') {
      await updateKeptNote(userId, { id: change.noteId, deleted: true });
      return { kind: 'recorded', updatedAt: null };
    }
    const note = toNote(written.data[0] as unknown as NoteRow);
    await updateKeptNote(userId, note);
    return { kind: 'recorded', updatedAt: note.updatedAt };
  }

  // The server's note is not the version the change was made on.
  const current = await serverNote(client, change.noteId);
  if (current.error) return failure(current);
  const now = current.data ? toNote(current.data as unknown as NoteRow) : null;
  if (change.kind === 'delete') {
    if (!now) return { kind: 'recorded', updatedAt: null };
    await updateKeptNote(userId, now);
    return {
      kind: 'conflict',
      reason: `${named(now)} was changed elsewhere after you deleted it offline, so it was kept.`,
      copy: null,
    };
  }
  // Our own edit, sent before and its answer lost.
  if (now && sameFields(now, change.fields)) {
    await updateKeptNote(userId, now);
    return { kind: 'recorded', updatedAt: now.updatedAt };
  }
  if (now) await updateKeptNote(userId, now);
  else await updateKeptNote(userId, { id: change.noteId, deleted: true });
  return keepAsCopy(
    client,
    userId,
    change,
    now
      ? `${named(change.fields)} was changed elsewhere after your offline edit.`
      : `${named(change.fields)} was deleted elsewhere after your offline edit.`,
  );
}

export interface NoteDrainResult {
  recorded: number;
  /** Kept in two versions, or refused for good: shown until the learner dismisses them. */
  noticed: number;
  stopped: null | { kind: 'signed-out' } | { kind: 'unreachable'; reason: string };
}

/** Sends the user's waiting note changes one at a time, in the order the notes were changed. */
export async function drainNoteQueue(
  userId: string,
  send: (change: QueuedNoteChange) => Promise<NoteSendOutcome>,
): Promise<NoteDrainResult> {
  const result: NoteDrainResult = { recorded: 0, noticed: 0, stopped: null };
  for (const change of noteSendOrder(await noteChanges(userId), userId)) {
    const outcome = await send(change);
    if (outcome.kind === 'recorded') {
      await settle(
        userId,
        change,
        outcome.updatedAt ? { noteId: change.noteId, updatedAt: outcome.updatedAt } : null,
      );
      result.recorded += 1;
    } else if (outcome.kind === 'conflict') {
      await notice(userId, change, 'conflict', outcome.reason);
      await settle(
        userId,
        change,
        outcome.copy ? { noteId: outcome.copy.id, updatedAt: outcome.copy.updatedAt } : null,
      );
      result.noticed += 1;
    } else if (outcome.kind === 'refused') {
      // Its text stays on this device, listed with the reason, until the learner dismisses it.
      const latest = (await waitingNoteChange(userId, change.noteId)) ?? change;
      await deleteNoteChange(userId, change.opId);
      await notice(userId, latest, 'refused', outcome.reason);
      result.noticed += 1;
    } else {
      result.stopped = outcome;
      break;
    }
  }
  return result;
}

/** The note's waiting change, merged with one more, for the screens that write notes. */
export async function queuedNote(userId: string, change: NoteChange): Promise<Note | null> {
  const next = await queueNoteChange(userId, change);
  return next && next.kind !== 'delete' ? pendingNote(next) : null;
}

export type { Note, NoteFields };
