/**
 * One note, edited in Markdown with a preview through the one safe renderer, saved as you
 * type (see note-autosave.ts) with the saved state always visible. A new note may start from a
 * highlight (`?highlight=<id>`, quoted in the body, linked to its lesson) or a course
 * (`?course=<id>`).
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { AlertCircle, Check, CloudUpload, Layers, Loader2, Trash2 } from 'lucide-react';
import { routePath } from '@common/routes';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { MarkdownDocument } from '@/components/markdown-document';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Notice } from '@/components/ui/notice';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import { useSyncStatus } from '@/lib/offline/offline-sync';
import { useRouteParams } from '@/lib/use-route-params';
import {
  useDeleteNote,
  useHighlight,
  useNote,
  useNoteCourses,
  type HighlightSource,
  type Note,
  type NoteFields,
} from './api/notes';
import { NOTE_MAX_BYTES, readDraft, useNoteAutosave, type SaveStatus } from './note-autosave';
import { parseTags } from './note-tags';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notesPath = '/app/notes';
const notePath = (noteId: string) => routePath('/app/notes/:noteId', { noteId });

export function NewNotePage() {
  const { userId } = useAppSession();
  const [params] = useSearchParams();
  const highlightParam = params.get('highlight');
  const highlightId = highlightParam && uuid.test(highlightParam) ? highlightParam : null;
  const courseParam = params.get('course');
  const highlight = useHighlight(userId, highlightId);

  return (
    <AppPage title="New note" back={{ to: notesPath, label: 'Notes' }} wide>
      {highlightParam && !highlightId ? (
        <EmptyState>That highlight address is not valid.</EmptyState>
      ) : highlightId && highlight.isPending ? (
        <LoadingBlock label="Loading the highlight…" />
      ) : highlightId && highlight.isError ? (
        <LoadError message={highlight.error.message} onRetry={() => void highlight.refetch()} />
      ) : (
        <NoteEditor
          noteId={null}
          saved={null}
          note={null}
          initial={
            readDraft(userId, null) ??
            startFrom(
              highlight.data ?? null,
              courseParam && uuid.test(courseParam) ? courseParam : null,
            )
          }
        />
      )}
    </AppPage>
  );
}

function startFrom(highlight: HighlightSource | null, courseId: string | null): NoteFields {
  if (!highlight)
    return { title: '', body: '', tags: [], courseId, lessonId: null, highlightId: null };
  return {
    title: '',
    body: `> ${highlight.text.replace(/\n/g, '\n> ')}\n\n`,
    tags: [],
    courseId: highlight.courseId,
    lessonId: highlight.lessonId,
    highlightId: highlight.id,
  };
}

export function NotePage() {
  const { userId } = useAppSession();
  const { noteId = '' } = useRouteParams();
  const note = useNote(userId, noteId);
  const saved = useMemo<NoteFields | null>(
    () =>
      note.data
        ? {
            title: note.data.title,
            body: note.data.body,
            tags: note.data.tags,
            courseId: note.data.courseId,
            lessonId: note.data.lessonId,
            highlightId: note.data.highlightId,
          }
        : null,
    [note.data],
  );

  return (
    <AppPage title="Note" back={{ to: notesPath, label: 'Notes' }} wide>
      {note.isPending ? (
        <LoadingBlock label="Loading the note…" />
      ) : note.isError ? (
        <LoadError
          message={`Could not load the note: ${note.error.message}`}
          onRetry={() => void note.refetch()}
        />
      ) : !saved || !note.data ? (
        <EmptyState action={<Link to={notesPath}>Your notes</Link>}>
          This note does not exist, or is not yours.
        </EmptyState>
      ) : (
        <>
          <KeptTwiceNotice userId={userId} noteId={noteId} />
          <NoteEditor
            // A new server version (an offline change sent, or kept beside one made elsewhere)
            // starts the editor again from it; typing not yet saved comes back from the draft.
            key={`${noteId}:${note.data.updatedAt}`}
            noteId={noteId}
            saved={saved}
            note={note.data}
            initial={readDraft(userId, noteId) ?? saved}
          />
        </>
      )}
    </AppPage>
  );
}

/** Tells the learner when this note's offline change was kept beside a version made elsewhere. */
function KeptTwiceNotice({ userId, noteId }: { userId: string; noteId: string }) {
  const { noteNotices } = useSyncStatus(userId);
  const notices = noteNotices.filter(
    (change) => change.noteId === noteId || change.copyId === noteId,
  );
  if (notices.length === 0) return null;
  return (
    <div className="mb-4 grid gap-2">
      {notices.map((change) => (
        <Notice key={change.opId} tone={change.status === 'refused' ? 'error' : 'info'}>
          {change.status === 'refused' ? `Not recorded: ${change.reason}` : change.reason}{' '}
          {change.status === 'conflict' && change.kind !== 'delete' && (
            <Link
              className="font-medium underline underline-offset-4"
              to={notePath(change.noteId === noteId ? change.copyId : change.noteId)}
            >
              {change.noteId === noteId ? 'Open your version' : 'Open the other version'}
            </Link>
          )}
        </Notice>
      ))}
    </div>
  );
}

function NoteEditor({
  noteId,
  saved,
  note,
  initial,
}: {
  noteId: string | null;
  saved: NoteFields | null;
  /** The note as loaded (null for a new one). */
  note: Note | null;
  initial: NoteFields;
}) {
  const { userId } = useAppSession();
  const id = useId();
  const navigate = useNavigate();
  const courses = useNoteCourses(userId);
  const deleteNote = useDeleteNote(userId);
  const [tagText, setTagText] = useState(initial.tags.join(', '));
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [currentId, setCurrentId] = useState(noteId);
  const onCreated = useCallback(
    (created: string) => {
      setCurrentId(created);
      void navigate(notePath(created), { replace: true });
    },
    [navigate],
  );
  const {
    fields,
    change: setFields,
    status,
    saveNow,
    current,
    nameCourse,
  } = useNoteAutosave({
    userId,
    noteId,
    saved,
    savedAt: note ? (note.pending ? (note.pendingBase ?? null) : note.updatedAt) : null,
    pending: note?.pending === true,
    courseTitle: note?.courseTitle ?? null,
    initial,
    onCreated,
  });
  const courseChoices = [
    ...(courses.data ?? []),
    // Offline (or no longer enrolled) the linked course still shows by name.
    ...(fields.courseId && !courses.data?.some((c) => c.id === fields.courseId)
      ? [
          {
            id: fields.courseId,
            title:
              fields.courseId === note?.courseId && note.courseTitle
                ? note.courseTitle
                : 'Linked course',
          },
        ]
      : []),
  ];
  const linkedTitle = courseChoices.find((course) => course.id === fields.courseId)?.title ?? null;
  useEffect(() => nameCourse(linkedTitle), [nameCourse, linkedTitle]);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SaveState status={status} onRetry={saveNow} />
        <div className="flex flex-wrap gap-2">
          {currentId && (
            <Button asChild variant="outline" size="sm">
              <Link to={`/app/flashcards/new?note=${currentId}`}>
                <Layers aria-hidden="true" />
                Make a flashcard
              </Link>
            </Button>
          )}
          {currentId && (
            <Button
              variant="ghost"
              size="sm"
              disabled={deleteNote.isPending}
              onClick={() => {
                if (!window.confirm('Delete this note?')) return;
                const { baseUpdatedAt } = current();
                const write = {
                  userId,
                  noteId: currentId,
                  isNew: false,
                  fields,
                  courseTitle: note?.courseTitle ?? null,
                  baseUpdatedAt,
                };
                deleteNote.mutate(write, {
                  onSuccess: ({ queued }) => {
                    toast.success(
                      queued
                        ? 'Note deleted on this device. The deletion is sent when you are back online.'
                        : 'Note deleted.',
                    );
                    void navigate(notesPath);
                  },
                  onError: (error) => toast.error(`Could not delete the note: ${error.message}`),
                });
              }}
            >
              <Trash2 aria-hidden="true" />
              Delete note
            </Button>
          )}
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-title`}>Title</Label>
        <Input
          id={`${id}-title`}
          value={fields.title}
          maxLength={200}
          onChange={(event) => setFields({ ...fields, title: event.target.value })}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-tags`}>Tags (separated by commas)</Label>
          <Input
            id={`${id}-tags`}
            value={tagText}
            onChange={(event) => {
              setTagText(event.target.value);
              setFields({ ...fields, tags: parseTags(event.target.value) });
            }}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-course`}>Course</Label>
          <NativeSelect
            id={`${id}-course`}
            value={fields.courseId ?? ''}
            onChange={(event) =>
              setFields({
                ...fields,
                courseId: event.target.value || null,
                // A lesson or highlight belongs to its course; another course drops the link.
                lessonId: null,
                highlightId: null,
              })
            }
          >
            <option value="">None</option>
            {courseChoices.map((course) => (
              <option key={course.id} value={course.id}>
                {course.title}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      {fields.lessonId && fields.courseId && (
        <p className="text-sm text-muted-foreground">
          Linked to{' '}
          <Link
            className="text-primary underline underline-offset-4"
            to={routePath('/app/courses/:courseId/lessons/:lessonId', {
              courseId: fields.courseId,
              lessonId: fields.lessonId,
            })}
          >
            {fields.highlightId ? 'the highlighted lesson' : 'a lesson'}
          </Link>
          .
        </p>
      )}
      <div role="tablist" aria-label="Note body" className="flex gap-1">
        {(['write', 'preview'] as const).map((name) => (
          <Button
            key={name}
            role="tab"
            id={`${id}-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`${id}-panel`}
            size="sm"
            variant={tab === name ? 'secondary' : 'ghost'}
            onClick={() => setTab(name)}
          >
            {name === 'write' ? 'Write' : 'Preview'}
          </Button>
        ))}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${tab}`}>
        {tab === 'write' ? (
          <>
            <Label htmlFor={`${id}-body`} className="sr-only">
              Note (Markdown)
            </Label>
            <Textarea
              id={`${id}-body`}
              value={fields.body}
              rows={18}
              className="font-mono text-sm"
              aria-invalid={status.kind === 'too_large' ? true : undefined}
              onChange={(event) => setFields({ ...fields, body: event.target.value })}
            />
          </>
        ) : (
          <div className="min-h-40 rounded-md border bg-background p-4">
            {fields.body.trim() ? (
              <MarkdownDocument text={fields.body} demoteHeadings />
            ) : (
              <p className="text-sm text-muted-foreground">Nothing to preview yet.</p>
            )}
          </div>
        )}
      </div>
      {status.kind === 'too_large' && (
        <Notice tone="error">
          This note is {(status.bytes / 1_048_576).toFixed(2)} MB; a note must be smaller than{' '}
          {NOTE_MAX_BYTES / 1_048_576} MB. It is kept in this browser but not saved until you
          shorten it.
        </Notice>
      )}
    </div>
  );
}

function SaveState({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  const time = (iso: string | null) =>
    iso ? new Intl.DateTimeFormat('en-GB', { timeStyle: 'short' }).format(new Date(iso)) : null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex items-center gap-2 text-sm"
      data-testid="save-state"
    >
      {status.kind === 'saved' && (
        <>
          <Check aria-hidden="true" className="size-4 text-emerald-700" />
          <span>Saved{time(status.at) ? ` at ${time(status.at)}` : ''}</span>
        </>
      )}
      {status.kind === 'queued' && (
        <>
          <CloudUpload aria-hidden="true" className="size-4 text-muted-foreground" />
          <span>Saved on this device · waiting to sync</span>
        </>
      )}
      {status.kind === 'empty' && (
        <span className="text-muted-foreground">Start typing; the note saves itself.</span>
      )}
      {status.kind === 'unsaved' && <span className="text-muted-foreground">Unsaved changes…</span>}
      {status.kind === 'saving' && (
        <>
          <Loader2 aria-hidden="true" className="size-4 motion-safe:animate-spin" />
          <span>Saving…</span>
        </>
      )}
      {status.kind === 'failed' && (
        <>
          <AlertCircle aria-hidden="true" className="size-4 text-destructive" />
          <span className="text-destructive">
            Not saved: {status.message}. Kept in this browser; retrying in {status.retryInSeconds}{' '}
            s.
          </span>
          <Button size="sm" variant="outline" onClick={onRetry}>
            Retry now
          </Button>
        </>
      )}
      {status.kind === 'too_large' && (
        <>
          <AlertCircle aria-hidden="true" className="size-4 text-destructive" />
          <span className="text-destructive">Not saved: too large</span>
        </>
      )}
    </div>
  );
}
