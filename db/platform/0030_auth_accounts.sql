-- The auth service's tables, in the shape of Supabase Auth's `auth` schema where a client or
-- a policy could notice, simpler where nothing outside the service reads them.

alter table auth.users
  add column if not exists encrypted_password text,
  add column if not exists email_confirmed_at timestamptz,
  add column if not exists confirmation_sent_at timestamptz,
  add column if not exists recovery_sent_at timestamptz,
  add column if not exists email_change text,
  add column if not exists email_change_sent_at timestamptz,
  add column if not exists reauthentication_sent_at timestamptz,
  add column if not exists last_sign_in_at timestamptz,
  add column if not exists phone text,
  add column if not exists banned_until timestamptz,
  add column if not exists is_anonymous boolean not null default false,
  add column if not exists is_sso_user boolean not null default false;

-- Email addresses compare case-insensitively; the unique constraint from 0002 stays as well.
create unique index if not exists users_email_lower on auth.users (lower(email));

-- One row per way of signing in: the email/password identity and each linked OIDC account.
create table if not exists auth.identities (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  provider text not null,
  identity_data jsonb not null default '{}'::jsonb,
  email text,
  last_sign_in_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, provider_id)
);
create index if not exists identities_user on auth.identities (user_id);

-- One row per sign-in. `aal` rises to aal2 when a TOTP factor is verified in this session.
create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  aal text not null default 'aal1' check (aal in ('aal1', 'aal2')),
  amr jsonb not null default '[]'::jsonb,
  factor_id uuid,
  user_agent text,
  ip text,
  created_at timestamptz not null default now(),
  refreshed_at timestamptz not null default now(),
  not_after timestamptz not null
);
create index if not exists sessions_user on auth.sessions (user_id);

-- Refresh tokens are stored as SHA-256 hashes; `revoked_at` marks a token that was rotated.
create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token_hash text not null unique,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session on auth.refresh_tokens (session_id);

create table if not exists auth.mfa_factors (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null check (factor_type in ('totp', 'phone')),
  status text not null default 'unverified' check (status in ('unverified', 'verified')),
  secret text not null,
  -- The last accepted TOTP time step, so a code cannot be replayed.
  last_used_step bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists mfa_factors_user on auth.mfa_factors (user_id);
create unique index if not exists mfa_factors_name on auth.mfa_factors (user_id, friendly_name)
  where friendly_name is not null and friendly_name <> '';

create table if not exists auth.mfa_challenges (
  id uuid primary key default gen_random_uuid(),
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  ip text,
  created_at timestamptz not null default now(),
  verified_at timestamptz
);

-- Mailed codes: the link carries token_hash = sha256(email || code), the mail shows the code.
create table if not exists auth.one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null check (
    token_type in ('confirmation', 'recovery', 'email_change', 'reauthentication')
  ),
  token_hash text not null,
  relates_to text not null,
  created_at timestamptz not null default now(),
  unique (user_id, token_type)
);
create index if not exists one_time_tokens_hash on auth.one_time_tokens (token_hash);

-- PKCE and OAuth state: a code for `grant_type=pkce`, or an OIDC round trip in progress.
create table if not exists auth.flow_state (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete cascade,
  auth_code text unique,
  code_challenge text,
  code_challenge_method text,
  authentication_method text not null,
  provider text,
  -- OIDC round trip: where to return, the IdP-side PKCE verifier and nonce, the user to link.
  redirect_to text,
  idp_code_verifier text,
  idp_nonce text,
  link_user_id uuid references auth.users (id) on delete cascade,
  auth_code_issued_at timestamptz,
  created_at timestamptz not null default now()
);

-- Failed sign-ins, for the security-incident work.
create table if not exists auth.failed_sign_ins (
  id bigserial primary key,
  email text,
  user_id uuid,
  ip text,
  user_agent text,
  reason text not null,
  created_at timestamptz not null default now()
);
create index if not exists failed_sign_ins_created on auth.failed_sign_ins (created_at);

-- The dev mailbox: mail that would have gone out over SMTP, when no SMTP server is configured.
create table if not exists auth.dev_mailbox (
  id bigserial primary key,
  to_address text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  created_at timestamptz not null default now()
);

alter table auth.identities enable row level security;
alter table auth.sessions enable row level security;
alter table auth.refresh_tokens enable row level security;
alter table auth.mfa_factors enable row level security;
alter table auth.mfa_challenges enable row level security;
alter table auth.one_time_tokens enable row level security;
alter table auth.flow_state enable row level security;
alter table auth.failed_sign_ins enable row level security;
alter table auth.dev_mailbox enable row level security;
grant select on auth.identities, auth.sessions, auth.mfa_factors, auth.failed_sign_ins
  to service_role;
