/**
 * Time on task for any screen that records it (decision 0163): the readers' reading sessions
 * and the lesson page use this one clock. A second counts only while the page is visible, the
 * tab focused and the learner has used the keyboard, pointer, wheel, touch or scrolled in the
 * last two minutes (`ActivityClock`); the ticking interval runs only in a visible, focused page,
 * never in a background tab.
 *
 * The screen saves the time itself, in its own call: `onDue` is called when `dueAfterSeconds`
 * have been counted, when the page is hidden or loses focus, on `pagehide` and when the screen
 * closes (or `onDue` changes, e.g. another lesson). It takes the counted seconds with `take()`
 * and gives them back when its save fails, so none are lost or counted twice.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { ActivityClock } from './activity-clock';

const TICK_MS = 1000;

export interface TakenSeconds {
  seconds: number;
  /** The save carrying them failed: they go back to be sent with the next one. */
  giveBack(): void;
}

export interface ActivityTime {
  /** Takes the whole seconds counted and not yet taken (at most one save's worth). */
  take(): TakenSeconds;
  /** Input the page's listeners cannot see, such as keys and taps inside an ePub's frame. */
  noteActivity(): void;
}

function pageState() {
  return { visible: document.visibilityState === 'visible', focused: document.hasFocus() };
}

export function useActivityTime(
  onDue: () => void,
  { dueAfterSeconds }: { dueAfterSeconds: number },
): ActivityTime {
  const clock = useRef<ActivityClock | null>(null);

  useEffect(() => {
    const activity = new ActivityClock(performance.now());
    clock.current = activity;
    let timer: number | undefined;

    const tick = () => {
      activity.tick(performance.now(), pageState());
      if (activity.pendingSeconds() >= dueAfterSeconds) onDue();
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
          // The time up to the moment the page was left still counts.
          activity.tick(performance.now(), { visible: true, focused: true });
          window.clearInterval(timer);
          timer = undefined;
        }
        activity.pause();
        onDue();
      }
    };
    const onInput = () => activity.input(performance.now());

    const inputs = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart'] as const;
    for (const name of inputs) window.addEventListener(name, onInput, { passive: true });
    // Readers scroll inside their own column, so scrolling is caught on its way down.
    document.addEventListener('scroll', onInput, { passive: true, capture: true });
    document.addEventListener('visibilitychange', startOrStop);
    window.addEventListener('focus', startOrStop);
    window.addEventListener('blur', startOrStop);
    window.addEventListener('pagehide', onDue);
    startOrStop();

    return () => {
      for (const name of inputs) window.removeEventListener(name, onInput);
      document.removeEventListener('scroll', onInput, { capture: true });
      document.removeEventListener('visibilitychange', startOrStop);
      window.removeEventListener('focus', startOrStop);
      window.removeEventListener('blur', startOrStop);
      window.removeEventListener('pagehide', onDue);
      if (timer !== undefined) {
        activity.tick(performance.now(), pageState());
        window.clearInterval(timer);
      }
      onDue();
      clock.current = null;
    };
  }, [onDue, dueAfterSeconds]);

  const take = useCallback((): TakenSeconds => {
    const from = clock.current;
    const seconds = from?.take() ?? 0;
    // Back to the clock they came from, not to another lesson's.
    return { seconds, giveBack: () => from?.giveBack(seconds) };
  }, []);
  const noteActivity = useCallback(() => clock.current?.input(performance.now()), []);
  return useMemo(() => ({ take, noteActivity }), [take, noteActivity]);
}
