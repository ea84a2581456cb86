/**
 * Which auth events a user is told about with a toast. Loaded with the auth client, not with
 * the header (decision 0002).
 */
import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { accessTokenClaims, awaitingSecondFactor } from './session-claims';

const eventToasts: Partial<Record<AuthChangeEvent, string>> = {
  SIGNED_OUT: 'You are signed out.',
  MFA_CHALLENGE_VERIFIED: 'Two-factor code verified.',
  PASSWORD_RECOVERY: 'Choose a new password to finish resetting it.',
};

export function sessionId(session: Session | null): string | undefined {
  return session ? accessTokenClaims(session.access_token).session_id : undefined;
}

/**
 * The sessions this browser already held when the page loaded. supabase-js reports SIGNED_IN
 * when it restores one of them (on every page load and whenever the tab becomes visible again),
 * and that is no news to a returning user.
 */
export function storedSessionIds(storage: Storage): string[] {
  const ids: string[] = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (!key || !/^sb-.+-auth-token$/.test(key)) continue;
    try {
      const stored = JSON.parse(storage.getItem(key) ?? 'null') as { access_token?: unknown };
      if (typeof stored?.access_token !== 'string') continue;
      const id = accessTokenClaims(stored.access_token).session_id;
      if (id) ids.push(id);
    } catch {
      // Not a session we can read: nothing to recognise.
    }
  }
  return ids;
}

/**
 * The toast for an auth event, if any. "Signed in as …" only for a session this browser has not
 * seen before (an actual sign-in, here or in another tab), and not while a second factor is due.
 */
export function sessionToast(
  event: AuthChangeEvent,
  session: Session | null,
  knownSessions: ReadonlySet<string>,
): string | undefined {
  if (event !== 'SIGNED_IN') return eventToasts[event];
  if (!session || awaitingSecondFactor(session)) return undefined;
  const id = sessionId(session);
  if (id !== undefined && knownSessions.has(id)) return undefined;
  return `Signed in as ${session.user.email ?? 'you'}.`;
}
