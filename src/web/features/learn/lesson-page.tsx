/**
 * A lesson: Markdown through the shared safe renderer, a video embed, or a download link for
 * a PDF or ePub file. While it is open the page records the reading position (how far down
 * the text the reader got) and the time spent in `lesson_progress`; "Mark as complete" moves
 * the course's progress. Offline, a lesson of a course kept on the device opens from that copy
 * (decision 0181); its progress is recorded again once the connection returns.
 */
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { Link } from 'react-router';
import {
  BookOpen,
  CheckCircle2,
  ChevronLeft,
  ChevronRight,
  Download,
  ExternalLink,
} from 'lucide-react';
import { toast } from 'sonner';
import { MarkdownDocument } from '@/components/markdown-document';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { lessonFileName } from '@/lib/lesson-file-name';
import { useActivityTime } from '@/lib/use-activity-time';
import { useOnline } from '@/lib/use-online';
import { useRouteParams } from '@/lib/use-route-params';
import { useCourse } from './api/get-course';
import { useLesson, type LessonDetail } from './api/get-lesson';
import { useLessonFileUrl } from './api/get-lesson-file';
import { saveLessonProgress, useSaveLessonProgress } from './api/save-lesson-progress';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { learnPaths } from './learn-paths';
import { videoEmbed } from '@/lib/video-embed';

/** The position and time are saved after this many seconds of active reading. */
const SAVE_AFTER_SECONDS = 30;

export function LessonPage() {
  const session = useAppSession();
  const { courseId = '', lessonId = '' } = useRouteParams();
  const lesson = useLesson(session.userId, courseId, lessonId);
  const back = { to: learnPaths.course(courseId), label: 'Back to the course' };

  if (lesson.isPending) {
    return (
      <AppPage title="" back={back}>
        <LoadingBlock label="Loading the lesson…" />
      </AppPage>
    );
  }
  if (lesson.isError) {
    return (
      <AppPage title="Lesson" back={back}>
        <LoadError
          message={`Could not load the lesson: ${lesson.error.message}`}
          onRetry={() => void lesson.refetch()}
        />
      </AppPage>
    );
  }
  if (!lesson.data) {
    return (
      <AppPage title="Lesson not found" back={back}>
        <EmptyState>
          This lesson does not exist, or you are not enrolled in its course. Enrol from the course
          page to read it.
        </EmptyState>
      </AppPage>
    );
  }
  return <LessonView key={`${lesson.data.id}:${lesson.data.offline ?? ''}`} lesson={lesson.data} />;
}

function LessonView({ lesson }: { lesson: LessonDetail }) {
  const session = useAppSession();
  const markComplete = useSaveLessonProgress();
  const online = useOnline();
  const completed = lesson.progress?.status === 'completed';
  const articleRef = useRef<HTMLElement>(null);
  const tracker = useProgressTracker(session.userId, lesson, articleRef);
  const body = lesson.body ?? '';
  // Lesson texts usually open with their own "# Title": then that is the page's heading.
  const bodyHasTitle = lesson.kind === 'markdown' && /^#\s/.test(body.trimStart());

  function complete() {
    // Background saves from now on keep the lesson completed, even one already under way.
    tracker.setCompleted(true);
    markComplete.mutate(
      {
        userId: session.userId,
        courseId: lesson.courseId,
        lessonId: lesson.id,
        status: 'completed',
        scroll: tracker.scroll(),
        timeSpentSeconds: tracker.seconds(),
        completedAt: lesson.progress?.completedAt ?? null,
      },
      {
        onSuccess: () => toast.success('Lesson marked as complete.'),
        onError: (error) => {
          tracker.setCompleted(false);
          toast.error(`Could not save: ${error.message}`);
        },
      },
    );
  }

  return (
    <AppPage
      title={bodyHasTitle ? '' : lesson.title}
      back={{ to: learnPaths.course(lesson.courseId), label: 'Back to the course' }}
    >
      {lesson.offline && (
        <Notice tone="info">
          You are offline: this is the copy kept on this device. Your reading time and “Mark as
          complete” are recorded when you are back online.
        </Notice>
      )}
      <article ref={articleRef} className="min-w-0">
        {lesson.kind === 'markdown' && (
          <MarkdownDocument
            text={body}
            className="text-base leading-7 [&_h1]:font-serif [&_h1]:text-3xl [&_h1]:text-primary"
            demoteHeadings={!bodyHasTitle}
          />
        )}
        {lesson.offline && lesson.kind !== 'markdown' && (
          <p>
            This lesson’s {lesson.kind === 'video' ? 'video' : 'file'} is not kept on this device;
            it opens when you are back online.
          </p>
        )}
        {!lesson.offline && lesson.kind === 'video' && lesson.videoUrl && (
          <LessonVideo title={lesson.title} url={lesson.videoUrl} />
        )}
        {!lesson.offline &&
          (lesson.kind === 'pdf' || lesson.kind === 'epub') &&
          lesson.filePath && (
            <LessonFile
              kind={lesson.kind}
              path={lesson.filePath}
              readerPath={learnPaths.reader(lesson.courseId, lesson.id)}
            />
          )}
      </article>
      <div className="flex flex-wrap items-center gap-3 border-t pt-4">
        {completed ? (
          <p className="inline-flex items-center gap-1.5 font-medium text-success">
            <CheckCircle2 aria-hidden="true" className="size-4" />
            Completed
          </p>
        ) : (
          <Button onClick={complete} disabled={markComplete.isPending || !online}>
            <CheckCircle2 aria-hidden="true" />
            {markComplete.isPending ? 'Saving…' : 'Mark as complete'}
          </Button>
        )}
        <LessonNeighbours courseId={lesson.courseId} lessonId={lesson.id} />
      </div>
    </AppPage>
  );
}

function LessonVideo({ title, url }: { title: string; url: string }) {
  const embed = videoEmbed(url);
  if (embed.kind === 'link') {
    return (
      <Button asChild variant="outline">
        <a href={embed.href} target="_blank" rel="noopener noreferrer">
          <ExternalLink aria-hidden="true" />
          Watch the video (opens a new tab)
        </a>
      </Button>
    );
  }
  return (
    <div className="aspect-video w-full overflow-hidden rounded-lg border bg-black">
      {embed.kind === 'iframe' ? (
        <iframe
          src={embed.src}
          title={`Video: ${title}`}
          className="size-full"
          allow="encrypted-media; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
          sandbox="allow-scripts allow-same-origin allow-presentation"
        />
      ) : (
        <video src={embed.src} controls className="size-full" aria-label={`Video: ${title}`} />
      )}
    </div>
  );
}

function LessonFile({
  kind,
  path,
  readerPath,
}: {
  kind: 'pdf' | 'epub';
  path: string;
  /** The in-app reader's address, for the kinds it reads. */
  readerPath: string | null;
}) {
  const session = useAppSession();
  const link = useLessonFileUrl(session.userId, path);
  const label = kind === 'pdf' ? 'PDF' : 'ePub';
  const name = lessonFileName(path);
  if (link.isPending) return <LoadingBlock label="Preparing the download…" />;
  if (link.isError) {
    return (
      <LoadError
        message={`Could not prepare the ${label} file: ${link.error.message}`}
        onRetry={() => void link.refetch()}
      />
    );
  }
  return (
    <div className="grid gap-3">
      <p>
        {readerPath
          ? `This lesson is a ${label} document. Read it here, where your page, highlights and reading time are kept, or download it.`
          : `This lesson is a ${label} document. Download it to read it in your ${label} reader.`}
      </p>
      <div className="flex flex-wrap gap-2">
        {readerPath && (
          <Button asChild className="w-fit">
            <Link to={readerPath}>
              <BookOpen aria-hidden="true" />
              Read in the app
            </Link>
          </Button>
        )}
        <Button asChild className="w-fit" variant={readerPath ? 'outline' : 'default'}>
          <a href={link.data} download={name}>
            <Download aria-hidden="true" />
            Download {name}
          </a>
        </Button>
      </div>
    </div>
  );
}

function LessonNeighbours({ courseId, lessonId }: { courseId: string; lessonId: string }) {
  const session = useAppSession();
  const course = useCourse(session.userId, courseId);
  const lessons = course.data?.modules.flatMap((m) => m.lessons) ?? [];
  const index = lessons.findIndex((l) => l.id === lessonId);
  if (index < 0) return null;
  const previous = lessons[index - 1];
  const next = lessons[index + 1];
  return (
    <nav aria-label="Lessons" className="ml-auto flex flex-wrap gap-2">
      {previous && (
        <Button asChild variant="outline" size="sm">
          <Link to={learnPaths.lesson(courseId, previous.id)}>
            <ChevronLeft aria-hidden="true" />
            Previous lesson
          </Link>
        </Button>
      )}
      {next && (
        <Button asChild variant="outline" size="sm">
          <Link to={learnPaths.lesson(courseId, next.id)}>
            Next lesson
            <ChevronRight aria-hidden="true" />
          </Link>
        </Button>
      )}
    </nav>
  );
}

/**
 * Follows the reader: the furthest fraction of the article scrolled past and the time spent
 * reading it, counted by the app's one activity clock (the readers use it too: visible,
 * focused, used in the last two minutes), saved on open, after every 30 seconds of reading,
 * when the tab is hidden or loses focus and on leaving. The total is saved, so a failed save's
 * seconds go with the next one. Saving in the background never changes a completed lesson
 * back to in progress.
 */
function useProgressTracker(
  userId: string,
  lesson: LessonDetail,
  articleRef: RefObject<HTMLElement | null>,
) {
  const furthest = useRef(lesson.progress?.position?.scroll ?? 0);
  const baseSeconds = useRef(lesson.progress?.timeSpentSeconds ?? 0);
  const completed = useRef(lesson.progress?.status === 'completed');
  const completedAt = useRef(lesson.progress?.completedAt ?? null);
  // The clock calls the latest save (it needs the clock, so it is defined after it).
  const latestSave = useRef<() => void>(() => undefined);
  const onDue = useCallback(() => latestSave.current(), []);
  const activity = useActivityTime(onDue, { dueAfterSeconds: SAVE_AFTER_SECONDS });

  const seconds = useCallback(() => {
    baseSeconds.current += activity.take().seconds;
    return baseSeconds.current;
  }, [activity]);
  const scroll = useCallback(() => furthest.current, []);

  const save = useCallback(() => {
    void saveLessonProgress({
      userId,
      courseId: lesson.courseId,
      lessonId: lesson.id,
      status: completed.current ? 'completed' : 'in_progress',
      scroll: furthest.current,
      timeSpentSeconds: seconds(),
      completedAt: completedAt.current,
    }).catch(() => {
      // The next save carries the total again; the reader is not interrupted for it.
    });
  }, [userId, lesson.courseId, lesson.id, seconds]);

  useEffect(() => {
    latestSave.current = save;
  }, [save]);

  useEffect(() => {
    const saved = lesson.progress?.position?.scroll;
    const article = articleRef.current;
    if (saved && saved > 0.02 && saved < 0.98 && article) {
      const top = article.getBoundingClientRect().top + window.scrollY;
      window.scrollTo({ top: top + article.offsetHeight * saved - window.innerHeight / 2 });
    }
    const measure = () => {
      const el = articleRef.current;
      if (!el) return;
      const rect = el.getBoundingClientRect();
      const read = rect.height <= 0 ? 1 : (window.innerHeight - rect.top) / rect.height;
      furthest.current = Math.max(furthest.current, Math.min(1, Math.max(0, read)));
    };
    measure();
    save();
    // Hiding, leaving and every 30 s of reading save through the clock (`onDue`).
    window.addEventListener('scroll', measure, { passive: true });
    return () => window.removeEventListener('scroll', measure);
    // The lesson's saved state is read once, when it opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [save]);

  return {
    seconds,
    scroll,
    setCompleted: (value: boolean) => {
      completed.current = value;
      completedAt.current = value ? (completedAt.current ?? new Date().toISOString()) : null;
    },
  };
}
