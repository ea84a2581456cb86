import { useSyncExternalStore } from 'react';

const subscribeNever = () => () => undefined;

/**
 * False while prerendering and hydrating, true afterwards: what renders only once it is true
 * is absent from the server's HTML, so hydration matches and its code can load later.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
