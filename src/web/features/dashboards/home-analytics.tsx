import { Suspense, useRef, type ReactNode } from 'react';
import { useNearViewport } from '@/lib/use-near-viewport';

/**
 * The home page's analytics section; every figure is measured or read, never invented. The
 * panels (`panels`: HomeAnalyticsPanels, loaded on demand by the app with the query client)
 * render, and so load their code and start polling, only when a visitor gets near them.
 */
export function HomeAnalytics({ panels }: { panels: ReactNode }) {
  const sectionRef = useRef<HTMLElement>(null);
  const near = useNearViewport(sectionRef);
  return (
    <section
      ref={sectionRef}
      aria-labelledby="platform-analytics-heading"
      className="flex min-h-64 flex-col gap-4"
    >
      <div className="flex flex-col gap-1">
        <h2 id="platform-analytics-heading" className="text-2xl font-semibold tracking-tight">
          Platform Analytics
        </h2>
        <p className="text-muted-foreground">
          Live figures from this deployment. Collapse a panel to stop its updates.
        </p>
      </div>
      {near && (
        <Suspense
          fallback={
            <p role="status" className="text-sm text-muted-foreground">
              Loading the live figures…
            </p>
          }
        >
          {panels}
        </Suspense>
      )}
    </section>
  );
}
