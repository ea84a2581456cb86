/**
 * The reading session every reader shares (decision 0163): it saves where the learner is and
 * records the time they actively read, in `lesson_progress` through `record_reading`.
 *
 * Time is the app's one activity clock (`useActivityTime`: visible, focused, used in the last
 * two minutes). Seconds are sent every 15 counted seconds, with a position change, and when
 * the page is hidden or left; a failed save keeps its seconds for the next one.
 *
 * A viewer calls `savePosition` with its own keys (`{ page }` for PDF, `{ cfi }` for ePub);
 * the database merges them into the saved position.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useActivityTime } from '@/lib/use-activity-time';
import { recordReading } from './api/record-reading';

const SEND_AFTER_SECONDS = 15;
const POSITION_SETTLE_MS = 1200;

export interface ReadingSession {
  /** Remembers where the reader is; saved shortly after it stops changing. */
  savePosition(position: Record<string, unknown>): void;
  /** Input the page's listeners cannot see, such as keys and taps inside the ePub's frame. */
  noteActivity(): void;
}

export function useReadingSession(lessonId: string): ReadingSession {
  const position = useRef<{ value: Record<string, unknown>; saved: boolean } | null>(null);
  const sending = useRef(false);
  const positionTimer = useRef<number | undefined>(undefined);
  // On leaving (or another lesson), the last save goes now even if one is under way. Declared
  // before the clock so this runs before the clock's own clean-up, which flushes.
  useEffect(
    () => () => {
      window.clearTimeout(positionTimer.current);
      sending.current = false;
    },
    [lessonId],
  );
  // The clock calls the latest flush (it needs the clock, so it is defined after it).
  const latestFlush = useRef<() => void>(() => undefined);
  // A new lesson starts a new clock: the old one's seconds are flushed to the old lesson.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- restarts per lesson on purpose.
  const onDue = useCallback(() => latestFlush.current(), [lessonId]);
  const activity = useActivityTime(onDue, { dueAfterSeconds: SEND_AFTER_SECONDS });

  const flush = useCallback(() => {
    if (sending.current) return;
    const unsaved = position.current && !position.current.saved ? position.current : null;
    const taken = activity.take();
    if (taken.seconds === 0 && !unsaved) return;
    sending.current = true;
    if (unsaved) unsaved.saved = true;
    recordReading({ lessonId, seconds: taken.seconds, position: unsaved?.value ?? null })
      .catch(() => {
        // Kept for the next save (every 15 s of reading, or the next hide); the reader is not
        // interrupted for a background save.
        taken.giveBack();
        if (unsaved && position.current === unsaved) unsaved.saved = false;
      })
      .finally(() => {
        sending.current = false;
        // A position that changed while this save was under way goes in the next one.
        if (position.current && !position.current.saved) {
          window.clearTimeout(positionTimer.current);
          positionTimer.current = window.setTimeout(
            () => latestFlush.current(),
            POSITION_SETTLE_MS,
          );
        }
      });
  }, [lessonId, activity]);

  useEffect(() => {
    latestFlush.current = flush;
  }, [flush]);

  const savePosition = useCallback(
    (value: Record<string, unknown>) => {
      position.current = { value, saved: false };
      window.clearTimeout(positionTimer.current);
      positionTimer.current = window.setTimeout(flush, POSITION_SETTLE_MS);
    },
    [flush],
  );

  return { savePosition, noteActivity: activity.noteActivity };
}
