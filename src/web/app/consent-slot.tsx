/**
 * Where the consent banner appears in every frame (the site layout loads this after
 * hydration). The banner's module loads only when it is needed — no choice stored yet, or
 * "Privacy choices" asked for it — so a returning visitor does not download it.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { subscribeOpenRequests, useConsent } from '@/lib/consent-state';

const ConsentBanner = lazy(() =>
  import('@/features/privacy/consent-banner').then((m) => ({ default: m.ConsentBanner })),
);

export function ConsentSlot() {
  const consent = useConsent();
  const [requested, setRequested] = useState(false);
  useEffect(() => subscribeOpenRequests(() => setRequested(true)), []);
  if (consent && !requested) return null;
  return (
    <Suspense fallback={null}>
      <ConsentBanner startChoosing={requested} />
    </Suspense>
  );
}
