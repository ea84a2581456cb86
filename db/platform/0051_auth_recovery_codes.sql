-- MFA recovery codes, in the shape supabase-js's recovery-codes API expects: the set is one
-- factor of type `recovery_code` (so it shows in `user.factors`), and each code is a row
-- holding only the SHA-256 of the code (80 random bits: a hash that cannot be reversed).
alter table auth.mfa_factors drop constraint if exists mfa_factors_factor_type_check;
alter table auth.mfa_factors
  add constraint mfa_factors_factor_type_check
  check (factor_type in ('totp', 'phone', 'recovery_code'));
-- A recovery-code factor has no shared secret.
alter table auth.mfa_factors alter column secret drop not null;

create table if not exists auth.mfa_recovery_codes (
  id bigserial primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  unique (factor_id, code_hash)
);
create index if not exists mfa_recovery_codes_user on auth.mfa_recovery_codes (user_id);
alter table auth.mfa_recovery_codes enable row level security;
