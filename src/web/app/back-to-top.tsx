import { useEffect, useState } from 'react';
import { ArrowUp } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

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
    <Button
      type="button"
      size="icon"
      aria-label="Back to top"
      title="Back to top"
      className={cn(
        'fixed right-4 bottom-4 z-30 size-11 rounded-full shadow-lg sm:right-6 sm:bottom-6',
        'animate-in fade-in-0 zoom-in-95',
      )}
      onClick={() =>
        window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' })
      }
    >
      <ArrowUp className="size-5" />
    </Button>
  );
}
