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

/** Which factor types the server verifies now (`AUTH_MFA_PHONE_VERIFY`, `AUTH_MFA_WEBAUTHN_VERIFY`). */
export interface VerifiableFactors {
  phone: boolean;
  webauthn: boolean;
}

/**
 * True when this user can raise a session to aal2 on this server: a verified authenticator
 * app, recovery codes, or a phone or WebAuthn factor whose verification is switched on. An
 * account whose only factors the server no longer verifies cannot (decision 0061).
 */
export function canReachAal2(
  user: Pick<LoadedUser, 'factors'>,
  verifiable: VerifiableFactors,
): boolean {
  return user.factors.some(
    (factor) =>
      factor.status === 'verified' &&
      (factor.factor_type === 'phone'
        ? verifiable.phone
        : factor.factor_type === 'webauthn'
          ? verifiable.webauthn
          : true),
  );
}

export function requireAal2IfEnrolled(
  user: Pick<LoadedUser, 'factors'>,
  session: Pick<SessionRow, 'aal'>,
  message: string,
): void {
  if (needsAal2(user, session)) {
    // GoTrue's status for this refusal (`user.go`: 401 insufficient_aal).
    throw new AuthError(401, 'insufficient_aal', message);
  }
}
