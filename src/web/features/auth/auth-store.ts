/**
 * The signed-in state for every screen, from supabase-js's one client: a small external store
 * fed by onAuthStateChange, plus toasts for the session events a user should notice.
 */
import { useSyncExternalStore } from 'react';
import type { Session, SupabaseClient } from '@supabase/supabase-js';

export interface AuthSnapshot {
  status: 'idle' | 'loading' | 'signed-in' | 'signed-out' | 'error';
  session: Session | null;
  /** When the access token was last refreshed in this tab (TOKEN_REFRESHED). */
  refreshedAt: number | null;
  /** Set after PASSWORD_RECOVERY: the session came from a recovery link. */
  recovery: boolean;
  error: string | null;
}

let snapshot: AuthSnapshot = {
  status: 'idle',
  session: null,
  refreshedAt: null,
  recovery: false,
  error: null,
};
const listeners = new Set<() => void>();
let started: Promise<SupabaseClient> | undefined;

function update(patch: Partial<AuthSnapshot>) {
  snapshot = { ...snapshot, ...patch };
  for (const listener of listeners) listener();
}

async function showToast(message: string) {
  const { toast } = await import('sonner');
  toast.success(message);
}

function storedSessionsOrNone(read: (storage: Storage) => string[]): string[] {
  try {
    return read(localStorage);
  } catch {
    // Storage can be blocked (privacy settings); then no session was stored to restore.
    return [];
  }
}

/** Loads the client once and follows its auth events; safe to call from anywhere. */
export function startAuth(): Promise<SupabaseClient> {
  started ??= (async () => {
    update({ status: 'loading' });
    try {
      // Loaded on demand: the header imports this store, and supabase-js (~60 KB) must stay out
      // of every page's first load (decision 0002).
      const [{ getSupabase }, toasts] = await Promise.all([
        import('@/lib/supabase'),
        import('./session-toasts'),
      ]);
      // The sessions this browser held before the page loaded: restoring one is no news.
      const knownSessions = new Set(storedSessionsOrNone(toasts.storedSessionIds));
      const client = await getSupabase();
      client.auth.onAuthStateChange((event, session) => {
        update({
          session,
          status: session ? 'signed-in' : 'signed-out',
          refreshedAt: event === 'TOKEN_REFRESHED' ? Date.now() : snapshot.refreshedAt,
          recovery:
            event === 'PASSWORD_RECOVERY'
              ? true
              : event === 'SIGNED_OUT'
                ? false
                : snapshot.recovery,
          error: null,
        });
        const message = toasts.sessionToast(event, session, knownSessions);
        const id = toasts.sessionId(session);
        if (id !== undefined) knownSessions.add(id);
        if (message) void showToast(message);
      });
      return client;
    } catch (error) {
      started = undefined;
      update({ status: 'error', error: (error as Error).message });
      throw error;
    }
  })();
  return started;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const serverSnapshot: AuthSnapshot = snapshot;

export function useAuth(): AuthSnapshot {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => serverSnapshot,
  );
}

/** True when this browser holds a stored Supabase session (no need to load the client otherwise). */
export function hasStoredSession(): boolean {
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && /^sb-.+-auth-token$/.test(key)) return true;
    }
  } catch {
    // Storage can be blocked (privacy settings); then there is no stored session to find.
  }
  return false;
}
