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

GlobalWorkerOptions.workerSrc = workerUrl;

/**
 * The standard fonts a PDF may name without embedding them, from our own origin: the build
 * puts pdf.js's copies there (`vite.pdfjs-fonts.ts`, decision 0168), in a folder named with
 * the version, which is how this address is found.
 */
const standardFontDataUrl = `/assets/pdfjs-${version}/standard_fonts/`;

/**
 * One worker for the reader, started when this module loads (while the shell still fetches the
 * file's address) and kept for later files: starting it takes a few hundred milliseconds of
 * the first page's time.
 */
let worker: PDFWorker | null = null;
function sharedWorker(): PDFWorker {
  if (!worker || worker.destroyed) worker = new PDFWorker();
  return worker;
}
sharedWorker();

export type { PDFDocumentProxy };

export function openPdf(url: string): { promise: Promise<PDFDocumentProxy>; cancel(): void } {
  const task = getDocument({
    url,
    worker: sharedWorker(),
    isEvalSupported: false,
    enableXfa: false,
    standardFontDataUrl,
  });
  return {
    promise: task.promise,
    cancel: () => void task.destroy(),
  };
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
