/**
 * The reader's first page without waiting in line (decision 0169). The reader's module loads
 * while the app shell still signs in and reads the learner's organizations; as soon as it
 * does, this starts what the first page needs, side by side instead of one after another:
 * pdf.js's worker (most files read here are PDFs; it is stopped when the file is not one) and
 * the lesson row with the saved position, then, once the file's kind is known, the viewer's
 * code, the file's signed address, and for a PDF the document itself. The reader's queries
 * and the PDF viewer take these over when they mount; whatever is not taken within a minute
 * is dropped (a learner who went elsewhere).
 */
import { matchRoute } from '@common/routes';
import { getSupabase } from '@/lib/supabase';
import type { ReaderLesson } from './api/get-reader-lesson';

const READER_PATH = '/app/courses/:courseId/lessons/:lessonId/read';
const KEEP_MS = 60_000;

interface Early {
  userId: string;
  lessonId: string;
  /** Taken once: a later opening of the lesson reads the saved position again. */
  lesson: Promise<ReaderLesson | null> | null;
  /** Keyed by the file's path, so the address is only taken for the file it names. */
  fileUrls: Map<string, Promise<string>>;
}

let early: Early | null = null;
let earlyWorker: Worker | null = null;
/** Lessons whose reader asked before this got going (a move within the app): left alone. */
const askedFirst = new Set<string>();

/** Never rejects: a failure here is the reader's own query's to report when it runs. */
const settled = <T>(promise: Promise<T>) => {
  promise.catch(() => undefined);
  return promise;
};

/** How the reader reads a lesson and its file, and loads a viewer (passed in: no import cycle). */
export interface EarlySteps {
  lesson: (userId: string, courseId: string, lessonId: string) => Promise<ReaderLesson | null>;
  fileUrl: (filePath: string) => Promise<string>;
  /** Loads that viewer's chunk (the PDF viewer's starts pdf.js's worker). */
  viewerCode: (kind: 'pdf' | 'epub') => Promise<unknown>;
  /** Starts pdf.js on the file. */
  openPdf: (url: string) => Promise<unknown>;
  /** Starts pdf.js's worker script (a module worker, as pdf.js would start it). */
  startPdfWorker: () => Worker;
}

/** Set once the worker's script has run (its first message, pdf.js's "ready"). */
const running = new WeakSet<Worker>();

/**
 * Stops the early worker when nobody took it. A worker stopped while its script still loads
 * leaves that request hanging in Chromium (never finished, never failed), so it is stopped
 * only once it has said it runs.
 */
function dropEarlyWorker(worker: Worker) {
  if (earlyWorker !== worker) return;
  earlyWorker = null;
  if (running.has(worker)) worker.terminate();
  else worker.addEventListener('message', () => worker.terminate(), { once: true });
}

function keepEarlyWorker(worker: Worker): Worker {
  worker.addEventListener('message', () => running.add(worker), { once: true });
  earlyWorker = worker;
  setTimeout(() => dropEarlyWorker(worker), KEEP_MS);
  return worker;
}

/**
 * Starts pdf.js's worker script from the entry, when the address is the reader's (decision
 * 0186): the 1.2 MB script then downloads and compiles beside the app's frame instead of after
 * the reader's module, which made it the last thing the first page waited for. `openEarly`
 * takes it over.
 */
export function startEarlyPdfWorker(pathname: string, start: () => Worker): void {
  if (earlyWorker || matchRoute(pathname)?.route.path !== READER_PATH) return;
  keepEarlyWorker(start());
}

/**
 * Starts opening the lesson at `pathname` when it is the reader's route and someone is signed
 * in on this device.
 */
export function openEarly(pathname: string, steps: EarlySteps): void {
  const match = matchRoute(pathname);
  if (match?.route.path !== READER_PATH) return;
  const { courseId = '', lessonId = '' } = match.params;
  const worker = earlyWorker ?? keepEarlyWorker(steps.startPdfWorker());
  void (async () => {
    const client = await getSupabase();
    const { data } = await client.auth.getSession();
    const userId = data.session?.user.id;
    if (!userId || askedFirst.has(lessonId)) return;
    const lesson = settled(steps.lesson(userId, courseId, lessonId));
    const started: Early = { userId, lessonId, lesson, fileUrls: new Map() };
    early = started;
    setTimeout(() => {
      if (early === started) early = null;
    }, KEEP_MS);
    const found = await lesson;
    const kind = found?.kind === 'pdf' || found?.kind === 'epub' ? found.kind : null;
    if (kind !== 'pdf') dropEarlyWorker(worker);
    if (!found?.filePath || !kind) return;
    const code = settled(steps.viewerCode(kind));
    const fileUrl = settled(steps.fileUrl(found.filePath));
    started.fileUrls.set(found.filePath, fileUrl);
    if (kind === 'pdf') {
      const [url] = await Promise.all([fileUrl, code]);
      await steps.openPdf(url);
    }
  })().catch(() => undefined);
}

/** The lesson read early for this learner and lesson, once; null when there is none. */
export function takeEarlyLesson(
  userId: string,
  lessonId: string,
): Promise<ReaderLesson | null> | null {
  if (!early || early.userId !== userId || early.lessonId !== lessonId) {
    askedFirst.add(lessonId);
    return null;
  }
  const { lesson } = early;
  early.lesson = null;
  return lesson;
}

/** The signed address fetched early for this file, once; null when there is none. */
export function takeEarlyFileUrl(filePath: string): Promise<string> | null {
  const url = early?.fileUrls.get(filePath);
  if (!url) return null;
  early?.fileUrls.delete(filePath);
  return url;
}

/** The pdf.js worker started early, once; null when there is none. */
export function takeEarlyPdfWorker(): Worker | null {
  const worker = earlyWorker;
  earlyWorker = null;
  return worker;
}
