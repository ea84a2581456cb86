import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

interface PageSectionProps {
  /** Anchor id; the heading gets `${id}-heading`. */
  id: string;
  title: string;
  eyebrow?: string;
  intro?: ReactNode;
  /** Alternate background so long pages read as distinct bands. */
  tinted?: boolean;
  children: ReactNode;
  className?: string;
}

/** A titled band of a marketing page with an h2, reachable by its anchor. */
export function PageSection({
  id,
  title,
  eyebrow,
  intro,
  tinted,
  children,
  className,
}: PageSectionProps) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className={cn(tinted && 'border-y bg-muted/40', className)}
    >
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-16 lg:px-8">
        <div className="max-w-3xl">
          {eyebrow && (
            <p className="mb-2 text-sm font-semibold tracking-wide text-primary uppercase">
              {eyebrow}
            </p>
          )}
          <h2
            id={`${id}-heading`}
            className="text-2xl font-semibold tracking-tight text-balance text-foreground sm:text-3xl"
          >
            {title}
          </h2>
          {intro && (
            <div className="mt-3 text-base leading-relaxed text-pretty text-muted-foreground sm:text-lg">
              {intro}
            </div>
          )}
        </div>
        <div className="mt-8">{children}</div>
      </div>
    </section>
  );
}
