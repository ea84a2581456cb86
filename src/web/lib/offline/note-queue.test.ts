import { describe, expect, it } from 'vitest';
import {
  copyTitle,
  matchesOffline,
  mergeChange,
  noteSendOrder,
  withWaitingChanges,
  type Note,
  type NoteChange,
  type NoteFields,
  type QueuedNoteChange,
} from './note-queue';

const me = 'user-a';
const fields = (title: string, body = ''): NoteFields => ({
  title,
  body,
  tags: [],
  courseId: null,
  lessonId: null,
  highlightId: null,
});
const change = (
  noteId: string,
  kind: NoteChange['kind'],
  title: string,
  baseUpdatedAt: string | null = null,
): NoteChange => ({ noteId, kind, fields: fields(title), courseTitle: null, baseUpdatedAt });
const made = (at: string, opId = `op-${at}`) => ({ userId: me, at, opId, copyId: `copy-${at}` });

describe('one waiting change per note', () => {
  it('starts a change with the version it was made on', () => {
    const entry = mergeChange(
      null,
      change('n1', 'update', 'First', '2026-11-20T10:00:00+00:00'),
      made('t1'),
    );
    expect(entry).toMatchObject({
      noteId: 'n1',
      kind: 'update',
      baseUpdatedAt: '2026-11-20T10:00:00+00:00',
      madeAt: 't1',
      status: 'waiting',
    });
  });

  it('sends a note made and then edited offline as one creation with the last text', () => {
    const created = mergeChange(null, change('n1', 'create', 'Draft'), made('t1'))!;
    const edited = mergeChange(created, change('n1', 'update', 'Final', 'ignored'), made('t2'))!;
    expect(edited).toMatchObject({ kind: 'create', baseUpdatedAt: null, madeAt: 't1' });
    expect(edited.fields.title).toBe('Final');
    expect(edited.opId).toBe(created.opId);
  });

  it('sends nothing for a note made and deleted offline', () => {
    const created = mergeChange(null, change('n1', 'create', 'Draft'), made('t1'))!;
    expect(mergeChange(created, change('n1', 'delete', 'Draft'), made('t2'))).toBeNull();
  });

  it('keeps the first edit’s version when the learner edits again or deletes', () => {
    const first = mergeChange(null, change('n1', 'update', 'A', 'v1'), made('t1'))!;
    const second = mergeChange(first, change('n1', 'update', 'B', 'v9'), made('t2'))!;
    expect(second).toMatchObject({ kind: 'update', baseUpdatedAt: 'v1', changedAt: 't2' });
    const deleted = mergeChange(second, change('n1', 'delete', 'B', 'v9'), made('t3'))!;
    expect(deleted).toMatchObject({ kind: 'delete', baseUpdatedAt: 'v1' });
  });
});

describe('sending order and what the screens show', () => {
  const entry = (noteId: string, madeAt: string, extra: Partial<QueuedNoteChange> = {}) => ({
    ...mergeChange(null, change(noteId, 'update', noteId, 'v1'), made(madeAt))!,
    ...extra,
  });

  it('sends the learner’s waiting changes in the order the notes were first changed', () => {
    const queue = [
      entry('b', 't2'),
      entry('a', 't1'),
      entry('c', 't0', { status: 'conflict', reason: 'kept twice' }),
      entry('d', 't0', { userId: 'someone-else' }),
    ];
    expect(noteSendOrder(queue, me).map((e) => e.noteId)).toEqual(['a', 'b']);
  });

  it('lays waiting changes over the server’s list', () => {
    const server: Note[] = [
      { ...fields('Kept'), id: 'kept', courseTitle: null, updatedAt: '2026-11-01' },
      { ...fields('Edited'), id: 'edited', courseTitle: null, updatedAt: '2026-11-02' },
      { ...fields('Deleted'), id: 'deleted', courseTitle: null, updatedAt: '2026-11-03' },
    ];
    const queue = [
      { ...entry('edited', '2026-11-10'), fields: fields('Edited offline') },
      { ...entry('deleted', '2026-11-11'), kind: 'delete' as const },
      {
        ...mergeChange(null, change('new', 'create', 'Made offline'), made('2026-11-12'))!,
      },
    ];
    const shown = withWaitingChanges(server, queue, me);
    expect(shown.map((n) => [n.title, n.pending === true])).toEqual([
      ['Made offline', true],
      ['Edited offline', true],
      ['Kept', false],
    ]);
  });

  it('names the learner’s version when it is kept beside another, within the title limit', () => {
    expect(copyTitle('Krebs cycle')).toBe('Krebs cycle (edited offline)');
    expect(copyTitle('  ')).toBe('Untitled note (edited offline)');
    expect(copyTitle('x'.repeat(200))).toHaveLength(200);
  });

  it('searches kept notes offline by every word, in title, tags and text', () => {
    const note: Note = {
      ...fields('Cell biology', 'Mitochondria make ATP.'),
      tags: ['exam'],
      id: 'n',
      courseTitle: null,
      updatedAt: 'x',
    };
    expect(matchesOffline(note, 'mitochondria atp', '')).toBe(true);
    expect(matchesOffline(note, 'cell exam', 'exam')).toBe(true);
    expect(matchesOffline(note, 'ribosome', '')).toBe(false);
    expect(matchesOffline(note, '', 'other')).toBe(false);
  });
});
