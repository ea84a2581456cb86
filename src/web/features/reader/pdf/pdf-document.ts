/**
 * pdf.js for the reader (decision 0163): the library and its worker load only with the reader's
 * route; the worker is its own file (Vite's `?url`), and pdf.js never evaluates code built from
 * a file (`isEvalSupported: false`), so a crafted PDF cannot run script through font
 * compilation. Failures become sentences a learner can act on.
 */
import {
  getDocument,
  GlobalWorkerOptions,
  PDFWorker,
  version,
  type PDFDocumentProxy,
} from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { takeEarlyPdfWorker } from '../early-open';

GlobalWorkerOptions.workerSrc = workerUrl;

/**
 * The standard fonts a PDF may name without embedding them, and the character maps of Chinese,
 * Japanese and Korean fonts, from our own origin: the build puts pdf.js's copies there
 * (`vite.pdfjs-fonts.ts`, decisions 0168 and 0169), in a folder named with the version, which
 * is how these addresses are found. pdf.js fetches a file only when a PDF needs it.
 */
const standardFontDataUrl = `/assets/pdfjs-${version}/standard_fonts/`;
const cMapUrl = `/assets/pdfjs-${version}/cmaps/`;

/**
 * One worker for the reader, started when this module loads (while the shell still fetches the
 * file's address) and kept for later files: starting it takes a few hundred milliseconds of
 * the first page's time.
 */
let worker: PDFWorker | null = null;
function sharedWorker(): PDFWorker {
  if (!worker || worker.destroyed) {
    // The reader may have started the worker's script already, before this module loaded.
    const port = takeEarlyPdfWorker();
    worker = port ? PDFWorker.create({ port }) : new PDFWorker();
  }
  return worker;
}
sharedWorker();

export type { PDFDocumentProxy };

type LoadingTask = ReturnType<typeof getDocument>;

/** A document opened ahead of the viewer (`early-open.ts`), waiting to be taken by address. */
const opened = new Map<string, LoadingTask>();
const KEEP_OPENED_MS = 60_000;

/**
 * Starts loading the file at `url` before the viewer mounts; the viewer's `openPdf` of the
 * same address takes it over. Destroyed if nobody takes it within a minute.
 */
export function preopenPdf(url: string): Promise<unknown> {
  if (!opened.has(url)) {
    const task = startLoading(url);
    opened.set(url, task);
    setTimeout(() => {
      if (opened.get(url) === task) {
        opened.delete(url);
        void task.destroy();
      }
    }, KEEP_OPENED_MS);
  }
  return opened.get(url)!.promise;
}

export function openPdf(url: string): { promise: Promise<PDFDocumentProxy>; cancel(): void } {
  const task = opened.get(url) ?? startLoading(url);
  opened.delete(url);
  return {
    promise: task.promise,
    cancel: () => void task.destroy(),
  };
}

function startLoading(url: string): LoadingTask {
  return getDocument({
    url,
    worker: sharedWorker(),
    isEvalSupported: false,
    enableXfa: false,
    standardFontDataUrl,
    cMapUrl,
    cMapPacked: true,
  });
}

/** What the reader says when a file cannot be opened. */
export function pdfErrorMessage(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  const status = (error as { status?: number } | null)?.status;
  if (name === 'PasswordException') {
    return 'This PDF is protected by a password, so the reader cannot open it. Ask whoever teaches the course for a copy without a password.';
  }
  if (name === 'InvalidPDFException') {
    return 'This file is damaged or is not a PDF, so it cannot be shown. Ask whoever teaches the course to upload it again.';
  }
  if (name === 'MissingPDFException' || status === 404 || status === 400) {
    return 'The file is missing from the course’s storage. Ask whoever teaches the course to upload it again.';
  }
  const message = error instanceof Error ? error.message : String(error);
  return `The PDF could not be opened: ${message}`;
}
