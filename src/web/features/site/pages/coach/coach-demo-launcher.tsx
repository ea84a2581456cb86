import { lazy, Suspense, useState } from 'react';
import { buttonVariants } from '@/components/ui/button';
import { loadClassMerge } from '@/lib/utils';
import { coachDemo } from './coach-content';

// Loaded on the visitor's click only: the page's first load carries this button, not the demo
// (nor the class merging its form controls rely on, decision 0190).
const CoachDemo = lazy(() =>
  Promise.all([import('./coach-demo'), loadClassMerge()]).then(([module]) => module),
);

/** The coach demo's place on the page: a button until the visitor asks for the demo. */
export function CoachDemoLauncher() {
  const [open, setOpen] = useState(false);
  return (
    <section
      aria-labelledby="coach-demo-title"
      className="rounded-2xl border bg-card p-5 shadow-xs sm:p-6"
    >
      <h3 id="coach-demo-title" className="text-lg font-semibold text-foreground">
        {coachDemo.title}
      </h3>
      <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{coachDemo.intro}</p>
      {open ? (
        <Suspense
          fallback={<p className="mt-4 text-sm text-muted-foreground">Loading the demo…</p>}
        >
          <CoachDemo />
        </Suspense>
      ) : (
        <button type="button" className={`mt-4 ${buttonVariants()}`} onClick={() => setOpen(true)}>
          {coachDemo.start}
        </button>
      )}
    </section>
  );
}
