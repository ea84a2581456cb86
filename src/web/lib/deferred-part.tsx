import { Suspense, use, useEffect, useRef, useState, type ComponentType } from 'react';
import { useHydrated } from './use-hydrated';
import { useNearViewport } from './use-near-viewport';

const everyPart = new Set<() => Promise<void>>();

/**
 * Loads every deferred part of the modules loaded so far. The prerenderer awaits it after the
 * page's own module, so the HTML has the parts' content.
 */
export function loadDeferredParts(): Promise<void> {
  return Promise.all([...everyPart].map((load) => load())).then(() => undefined);
}

interface DeferredPartProps {
  /** Classes of the element that wraps the part (and is watched for nearness). */
  className?: string;
}

/**
 * A part of a page far below the fold whose code loads when the visitor gets near it
 * (decision 0194). Its prerendered HTML is there from the start: while hydrating, React keeps a
 * suspended boundary's server HTML as it is, and hydrates it once the code has arrived. On a
 * page reached by a link inside the app (no prerendered HTML), the code loads at once.
 * Only for parts that need no script before then: links inside work as plain links.
 */
export function deferredPart(load: () => Promise<ComponentType>): ComponentType<DeferredPartProps> {
  let Loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const start = (): Promise<void> =>
    (loading ??= load().then((component) => {
      Loaded = component;
    }));
  everyPart.add(start);
  let release: () => void = () => undefined;
  const near = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Settles once the visitor is near and the code has loaded; React then hydrates the part.
  const ready = near.then(start);

  function Part() {
    if (!Loaded) use(ready);
    const Component = Loaded as ComponentType;
    return <Component />;
  }

  return function DeferredPart({ className }: DeferredPartProps) {
    const ref = useRef<HTMLDivElement>(null);
    const hydrated = useHydrated();
    // Mounted after hydration (a link inside the app): no HTML to keep, load at once.
    const [atOnce] = useState(hydrated);
    const isNear = useNearViewport(ref);
    useEffect(() => {
      if (atOnce || isNear) release();
    }, [atOnce, isNear]);
    // The same element on every render: updating the boundary while React still keeps its
    // server HTML would make React drop that HTML for the (empty) fallback.
    const [boundary] = useState(() => (
      <Suspense fallback={null}>
        <Part />
      </Suspense>
    ));
    return (
      <div ref={ref} className={className}>
        {boundary}
      </div>
    );
  };
}
