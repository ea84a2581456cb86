-- Passkeys (issue 19, decision 0056): first-factor WebAuthn credentials. They are kept beside
-- the other authenticators in auth.mfa_factors, as factor_type 'passkey' (always verified),
-- so the audit trigger, the personal-data export and erasure that cover that table cover
-- them; the auth service leaves them out of `user.factors` and of every MFA rule, as GoTrue
-- keeps them apart from factors. last_used_at is when one last signed in.
alter table auth.mfa_factors drop constraint if exists mfa_factors_factor_type_check;
alter table auth.mfa_factors
  add constraint mfa_factors_factor_type_check
  check (factor_type in ('totp', 'phone', 'webauthn', 'recovery_code', 'passkey'));
alter table auth.mfa_factors add column if not exists last_used_at timestamptz;
-- Passkey names are GoTrue's (not unique per user); the MFA factor name rule stays for factors.
drop index if exists auth.mfa_factors_name;
create unique index if not exists mfa_factors_name on auth.mfa_factors (user_id, friendly_name)
  where friendly_name is not null and friendly_name <> '' and factor_type <> 'passkey';

-- A ceremony in progress (registration for a signed-in user, or a discoverable sign-in with
-- no user yet) is short-lived sign-in state: a flow_state row holding the expected challenge.
alter table auth.flow_state add column if not exists web_authn_session_data jsonb;
alter table auth.flow_state add column if not exists expires_at timestamptz;

-- A passkey is a first factor: it never makes aal2 due.
create or replace function auth.aal2_if_enrolled() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = auth.uid() and f.status = 'verified' and f.factor_type <> 'passkey'
    )
$$;
