/**
 * Offline study (issue 18, decision 0181): what this device keeps for studying without a
 * network — a course's lessons, the flashcards due within a week — chosen here, refreshed each
 * time the app opens online; and the state of the ratings made offline: waiting, sent, or
 * refused with the reason. Works offline itself, from the device's copy.
 */
import { Link } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BookOpen,
  CloudDownload,
  Layers,
  LogIn,
  NotebookPen,
  RefreshCw,
  Trash2,
  type LucideIcon,
} from 'lucide-react';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { useEnrolledCourses } from '@/lib/enrolled-courses';
import {
  deviceStoreSupported,
  readMeta,
  removeCourse,
  savedCards,
  savedCourses,
  savedLessons,
  type SavedCourse,
  type SavedLesson,
} from '@/lib/offline/device-store';
import {
  KEEP_CARDS_DUE_WITHIN_DAYS,
  keepCourseOffline,
  keepDueCardsOffline,
  keepsDueCards,
  stopKeepingDueCards,
} from '@/lib/offline/keep-offline';
import {
  keepNotesOffline,
  keepsNotes,
  keptNoteCount,
  stopKeepingNotes,
} from '@/lib/offline/offline-notes';
import { dismissRefused, syncNow, useSyncStatus } from '@/lib/offline/offline-sync';
import { plural } from '@/lib/plural';
import { loginPathFor } from '@/lib/safe-next-path';
import { useOnline } from '@/lib/use-online';
import { prepareOfflinePages } from './offline-pages';
import { syncSummary } from './sync-status-link';

interface KeptCopy {
  courses: (SavedCourse & { lessonList: SavedLesson[] })[];
  cards: number;
  keepCards: boolean;
  cardsSavedAt: string | null;
  notes: number;
  keepNotes: boolean;
  notesSavedAt: string | null;
}

async function readKept(userId: string): Promise<KeptCopy> {
  const courses = await savedCourses(userId);
  return {
    courses: await Promise.all(
      courses.map(async (course) => ({
        ...course,
        lessonList: await savedLessons(userId, course.id),
      })),
    ),
    cards: (await savedCards(userId)).length,
    keepCards: await keepsDueCards(userId),
    cardsSavedAt: (await readMeta<string>(userId, 'cardsSavedAt')) ?? null,
    notes: await keptNoteCount(userId),
    keepNotes: await keepsNotes(userId),
    notesSavedAt: (await readMeta<string>(userId, 'notesSavedAt')) ?? null,
  };
}

const keptKey = (userId: string) => ['offline-study', userId, 'kept'] as const;
const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function OfflineStudyPage() {
  const { userId } = useAppSession();
  if (!deviceStoreSupported()) {
    return (
      <AppPage title="Offline study">
        <Notice tone="error">
          This browser does not let Lyceum keep anything on the device (IndexedDB is not available,
          for example in some private windows), so studying offline is not possible here.
        </Notice>
      </AppPage>
    );
  }
  return (
    <AppPage
      title="Offline study"
      intro="Keep lessons, your due flashcards and your notes on this device, study them without a network, and what you change is sent when you are back online."
    >
      <SyncSection userId={userId} />
      <KeptStudy userId={userId} />
    </AppPage>
  );
}

function SyncSection({ userId }: { userId: string }) {
  const status = useSyncStatus(userId);
  const online = useOnline();
  const summary = syncSummary(status, online);
  return (
    <Section
      title="Changes made offline"
      id="sync"
      description="Flashcard ratings and notes written, edited or deleted without a network wait on this device and are sent, in the order you made them, as soon as the connection returns. A note changed elsewhere meanwhile is never overwritten: both versions are kept."
    >
      <p data-testid="sync-summary">
        {summary ??
          (status.syncedAt
            ? `Everything is sent (last at ${when(status.syncedAt)}).`
            : 'Nothing is waiting to be sent.')}
      </p>
      {status.phase === 'signed-out' && (
        <Notice tone="info" className="mt-3">
          Your session has ended. The changes stay on this device; sign in again with this account
          and they are sent. Another account never sends them.
          <div className="mt-2">
            <Button asChild size="sm">
              <Link to={loginPathFor('/app/offline')}>
                <LogIn aria-hidden="true" />
                Sign in again
              </Link>
            </Button>
          </div>
        </Notice>
      )}
      {online && status.waiting > 0 && status.phase !== 'syncing' && (
        <Button className="mt-3" size="sm" variant="outline" onClick={() => void syncNow(userId)}>
          <RefreshCw aria-hidden="true" />
          Send now
        </Button>
      )}
      {status.noteNotices.length > 0 && (
        <div className="mt-4">
          <h3 className="font-medium">Notes to look at</h3>
          <ul className="mt-2 grid gap-2 text-sm">
            {status.noteNotices.map((change) => (
              <li key={change.opId} className="rounded-md border p-2">
                <span className="block">
                  {change.status === 'refused' ? `Not recorded: ${change.reason}` : change.reason}
                </span>
                {change.status === 'conflict' && change.kind !== 'delete' && (
                  <span className="mt-1 flex flex-wrap gap-3">
                    <Link
                      to={`/app/notes/${change.noteId}`}
                      className="text-primary underline underline-offset-4"
                    >
                      The version changed elsewhere
                    </Link>
                    <Link
                      to={`/app/notes/${change.copyId}`}
                      className="text-primary underline underline-offset-4"
                    >
                      Your offline version
                    </Link>
                  </span>
                )}
                {change.status === 'refused' && change.kind !== 'delete' && (
                  <details className="mt-1">
                    <summary className="cursor-pointer">Show the text</summary>
                    <pre className="mt-1 text-xs whitespace-pre-wrap">{change.fields.body}</pre>
                  </details>
                )}
              </li>
            ))}
          </ul>
          {status.refused.length === 0 && (
            <Button
              className="mt-2"
              size="sm"
              variant="outline"
              onClick={() => void dismissRefused(userId)}
            >
              Dismiss
            </Button>
          )}
        </div>
      )}
      {status.refused.length > 0 && (
        <div className="mt-4">
          <h3 className="font-medium">Not recorded</h3>
          <ul className="mt-2 grid gap-2 text-sm">
            {status.refused.map((review) => (
              <li key={review.opId} className="rounded-md border p-2">
                <span className="font-medium">{review.cardFront.slice(0, 120)}</span>
                <span className="block text-muted-foreground">
                  Rated {when(review.reviewedAt)}: {review.reason}
                </span>
              </li>
            ))}
          </ul>
          <Button
            className="mt-2"
            size="sm"
            variant="outline"
            onClick={() => void dismissRefused(userId)}
          >
            Dismiss
          </Button>
        </div>
      )}
    </Section>
  );
}

function KeptStudy({ userId }: { userId: string }) {
  const online = useOnline();
  const queryClient = useQueryClient();
  const kept = useQuery({
    queryKey: keptKey(userId),
    queryFn: () => readKept(userId),
    networkMode: 'always',
  });
  const enrolled = useEnrolledCourses(userId, 'title');
  const changed = () => queryClient.invalidateQueries({ queryKey: keptKey(userId) });

  const keepCourse = useMutation({
    mutationFn: async (courseId: string) => {
      const lessons = await keepCourseOffline(userId, courseId);
      await prepareOfflinePages();
      return lessons;
    },
    onSuccess: (lessons) => toast.success(`${plural(lessons, 'lesson', 'lessons')} kept offline.`),
    onError: (error) => toast.error(error.message),
    onSettled: changed,
  });
  const dropCourse = useMutation({
    mutationFn: (courseId: string) => removeCourse(userId, courseId),
    networkMode: 'always',
    onSuccess: () => toast.success('The course’s lessons were removed from this device.'),
    onError: (error) => toast.error(`Could not remove them: ${error.message}`),
    onSettled: changed,
  });
  const keepCards = useMutation({
    mutationFn: async () => {
      const cards = await keepDueCardsOffline(userId);
      await prepareOfflinePages();
      return cards;
    },
    onSuccess: (cards) => toast.success(`${plural(cards, 'card', 'cards')} kept offline.`),
    onError: (error) => toast.error(error.message),
    onSettled: changed,
  });
  const keepNotes = useMutation({
    mutationFn: async () => {
      const notes = await keepNotesOffline(userId);
      await prepareOfflinePages();
      return notes;
    },
    onSuccess: (notes) => toast.success(`${plural(notes, 'note', 'notes')} kept offline.`),
    onError: (error) => toast.error(error.message),
    onSettled: changed,
  });
  const dropNotes = useMutation({
    mutationFn: () => stopKeepingNotes(userId),
    networkMode: 'always',
    onSuccess: () => toast.success('Your notes were removed from this device.'),
    onError: (error) => toast.error(`Could not remove them: ${error.message}`),
    onSettled: changed,
  });
  const dropCards = useMutation({
    mutationFn: () => stopKeepingDueCards(userId),
    networkMode: 'always',
    onSuccess: () => toast.success('Your flashcards were removed from this device.'),
    onError: (error) => toast.error(`Could not remove them: ${error.message}`),
    onSettled: changed,
  });

  if (kept.isPending) return <LoadingBlock label="Reading what this device keeps…" />;
  if (kept.isError)
    return (
      <LoadError
        message={`Could not read what this device keeps: ${kept.error.message}`}
        onRetry={() => void kept.refetch()}
      />
    );
  const keptIds = new Set(kept.data.courses.map((course) => course.id));
  const notKept = (enrolled.data ?? []).filter((course) => !keptIds.has(course.id));

  return (
    <>
      <KeptCollection
        title="Flashcards"
        id="kept-cards"
        description={`Your cards due now and within the next ${KEEP_CARDS_DUE_WITHIN_DAYS} days, from every deck.`}
        kept={kept.data.keepCards}
        summary={`${plural(kept.data.cards, 'card is', 'cards are')} kept on this device${
          kept.data.cardsSavedAt ? ` (updated ${when(kept.data.cardsSavedAt)})` : ''
        }.`}
        open={{ to: '/app/flashcards/review', label: 'Review due cards', icon: Layers }}
        online={online}
        keep={keepCards}
        drop={dropCards}
        labels={{
          keep: 'Keep my due cards on this device',
          keeping: 'Keeping your cards…',
          drop: 'Stop keeping cards',
          none: 'No flashcards are kept on this device. Keep them when you are online.',
        }}
      />

      <KeptCollection
        title="Notes"
        id="kept-notes"
        description="Your notes (the newest 500), to read, write, edit and delete without a network."
        kept={kept.data.keepNotes}
        summary={`${plural(kept.data.notes, 'note is', 'notes are')} kept on this device${
          kept.data.notesSavedAt ? ` (updated ${when(kept.data.notesSavedAt)})` : ''
        }.`}
        open={{ to: '/app/notes', label: 'Open your notes', icon: NotebookPen }}
        online={online}
        keep={keepNotes}
        drop={dropNotes}
        labels={{
          keep: 'Keep my notes on this device',
          keeping: 'Keeping your notes…',
          drop: 'Stop keeping notes',
          none: 'No notes are kept on this device. Keep them when you are online.',
        }}
      />

      <Section
        title="Courses"
        id="kept-courses"
        description="A kept course’s lessons open without a network. PDF and ePub files and videos still need one."
      >
        {kept.data.courses.length === 0 && (
          <EmptyState>
            {online
              ? 'No course is kept on this device yet. Choose one below.'
              : 'No course is kept on this device. Choose courses when you are online.'}
          </EmptyState>
        )}
        <ul className="grid gap-3">
          {kept.data.courses.map((course) => (
            <li key={course.id} className="rounded-lg border p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-medium">{course.title}</h3>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => dropCourse.mutate(course.id)}
                  disabled={dropCourse.isPending}
                >
                  <Trash2 aria-hidden="true" />
                  Remove<span className="sr-only"> {course.title} from this device</span>
                </Button>
              </div>
              <p className="text-sm text-muted-foreground">
                {plural(course.lessons, 'lesson', 'lessons')}, kept {when(course.savedAt)}
              </p>
              <ul className="mt-2 grid gap-1 text-sm">
                {course.lessonList.map((lesson) => (
                  <li key={lesson.id}>
                    <Link
                      to={`/app/courses/${course.id}/lessons/${lesson.id}`}
                      className="inline-flex items-center gap-1.5 text-primary underline-offset-4 hover:underline"
                    >
                      <BookOpen aria-hidden="true" className="size-3.5" />
                      {lesson.title}
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        {online && (
          <div className="mt-4">
            <h3 className="font-medium">Your other courses</h3>
            {enrolled.isPending ? (
              <LoadingBlock label="Loading your courses…" />
            ) : enrolled.isError ? (
              <LoadError
                message={`Could not load your courses: ${enrolled.error.message}`}
                onRetry={() => void enrolled.refetch()}
              />
            ) : notKept.length === 0 ? (
              <p className="mt-1 text-sm text-muted-foreground">
                Every course you are enrolled in is kept.
              </p>
            ) : (
              <ul className="mt-2 grid gap-2">
                {notKept.map((course) => (
                  <li key={course.id} className="flex flex-wrap items-center justify-between gap-2">
                    <span>{course.title}</span>
                    <Button
                      size="sm"
                      onClick={() => keepCourse.mutate(course.id)}
                      disabled={keepCourse.isPending}
                    >
                      <CloudDownload aria-hidden="true" />
                      Make available offline<span className="sr-only">: {course.title}</span>
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </Section>
    </>
  );
}

/** A kind of study material the learner keeps on the device (cards, notes): keep, update, drop. */
function KeptCollection(props: {
  title: string;
  id: string;
  description: string;
  kept: boolean;
  summary: string;
  open: { to: string; label: string; icon: LucideIcon };
  online: boolean;
  keep: { mutate: () => void; isPending: boolean };
  drop: { mutate: () => void; isPending: boolean };
  labels: { keep: string; keeping: string; drop: string; none: string };
}) {
  const { keep, drop, labels, open } = props;
  const OpenIcon = open.icon;
  return (
    <Section title={props.title} id={props.id} description={props.description}>
      {props.kept ? (
        <>
          <p>{props.summary} They are updated each time you open Lyceum online.</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button asChild size="sm">
              <Link to={open.to}>
                <OpenIcon aria-hidden="true" />
                {open.label}
              </Link>
            </Button>
            {props.online && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => keep.mutate()}
                disabled={keep.isPending}
              >
                <RefreshCw aria-hidden="true" />
                Update now
              </Button>
            )}
            <Button
              size="sm"
              variant="outline"
              onClick={() => drop.mutate()}
              disabled={drop.isPending}
            >
              <Trash2 aria-hidden="true" />
              {labels.drop}
            </Button>
          </div>
        </>
      ) : props.online ? (
        <Button size="sm" onClick={() => keep.mutate()} disabled={keep.isPending}>
          <CloudDownload aria-hidden="true" />
          {keep.isPending ? labels.keeping : labels.keep}
        </Button>
      ) : (
        <EmptyState>{labels.none}</EmptyState>
      )}
    </Section>
  );
}
