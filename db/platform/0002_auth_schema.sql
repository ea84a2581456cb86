create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

-- The accounts table. The auth service adds its columns in later migrations.
create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  email text unique,
  role text not null default 'authenticated',
  aud text not null default 'authenticated',
  raw_app_meta_data jsonb not null default '{}'::jsonb,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table auth.users enable row level security;
grant select, insert, update, delete on auth.users to service_role;

-- Claims helpers with Supabase's names. An unset setting reads as '' once set_config has run
-- in the session, hence the nullif.
create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb, '{}'::jsonb)
$$;

create or replace function auth.uid() returns uuid
language sql stable
as $$
  select nullif(
    coalesce(nullif(current_setting('request.jwt.claim.sub', true), ''), auth.jwt() ->> 'sub'),
    ''
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select coalesce(nullif(current_setting('request.jwt.claim.role', true), ''), auth.jwt() ->> 'role')
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role() to anon, authenticated, service_role;
