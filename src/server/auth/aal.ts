/**
 * Authenticator assurance: a user with a verified second factor must have used it in this
 * session (aal2) before doing what would let a password thief keep the account (GoTrue's rule
 * for email and password changes, extended to signing out the other sessions).
 */
import { AuthError } from './errors';
import type { SessionRow } from './sessions';
import type { LoadedUser } from './users';

export function hasVerifiedFactor(user: Pick<LoadedUser, 'factors'>): boolean {
  return user.factors.some((factor) => factor.status === 'verified');
}

/** True when the user has a verified factor that this session has not used. */
export function needsAal2(
  user: Pick<LoadedUser, 'factors'>,
  session: Pick<SessionRow, 'aal'>,
): boolean {
  return session.aal !== 'aal2' && hasVerifiedFactor(user);
}

export function requireAal2IfEnrolled(
  user: Pick<LoadedUser, 'factors'>,
  session: Pick<SessionRow, 'aal'>,
  message: string,
): void {
  if (needsAal2(user, session)) {
    throw new AuthError(403, 'insufficient_aal', message);
  }
}
