/**
 * What the screens read from this tab's access token. Apart from auth-store.ts so that the
 * header, which imports the store on every page, does not carry it (decision 0002).
 */
import type { Session } from '@supabase/supabase-js';

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
