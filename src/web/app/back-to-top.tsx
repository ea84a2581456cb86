import { useEffect, useState } from 'react';
import { ArrowUp } from 'lucide-react';

const SHOW_AFTER_PX = 300;

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Appears once the visitor has scrolled more than 300 px; returns them to the top. */
export function BackToTop() {
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const update = () => setVisible(window.scrollY > SHOW_AFTER_PX);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  if (!visible) return null;
  return (
    // A round button of its own rather than <Button> with overrides: the public site composes
    // classes without tailwind-merge (decision 0190).
    <button
      type="button"
      aria-label="Back to top"
      title="Back to top"
      className={[
        'fixed right-4 bottom-4 z-30 inline-flex size-11 items-center justify-center rounded-full sm:right-6 sm:bottom-6',
        'bg-primary text-primary-foreground shadow-lg transition-[color,background-color,box-shadow] outline-none hover:bg-primary/90',
        'focus-visible:ring-[3px] focus-visible:ring-ring/50 animate-in fade-in-0 zoom-in-95',
      ].join(' ')}
      onClick={() =>
        window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' })
      }
    >
      <ArrowUp className="size-5" aria-hidden="true" />
    </button>
  );
}
