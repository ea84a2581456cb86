/**
 * The reader (issue 12, decision 0163): a lesson's PDF or ePub file read inside the app, at
 * `/app/courses/:courseId/lessons/:lessonId/read` (`?page=N` opens a PDF at a page, as a
 * library search hit does). The shell finds the lesson and its file, runs the reading session
 * (position and time on task) and picks the viewer by the file's kind; each viewer is its own
 * chunk, loaded only here.
 */
import { lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import pdfWorkerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { useAppSession } from '@/lib/app-session';
import { lessonFileName } from '@/lib/lesson-file-name';
import { useRouteParams } from '@/lib/use-route-params';
import { routePath } from '@common/routes';
import {
  getReaderFileUrl,
  getReaderLesson,
  useReaderLesson,
  type ReaderKind,
  type ReaderLesson,
} from './api/get-reader-lesson';
import { readerKeys } from './api/reader-keys';
import { openEarly, takeEarlyFileUrl } from './early-open';
import { useReadingSession } from './use-reading-session';
import type { ViewerProps } from './viewer-props';

/** Each viewer's chunk; started as soon as the lesson's kind is known, beside the file's address. */
const loaders: Partial<Record<ReaderKind, () => Promise<{ default: ComponentType<ViewerProps> }>>> =
  {
    pdf: () => import('./pdf/pdf-reader').then((m) => ({ default: m.PdfReader })),
    epub: () => import('./epub/epub-reader').then((m) => ({ default: m.EpubReader })),
  };

const viewers: Partial<Record<ReaderKind, LazyExoticComponent<ComponentType<ViewerProps>>>> =
  Object.fromEntries(Object.entries(loaders).map(([kind, load]) => [kind, lazy(load)]));

// This module loads while the app shell still signs in; the first page's work starts now.
if (typeof window !== 'undefined') {
  openEarly(window.location.pathname, {
    lesson: getReaderLesson,
    fileUrl: getReaderFileUrl,
    viewerCode: (kind) => loaders[kind]!(),
    openPdf: (url) => import('./pdf/pdf-document').then((m) => m.preopenPdf(url)),
    startPdfWorker: () => new Worker(pdfWorkerUrl, { type: 'module' }),
  });
}

function lessonPath(courseId: string, lessonId: string): string {
  return routePath('/app/courses/:courseId/lessons/:lessonId', { courseId, lessonId });
}

export function ReaderPage() {
  const session = useAppSession();
  const { courseId = '', lessonId = '' } = useRouteParams();
  const lesson = useReaderLesson(session.userId, courseId, lessonId);
  const back = { to: lessonPath(courseId, lessonId), label: 'Back to the lesson' };

  if (lesson.isPending) {
    return (
      <AppPage title="" back={back}>
        <LoadingBlock label="Opening the reader…" />
      </AppPage>
    );
  }
  if (lesson.isError) {
    return (
      <AppPage title="Reader" back={back}>
        <LoadError
          message={`Could not open the lesson: ${lesson.error.message}`}
          onRetry={() => void lesson.refetch()}
        />
      </AppPage>
    );
  }
  const found = lesson.data;
  if (!found) {
    return (
      <AppPage title="Lesson not found" back={{ to: '/app/library', label: 'Back to the library' }}>
        <EmptyState>
          This lesson does not exist, or you are not enrolled in its course. Enrol from the course
          page to read it.
        </EmptyState>
      </AppPage>
    );
  }
  const kind = found.kind === 'pdf' || found.kind === 'epub' ? found.kind : null;
  const Viewer = kind ? viewers[kind] : undefined;
  if (!kind || !found.filePath || !Viewer) {
    return (
      <AppPage title={found.title} back={back}>
        <EmptyState>
          {found.kind === 'pdf' || found.kind === 'epub'
            ? found.filePath
              ? 'This kind of file opens from the lesson page.'
              : 'This lesson has no file yet.'
            : 'This lesson is not a file: read it on the lesson page.'}
        </EmptyState>
      </AppPage>
    );
  }
  return (
    <ReaderFrame
      lesson={found}
      filePath={found.filePath}
      Viewer={Viewer}
      preload={loaders[kind]!}
    />
  );
}

function ReaderFrame({
  lesson,
  filePath,
  Viewer,
  preload,
}: {
  lesson: ReaderLesson;
  filePath: string;
  Viewer: ComponentType<ViewerProps>;
  preload: () => Promise<unknown>;
}) {
  const session = useAppSession();
  const [params] = useSearchParams();
  const reading = useReadingSession(lesson.id);
  useEffect(() => {
    // The viewer's code loads while the file's address is fetched, not after.
    void preload().catch(() => undefined);
  }, [preload]);
  const file = useQuery({
    queryKey: [...readerKeys.lesson(session.userId, lesson.id), 'file', filePath],
    queryFn: () => takeEarlyFileUrl(filePath) ?? getReaderFileUrl(filePath),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  return (
    <div className="flex h-[calc(100svh-var(--header-height))] min-h-96 flex-col">
      <div className="flex min-w-0 items-center gap-3 border-b px-3 py-2 sm:px-5">
        <Link
          to={lessonPath(lesson.courseId, lesson.id)}
          className="inline-flex shrink-0 items-center gap-1.5 rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          <span className="max-sm:sr-only">Back to the lesson</span>
        </Link>
        <h1 className="min-w-0 truncate font-serif text-lg font-semibold text-primary">
          {lesson.title}
          <span className="sr-only"> ({lessonFileName(filePath)})</span>
        </h1>
      </div>
      <div className="min-h-0 flex-1">
        {file.isPending ? (
          <LoadingBlock label="Fetching the file…" />
        ) : file.isError ? (
          <div className="p-4">
            <LoadError
              message={`The file could not be fetched: ${file.error.message}`}
              onRetry={() => void file.refetch()}
            />
          </div>
        ) : (
          <Suspense fallback={<LoadingBlock label="Loading the reader…" />}>
            <Viewer lesson={lesson} fileUrl={file.data} requested={params} session={reading} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
