/**
 * The seam between the reader shell and a viewer (PDF here; ePub in `epub/`): the shell finds
 * the lesson, its file and the saved position, runs the reading session, and hands a viewer
 * these. A viewer draws the file, reports where the reader is through `session`, and keeps
 * its highlights with `api/highlights.ts`.
 */
import type { ReaderLesson } from './api/get-reader-lesson';
import type { ReadingSession } from './use-reading-session';

export interface ViewerProps {
  lesson: ReaderLesson;
  /** A short-lived address of the file. */
  fileUrl: string;
  /** The address's query (`?page=12` from a search hit): where to open, before the saved position. */
  requested: URLSearchParams;
  session: ReadingSession;
}
