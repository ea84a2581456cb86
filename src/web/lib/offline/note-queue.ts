/**
 * Notes written, edited and deleted offline (decision 0182), as logic apart from where they are
 * kept and how they are sent: one waiting change per note, merged as the learner goes on
 * (a note made and then edited offline is sent as one creation; made and then deleted, as
 * nothing), sent in the order the notes were first changed. Each change remembers the server's
 * version it was made on, so a note changed elsewhere meanwhile is never silently overwritten:
 * both versions are kept and the learner is told.
 */

/** What the learner writes in a note. */
export interface NoteFields {
  title: string;
  body: string;
  tags: string[];
  courseId: string | null;
  lessonId: string | null;
  highlightId: string | null;
}

/** A note as the screens show it. */
export interface Note extends NoteFields {
  id: string;
  courseTitle: string | null;
  updatedAt: string;
  /**
   * A change made on this device is waiting to be sent; `updatedAt` is then when it was made,
   * and `pendingBase` the server's version it was made on (null for a note made offline).
   */
  pending?: boolean;
  pendingBase?: string | null;
}

export type NoteChangeKind = 'create' | 'update' | 'delete';

export interface QueuedNoteChange {
  /** Made on the device when the change was queued. */
  opId: string;
  /** The account that made it: only that account's session ever sends it. */
  userId: string;
  /** The note's id; a note created offline gets it on the device. */
  noteId: string;
  kind: NoteChangeKind;
  /** The text as the learner left it (for a deletion: as it was, to name it). */
  fields: NoteFields;
  courseTitle: string | null;
  /** When the server last changed the note this change was made on; null for a creation. */
  baseUpdatedAt: string | null;
  /** When the note was first changed on this device (the sending order) and last changed. */
  madeAt: string;
  changedAt: string;
  /** The id the learner's version gets if it has to be kept as a second note. */
  copyId: string;
  /**
   * `waiting` to be sent; `conflict` once sent and kept beside a version changed elsewhere,
   * `refused` when the server will never take it; both with `reason`, until dismissed.
   */
  status: 'waiting' | 'conflict' | 'refused';
  reason?: string;
}

export interface NoteChange {
  noteId: string;
  kind: NoteChangeKind;
  fields: NoteFields;
  courseTitle: string | null;
  baseUpdatedAt: string | null;
}

/**
 * What the queue becomes with one more change to a note: the entry to store (or null when
 * nothing is left to send) in place of `current`, the note's waiting change if it has one.
 */
export function mergeChange(
  current: QueuedNoteChange | null,
  change: NoteChange,
  made: { userId: string; at: string; opId: string; copyId: string },
): QueuedNoteChange | null {
  if (!current) {
    return {
      ...change,
      opId: made.opId,
      userId: made.userId,
      madeAt: made.at,
      changedAt: made.at,
      copyId: made.copyId,
      status: 'waiting',
    };
  }
  // Made and deleted on this device: the server never needs to hear of it.
  if (current.kind === 'create' && change.kind === 'delete') return null;
  return {
    ...current,
    // A note made offline stays a creation; edits of a note the server has stay edits, and
    // keep the version the first of them was made on: that is what a conflict is judged by.
    kind: current.kind === 'create' ? 'create' : change.kind,
    fields: change.fields,
    courseTitle: change.courseTitle,
    changedAt: made.at,
  };
}

/** The order changes are sent in: as the notes were first changed. */
export function noteSendOrder(
  queue: readonly QueuedNoteChange[],
  userId: string,
): QueuedNoteChange[] {
  return queue
    .filter((change) => change.status === 'waiting' && change.userId === userId)
    .sort((a, b) => a.madeAt.localeCompare(b.madeAt) || a.opId.localeCompare(b.opId));
}

export function sameFields(a: NoteFields, b: NoteFields): boolean {
  return (
    a.title === b.title &&
    a.body === b.body &&
    a.courseId === b.courseId &&
    a.lessonId === b.lessonId &&
    a.highlightId === b.highlightId &&
    a.tags.length === b.tags.length &&
    a.tags.every((tag, i) => tag === b.tags[i])
  );
}

const TITLE_MAX = 200;
const COPY_SUFFIX = ' (edited offline)';

/** The title of the learner's version when it is kept beside the one changed elsewhere. */
export function copyTitle(title: string): string {
  const base = title.trim() || 'Untitled note';
  return base.slice(0, TITLE_MAX - COPY_SUFFIX.length) + COPY_SUFFIX;
}

/** The notes list with this device's waiting changes laid over the server's (or kept) copy. */
export function withWaitingChanges(
  notes: readonly Note[],
  queue: readonly QueuedNoteChange[],
  userId: string,
): Note[] {
  const waiting = new Map(noteSendOrder(queue, userId).map((change) => [change.noteId, change]));
  const shown: Note[] = [];
  for (const note of notes) {
    const change = waiting.get(note.id);
    waiting.delete(note.id);
    if (!change) shown.push(note);
    else if (change.kind !== 'delete') shown.push(pendingNote(change));
  }
  for (const change of waiting.values()) {
    if (change.kind === 'create') shown.push(pendingNote(change));
  }
  return shown.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

export function pendingNote(change: QueuedNoteChange): Note {
  return {
    ...change.fields,
    id: change.noteId,
    courseTitle: change.courseTitle,
    updatedAt: change.changedAt,
    pending: true,
    pendingBase: change.baseUpdatedAt,
  };
}

/** Words of a search typed offline, matched in the title, tags and text of the kept notes. */
export function matchesOffline(note: Note, search: string, tag: string): boolean {
  if (tag && !note.tags.includes(tag)) return false;
  const text = `${note.title}\n${note.tags.join(' ')}\n${note.body}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}
