-- Phone and WebAuthn MFA factors (issue 19, decision 0055), in GoTrue's shape: a phone factor
-- holds its number (E.164 digits, as auth.users.phone); a WebAuthn factor holds its verified
-- credential (id, public key, signature counter, transports; nothing secret). A phone
-- challenge holds the SHA-256 of (challenge id || code); a WebAuthn challenge holds the
-- ceremony's expected challenge and whether it registers ("create") or asserts ("request").
alter table auth.mfa_factors drop constraint if exists mfa_factors_factor_type_check;
alter table auth.mfa_factors
  add constraint mfa_factors_factor_type_check
  check (factor_type in ('totp', 'phone', 'webauthn', 'recovery_code'));
alter table auth.mfa_factors
  add column if not exists phone text,
  add column if not exists web_authn_credential jsonb,
  add column if not exists web_authn_aaguid uuid;
alter table auth.mfa_factors
  add constraint mfa_factors_phone_shape check (factor_type <> 'phone' or phone ~ '^[1-9][0-9]{1,14}$');

alter table auth.mfa_challenges
  add column if not exists otp_code_hash text,
  add column if not exists web_authn_session_data jsonb;
create index if not exists mfa_challenges_factor on auth.mfa_challenges (factor_id, created_at);

-- A credential is one factor, whoever holds it.
create unique index if not exists mfa_factors_webauthn_credential
  on auth.mfa_factors ((web_authn_credential ->> 'id'))
  where web_authn_credential is not null;
