/**
 * A reading ruler: the page is dimmed above and below a band of a few lines that follows the
 * pointer, and the focused element when the keyboard moves focus, so the eye keeps its line.
 * The app shell shows it on every screen when the learner turns it on in Settings; a reader
 * may render it itself (for instance from its own toolbar). It never takes a click or focus.
 */
import { useEffect, useState } from 'react';

/** The band's height in rem: about three lines of body text at any text size. */
const BAND_REM = 4.5;

export function ReadingRuler() {
  const [centre, setCentre] = useState<number | null>(null);

  useEffect(() => {
    const onPointer = (event: PointerEvent) => setCentre(event.clientY);
    const onFocus = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof Element)) return;
      const rect = target.getBoundingClientRect();
      setCentre(rect.top + Math.min(rect.height, 48) / 2);
    };
    window.addEventListener('pointermove', onPointer, { passive: true });
    window.addEventListener('focusin', onFocus);
    return () => {
      window.removeEventListener('pointermove', onPointer);
      window.removeEventListener('focusin', onFocus);
    };
  }, []);

  if (centre === null) return null;
  const half = `${BAND_REM / 2}rem`;
  const shade = 'pointer-events-none fixed inset-x-0 z-[60] bg-black/35';
  return (
    <div aria-hidden="true" data-slot="reading-ruler">
      <div
        className={`${shade} top-0`}
        style={{ height: `max(0px, calc(${centre}px - ${half}))` }}
      />
      <div className={`${shade} bottom-0`} style={{ top: `calc(${centre}px + ${half})` }} />
    </div>
  );
}
