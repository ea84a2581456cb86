import { useSyncExternalStore } from 'react';

let requested = false;
const listeners = new Set<() => void>();

/**
 * Asks the frame to mount the toaster (and load sonner) now. A toast shown before the toaster
 * is mounted waits in sonner's queue and appears as soon as it is.
 */
export function requestToaster(): void {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether something on the page has asked for the toaster. */
export function useToasterRequested(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => requested,
    () => false,
  );
}
