import { useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientContext, type QueryClient } from '@tanstack/react-query';

let client: QueryClient | undefined;
let loading: Promise<QueryClient> | undefined;
const listeners = new Set<() => void>();

/**
 * Loads TanStack Query's client (and with it query-core, ~10 KB gzip) on demand: before the
 * first render of a page that fetches data (its route loader awaits this, beside the page's
 * own code). Pages that fetch nothing never load it (decision 0190).
 */
export function loadQueryClient(): Promise<QueryClient> {
  loading ??= import('@/lib/query-client').then(({ createQueryClient }) => {
    client ??= createQueryClient();
    client.mount();
    for (const listener of listeners) listener();
    return client;
  });
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => client;

/**
 * The app-wide QueryClient context. Components that use queries live in pages whose route
 * loader awaits `loadQueryClient`, so the client is always there when they render.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const value = useSyncExternalStore(subscribe, current, current);
  return <QueryClientContext.Provider value={value}>{children}</QueryClientContext.Provider>;
}
