/** Messages for the auth service's error codes, in words a user can act on. */
import { isAuthError } from '@supabase/supabase-js';

const messages: Record<string, string> = {
  invalid_credentials: 'The email address or password is not right.',
  email_not_confirmed: 'Confirm your email address first: open the link we sent you.',
  user_already_exists: 'An account with this email address already exists. Sign in instead.',
  email_exists: 'Another account already uses this email address.',
  email_address_invalid: 'Enter a valid email address, like name@example.com.',
  over_email_send_rate_limit: 'Too many emails were sent. Wait a few minutes and try again.',
  otp_expired: 'This code or link is invalid or has expired. Request a new one.',
  mfa_verification_failed:
    'That code is not right. Enter the current 6-digit code from your authenticator app.',
  mfa_challenge_expired: 'The code request expired. Enter a fresh code.',
  reauthentication_needed: 'For your security, confirm it is you: we will email you a code.',
  reauthentication_not_valid: 'That security code is not right or has expired.',
  same_password: 'Choose a password different from your current one.',
  user_banned: 'This account is suspended. Contact support.',
  session_not_found: 'Your session has ended. Sign in again.',
  insufficient_aal: 'Confirm it is you with your second step first.',
  mfa_factor_name_conflict: 'You already have an authenticator with this name.',
  mfa_ip_address_mismatch:
    'Your connection changed while you were confirming. Start this step again from here.',
  mfa_verified_factor_exists: 'This number is already set up for sign-in codes.',
};

export function authErrorMessage(error: unknown): string {
  if (isAuthError(error)) {
    if (error.code === 'weak_password') {
      const reasons = (error as { reasons?: string[] }).reasons ?? [];
      const parts = [];
      if (reasons.includes('length')) parts.push('use at least 8 characters');
      if (reasons.includes('pwned')) parts.push('avoid one of the most common passwords');
      return parts.length ? `Choose a stronger password: ${parts.join(' and ')}.` : error.message;
    }
    // The service's own limit messages say which limit and how long to wait.
    if (error.code === 'over_request_rate_limit') return error.message;
    if (error.code && messages[error.code]) return messages[error.code]!;
    if (error.name === 'AuthRetryableFetchError') {
      return 'The service could not be reached. Check your connection and try again.';
    }
    return error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong. Try again.';
}

/** A refused texted code, in words about the text message rather than the app. */
export function phoneCodeError(error: unknown): string {
  if (isAuthError(error) && error.code === 'mfa_verification_failed') {
    return 'That code is not right. Enter the code from the latest text message.';
  }
  return authErrorMessage(error);
}
