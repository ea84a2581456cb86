/**
 * The reading session every reader shares (decision 0163): it saves where the learner is and
 * records the time they actively read, in `lesson_progress` through `record_reading`.
 *
 * Time counts only while the page is visible, the tab focused and the learner has used the
 * keyboard, pointer, wheel or touch in the last two minutes (`ActivityClock`). The ticking
 * interval runs only in a visible, focused page, never in a background tab. Seconds are sent
 * every 15 counted seconds, with a position change, and when the page is hidden or left; a
 * failed save keeps its seconds for the next one.
 *
 * A viewer calls `savePosition` with its own keys (`{ page }` for PDF, `{ cfi }` for ePub);
 * the database merges them into the saved position.
 */
import { useCallback, useEffect, useRef } from 'react';
import { ActivityClock } from './activity-clock';
import { recordReading } from './api/record-reading';

const TICK_MS = 1000;
const SEND_AFTER_SECONDS = 15;
const POSITION_SETTLE_MS = 1200;

export interface ReadingSession {
  /** Remembers where the reader is; saved shortly after it stops changing. */
  savePosition(position: Record<string, unknown>): void;
  /** Input the page's listeners cannot see, such as keys and taps inside the ePub's frame. */
  noteActivity(): void;
}

function pageState() {
  return { visible: document.visibilityState === 'visible', focused: document.hasFocus() };
}

export function useReadingSession(lessonId: string): ReadingSession {
  const clock = useRef<ActivityClock | null>(null);
  const position = useRef<{ value: Record<string, unknown>; saved: boolean } | null>(null);
  const sending = useRef(false);
  const positionTimer = useRef<number | undefined>(undefined);
  // The save that follows one under way calls the latest flush.
  const again = useRef<() => void>(() => undefined);

  const flush = useCallback(() => {
    const activity = clock.current;
    if (!activity || sending.current) return;
    const unsaved = position.current && !position.current.saved ? position.current : null;
    const seconds = activity.take();
    if (seconds === 0 && !unsaved) return;
    sending.current = true;
    if (unsaved) unsaved.saved = true;
    recordReading({ lessonId, seconds, position: unsaved?.value ?? null })
      .catch(() => {
        // Kept for the next save (every 15 s of reading, or the next hide); the reader is not
        // interrupted for a background save.
        activity.giveBack(seconds);
        if (unsaved && position.current === unsaved) unsaved.saved = false;
      })
      .finally(() => {
        sending.current = false;
        // A position that changed while this save was under way goes in the next one.
        if (position.current && !position.current.saved && clock.current) {
          window.clearTimeout(positionTimer.current);
          positionTimer.current = window.setTimeout(() => again.current(), POSITION_SETTLE_MS);
        }
      });
  }, [lessonId]);

  useEffect(() => {
    again.current = flush;
  }, [flush]);

  useEffect(() => {
    const activity = new ActivityClock(performance.now());
    clock.current = activity;
    let timer: number | undefined;

    const tick = () => {
      activity.tick(performance.now(), pageState());
      if (activity.pendingSeconds() >= SEND_AFTER_SECONDS) flush();
    };
    const startOrStop = () => {
      const { visible, focused } = pageState();
      if (visible && focused) {
        if (timer === undefined) {
          activity.tick(performance.now(), pageState());
          timer = window.setInterval(tick, TICK_MS);
        }
      } else {
        if (timer !== undefined) {
          activity.tick(performance.now(), { visible: true, focused: true });
          window.clearInterval(timer);
          timer = undefined;
        }
        activity.pause();
        flush();
      }
    };
    const onInput = () => activity.input(performance.now());

    const inputs = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart'] as const;
    for (const name of inputs) window.addEventListener(name, onInput, { passive: true });
    // The readers scroll inside their own column, so scrolling is caught on its way down.
    document.addEventListener('scroll', onInput, { passive: true, capture: true });
    document.addEventListener('visibilitychange', startOrStop);
    window.addEventListener('focus', startOrStop);
    window.addEventListener('blur', startOrStop);
    window.addEventListener('pagehide', flush);
    startOrStop();

    return () => {
      for (const name of inputs) window.removeEventListener(name, onInput);
      document.removeEventListener('scroll', onInput, { capture: true });
      document.removeEventListener('visibilitychange', startOrStop);
      window.removeEventListener('focus', startOrStop);
      window.removeEventListener('blur', startOrStop);
      window.removeEventListener('pagehide', flush);
      if (timer !== undefined) {
        activity.tick(performance.now(), pageState());
        window.clearInterval(timer);
      }
      window.clearTimeout(positionTimer.current);
      sending.current = false;
      flush();
      clock.current = null;
    };
  }, [flush]);

  const savePosition = useCallback(
    (value: Record<string, unknown>) => {
      position.current = { value, saved: false };
      window.clearTimeout(positionTimer.current);
      positionTimer.current = window.setTimeout(flush, POSITION_SETTLE_MS);
    },
    [flush],
  );

  const noteActivity = useCallback(() => clock.current?.input(performance.now()), []);

  return { savePosition, noteActivity };
}
