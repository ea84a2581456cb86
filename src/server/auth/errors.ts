/**
 * Auth errors in GoTrue's shape: an HTTP status, one of its error codes and a message. The
 * gateway renders them in the 2024-01-01 format that supabase-js reads `error.code` from.
 */
export type AuthErrorCode =
  | 'anonymous_provider_disabled'
  | 'bad_code_verifier'
  | 'bad_json'
  | 'bad_jwt'
  | 'bad_oauth_callback'
  | 'bad_oauth_state'
  | 'coupon_expired'
  | 'coupon_required'
  | 'coupon_revoked'
  | 'coupon_unknown'
  | 'coupon_used_up'
  | 'email_address_invalid'
  | 'email_exists'
  | 'email_not_confirmed'
  | 'flow_state_expired'
  | 'flow_state_not_found'
  | 'identity_already_exists'
  | 'identity_not_found'
  | 'insufficient_aal'
  | 'invalid_credentials'
  | 'manual_linking_disabled'
  | 'mfa_challenge_expired'
  | 'mfa_ip_address_mismatch'
  | 'mfa_factor_name_conflict'
  | 'mfa_factor_not_found'
  | 'mfa_phone_enroll_not_enabled'
  | 'mfa_phone_verify_not_enabled'
  | 'mfa_webauthn_enroll_not_enabled'
  | 'mfa_webauthn_verify_not_enabled'
  | 'passkey_disabled'
  | 'too_many_passkeys'
  | 'webauthn_challenge_not_found'
  | 'webauthn_challenge_expired'
  | 'webauthn_verification_failed'
  | 'webauthn_credential_exists'
  | 'mfa_recovery_codes_locked'
  | 'mfa_recovery_codes_sole_factor'
  | 'mfa_verification_failed'
  | 'mfa_verification_rejected'
  | 'mfa_verified_factor_exists'
  | 'no_authorization'
  | 'not_admin'
  | 'otp_disabled'
  | 'otp_expired'
  | 'over_request_rate_limit'
  | 'over_sms_send_rate_limit'
  | 'phone_exists'
  | 'phone_not_confirmed'
  | 'phone_provider_disabled'
  | 'provider_disabled'
  | 'reauthentication_needed'
  | 'reauthentication_not_valid'
  | 'refresh_token_already_used'
  | 'refresh_token_not_found'
  | 'same_password'
  | 'saml_assertion_no_email'
  | 'saml_assertion_no_user_id'
  | 'saml_entity_id_mismatch'
  | 'saml_idp_already_exists'
  | 'saml_idp_not_found'
  | 'saml_metadata_fetch_failed'
  | 'saml_relay_state_expired'
  | 'saml_relay_state_not_found'
  | 'sso_domain_already_exists'
  | 'sso_provider_disabled'
  | 'sso_provider_not_found'
  | 'session_expired'
  | 'session_not_found'
  | 'signup_disabled'
  | 'single_identity_not_deletable'
  | 'sms_send_failed'
  | 'too_many_enrolled_mfa_factors'
  | 'unexpected_failure'
  | 'user_already_exists'
  | 'user_banned'
  | 'user_not_found'
  | 'validation_failed'
  | 'weak_password'
  | 'web3_provider_disabled';

export type WeakPasswordReason = 'length' | 'characters' | 'pwned';

export class AuthError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: AuthErrorCode,
    message: string,
    /** Extra members of the error body, e.g. `weak_password: {reasons}`. */
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

export const badRequest = (code: AuthErrorCode, message: string) =>
  new AuthError(400, code, message);
export const unprocessable = (code: AuthErrorCode, message: string) =>
  new AuthError(422, code, message);
export const forbidden = (code: AuthErrorCode, message: string) =>
  new AuthError(403, code, message);
export const notFound = (code: AuthErrorCode, message: string) => new AuthError(404, code, message);
export const validation = (message: string) => new AuthError(400, 'validation_failed', message);

/**
 * GoTrue's refusal of an ID token (`grant_type=id_token`) is an OAuth error, not a coded one:
 * 400 with `{ error, error_description }`, which supabase-js reports as the message.
 */
export class OAuthGrantError extends Error {
  constructor(
    public readonly error: string,
    description: string,
  ) {
    super(description);
    this.name = 'OAuthGrantError';
  }
}
