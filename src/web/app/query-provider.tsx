import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import { whenIdle } from '@/lib/when-idle';

let client: QueryClient | undefined;
let loading: Promise<QueryClient> | undefined;
const listeners = new Set<() => void>();

/**
 * Loads TanStack Query's client (and with it query-core, ~8 KB gzip) on demand: before the
 * first render of a page that fetches data (its route loader awaits this), and once the
 * browser is idle on any other page. Documentation pages stay inside their JavaScript budget.
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
  useEffect(
    () =>
      whenIdle(() => {
        void loadQueryClient();
      }),
    [],
  );
  return <QueryClientContext.Provider value={value}>{children}</QueryClientContext.Provider>;
}
