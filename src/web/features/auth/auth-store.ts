/**
 * The signed-in state for every screen, from supabase-js's one client: a small external store
 * fed by onAuthStateChange, plus toasts for the session events a user should notice.
 */
import { useSyncExternalStore } from 'react';
import type { AuthChangeEvent, Session, SupabaseClient } from '@supabase/supabase-js';

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

const eventToasts: Partial<Record<AuthChangeEvent, string>> = {
  SIGNED_OUT: 'You are signed out.',
  MFA_CHALLENGE_VERIFIED: 'Two-factor code verified.',
  PASSWORD_RECOVERY: 'Choose a new password to finish resetting it.',
};

export interface AccessTokenClaims {
  aal?: string;
  session_id?: string;
}

/**
 * The claims of this tab's access token, read without verifying it: the server verifies it on
 * every request, the screens only need to know which session and level they show.
 */
export function accessTokenClaims(token: string): AccessTokenClaims {
  try {
    const part = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(part)) as AccessTokenClaims;
  } catch {
    return {};
  }
}

/** Signed in with the password only, while a verified authenticator still has to be used. */
export function awaitingSecondFactor(session: Session): boolean {
  const hasFactor = (session.user.factors ?? []).some((f) => f.status === 'verified');
  return hasFactor && accessTokenClaims(session.access_token).aal !== 'aal2';
}

async function notify(event: AuthChangeEvent, session: Session | null) {
  let message = eventToasts[event];
  if (event === 'SIGNED_IN' && session && !awaitingSecondFactor(session)) {
    message = `Signed in as ${session.user.email ?? 'you'}.`;
  }
  if (!message) return;
  const { toast } = await import('sonner');
  toast.success(message);
}

/** Loads the client once and follows its auth events; safe to call from anywhere. */
export function startAuth(): Promise<SupabaseClient> {
  started ??= (async () => {
    update({ status: 'loading' });
    try {
      // Loaded on demand: the header imports this store, and supabase-js (~60 KB) must stay out
      // of every page's first load (decision 0002).
      const { getSupabase } = await import('@/lib/supabase');
      const client = await getSupabase();
      let initial = true;
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
        // INITIAL_SESSION restores a stored session: no news for the user.
        if (!initial || event !== 'INITIAL_SESSION') void notify(event, session);
        initial = false;
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
