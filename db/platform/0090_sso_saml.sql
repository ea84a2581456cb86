-- SAML single sign-on (decision 0032): identity providers, the domains that lead to them, the
-- AuthnRequests this server made (each answered at most once, within their lifetime) and the
-- assertion IDs already accepted (each accepted once). One table holds a provider with its
-- SAML settings where GoTrue uses two: nothing outside the auth service reads them, and the
-- admin API still answers in GoTrue's shape. The organization link is added by db/app 0930,
-- since organizations are the app's.

create table if not exists auth.sso_providers (
  id uuid primary key default gen_random_uuid(),
  disabled boolean not null default false,
  entity_id text not null unique check (length(entity_id) between 1 and 1024),
  metadata_xml text not null,
  metadata_url text,
  -- GoTrue's attribute mapping: {"keys": {"email": {"name": "…"}, …}}.
  attribute_mapping jsonb not null default '{}'::jsonb
    check (jsonb_typeof(attribute_mapping) = 'object'),
  name_id_format text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- A domain leads to one provider only; compared in lower case.
create table if not exists auth.sso_domains (
  id uuid primary key default gen_random_uuid(),
  sso_provider_id uuid not null references auth.sso_providers (id) on delete cascade,
  domain text not null check (domain = lower(domain) and length(domain) between 1 and 253),
  created_at timestamptz not null default now(),
  unique (domain)
);
create index if not exists sso_domains_provider on auth.sso_domains (sso_provider_id);

-- One row per AuthnRequest sent: the RelayState is its id. The ACS deletes the row it answers,
-- so a response is matched to a request this server made, once.
create table if not exists auth.saml_relay_states (
  id uuid primary key default gen_random_uuid(),
  sso_provider_id uuid not null references auth.sso_providers (id) on delete cascade,
  request_id text not null unique,
  redirect_to text not null,
  code_challenge text,
  code_challenge_method text,
  created_at timestamptz not null default now()
);
create index if not exists saml_relay_states_created on auth.saml_relay_states (created_at);

-- Assertion IDs accepted, kept until the assertion could no longer be valid anyway.
create table if not exists auth.saml_assertions (
  sso_provider_id uuid not null references auth.sso_providers (id) on delete cascade,
  assertion_id text not null,
  expires_at timestamptz not null,
  primary key (sso_provider_id, assertion_id)
);
create index if not exists saml_assertions_expires on auth.saml_assertions (expires_at);

alter table auth.sso_providers enable row level security;
alter table auth.sso_domains enable row level security;
alter table auth.saml_relay_states enable row level security;
alter table auth.saml_assertions enable row level security;
