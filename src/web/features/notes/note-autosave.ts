/**
 * Autosave that never loses typing: every change is kept in localStorage at once, saved to
 * the server after a pause in typing, and a failed save is shown and retried with growing
 * waits (2 s, 4 s, … 30 s) until it succeeds; the local draft goes only when the server has
 * exactly what was typed, or the device's queue of offline changes holds it (decision 0182).
 * A note of 1 MB or more is not sent: the editor says so.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { saveNote, type NoteFields } from './api/notes';

export const NOTE_MAX_BYTES = 1_048_576;
const PAUSE_MS = 800;

export type SaveStatus =
  | { kind: 'empty' }
  | { kind: 'saved'; at: string | null }
  /** Kept on this device (offline), sent when the connection returns (decision 0182). */
  | { kind: 'queued' }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  | { kind: 'failed'; message: string; retryInSeconds: number }
  | { kind: 'too_large'; bytes: number };

export function noteBytes(fields: NoteFields): number {
  return new TextEncoder().encode(fields.body).length;
}

const draftKey = (userId: string, noteId: string | null) =>
  `lyceum.note-draft.${userId}.${noteId ?? 'new'}`;

export function readDraft(userId: string, noteId: string | null): NoteFields | null {
  try {
    const raw = localStorage.getItem(draftKey(userId, noteId));
    return raw ? (JSON.parse(raw) as NoteFields) : null;
  } catch {
    return null;
  }
}

function writeDraft(userId: string, noteId: string | null, fields: NoteFields | null) {
  try {
    if (fields) localStorage.setItem(draftKey(userId, noteId), JSON.stringify(fields));
    else localStorage.removeItem(draftKey(userId, noteId));
  } catch {
    // A full or disabled localStorage leaves the server save as the only copy; the status
    // still says whether that happened.
  }
}

const same = (a: NoteFields, b: NoteFields) => JSON.stringify(a) === JSON.stringify(b);

/** A note not created yet with nothing typed: visiting "New note" makes no empty note. */
const isBlank = (noteId: string | null, fields: NoteFields) =>
  noteId === null && !fields.title.trim() && !fields.body.trim();

export function useNoteAutosave({
  userId,
  noteId,
  saved,
  savedAt,
  pending,
  courseTitle,
  initial,
  onCreated,
}: {
  userId: string;
  /** Null until the first save creates the note. */
  noteId: string | null;
  /** What the server holds, or a change waiting on this device (null for a new note). */
  saved: NoteFields | null;
  /** When the server last changed the note being edited (null for a new note). */
  savedAt: string | null;
  /** `saved` is a change waiting on this device. */
  pending: boolean;
  /** The linked course's title, to show it offline (see `nameCourse` for later links). */
  courseTitle: string | null;
  /** What the editor starts with (a kept draft, or what the server holds). */
  initial: NoteFields;
  onCreated: (id: string) => void;
}) {
  const [fields, setFields] = useState(initial);
  const [status, setStatus] = useState<SaveStatus>(() =>
    saved && same(saved, initial)
      ? pending
        ? { kind: 'queued' }
        : { kind: 'saved', at: null }
      : isBlank(noteId, initial)
        ? { kind: 'empty' }
        : { kind: 'unsaved' },
  );
  const idRef = useRef(noteId);
  // A new note's id is made here, so a note written offline has one before the server sees it.
  const newIdRef = useRef<string | null>(null);
  const baseRef = useRef(savedAt);
  const pendingRef = useRef(pending);
  const courseTitleRef = useRef(courseTitle);
  const serverRef = useRef(saved);
  const latestRef = useRef(initial);
  const inFlight = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const failures = useRef(0);

  const save = useCallback(() => {
    async function run(): Promise<void> {
      clearTimeout(timer.current);
      if (inFlight.current) return;
      const sending = latestRef.current;
      if (isBlank(idRef.current, sending)) return;
      if (serverRef.current && same(serverRef.current, sending)) {
        setStatus((s) =>
          s.kind === 'saved' || s.kind === 'queued'
            ? s
            : pendingRef.current
              ? { kind: 'queued' }
              : { kind: 'saved', at: null },
        );
        return;
      }
      const bytes = noteBytes(sending);
      if (bytes >= NOTE_MAX_BYTES) {
        setStatus({ kind: 'too_large', bytes });
        return;
      }
      inFlight.current = true;
      setStatus({ kind: 'saving' });
      try {
        const isNew = !idRef.current;
        newIdRef.current ??= crypto.randomUUID();
        const result = await saveNote({
          userId,
          noteId: idRef.current ?? newIdRef.current,
          isNew,
          fields: sending,
          courseTitle: courseTitleRef.current,
          baseUpdatedAt: baseRef.current,
        });
        failures.current = 0;
        if (result.updatedAt) baseRef.current = result.updatedAt;
        pendingRef.current = result.queued;
        if (isNew) {
          idRef.current = result.id;
          writeDraft(userId, null, null);
          onCreated(result.id);
        }
        serverRef.current = sending;
        inFlight.current = false;
        if (same(latestRef.current, sending)) {
          writeDraft(userId, idRef.current, null);
          setStatus(result.queued ? { kind: 'queued' } : { kind: 'saved', at: result.updatedAt });
        } else {
          void run();
        }
      } catch (error) {
        inFlight.current = false;
        failures.current += 1;
        const wait = Math.min(30, 2 ** failures.current);
        setStatus({ kind: 'failed', message: (error as Error).message, retryInSeconds: wait });
        timer.current = setTimeout(() => void run(), wait * 1000);
      }
    }
    return run();
  }, [userId, onCreated]);

  /** The editor's every change: kept locally at once, saved after a pause in typing. */
  const change = useCallback(
    (next: NoteFields) => {
      setFields(next);
      latestRef.current = next;
      clearTimeout(timer.current);
      if (serverRef.current && same(serverRef.current, next)) {
        writeDraft(userId, idRef.current, null);
        if (!inFlight.current)
          setStatus(pendingRef.current ? { kind: 'queued' } : { kind: 'saved', at: null });
        return;
      }
      if (isBlank(idRef.current, next)) {
        writeDraft(userId, null, null);
        setStatus({ kind: 'empty' });
        return;
      }
      writeDraft(userId, idRef.current, next);
      const bytes = noteBytes(next);
      if (bytes >= NOTE_MAX_BYTES) {
        setStatus({ kind: 'too_large', bytes });
        return;
      }
      if (!inFlight.current) setStatus({ kind: 'unsaved' });
      timer.current = setTimeout(() => void save(), PAUSE_MS);
    },
    [userId, save],
  );

  // A kept draft that differs from the server is saved as soon as the editor opens.
  useEffect(() => {
    const kept = latestRef.current;
    if (!isBlank(idRef.current, kept) && !(serverRef.current && same(serverRef.current, kept)))
      timer.current = setTimeout(() => void save(), 0);
  }, [save]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const unsaved = status.kind !== 'saved' && status.kind !== 'queued' && status.kind !== 'empty';
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  return {
    fields,
    change,
    status,
    saveNow: () => void save(),
    /** The note's id once it has one, and the server version edits are made on. */
    current: () => ({ id: idRef.current, baseUpdatedAt: baseRef.current }),
    /** The title of the course now linked, kept with a change that waits on the device. */
    nameCourse: (title: string | null) => {
      courseTitleRef.current = title;
    },
  };
}
