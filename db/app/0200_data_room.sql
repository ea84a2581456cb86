-- The investor data room: document registry with version history, issued access grants,
-- PIN attempts (rate limit) and document access events. The tables live in a schema the API
-- never exposes; clients reach them only through the functions below, which check the grant.
create schema if not exists data_room;
revoke all on schema data_room from public;

create table if not exists data_room.settings (
  key text primary key,
  value text not null,
  updated_at timestamptz not null default now()
);

create table if not exists data_room.documents (
  id uuid primary key default gen_random_uuid(),
  tab text not null check (tab in ('legal', 'financial', 'business', 'other')),
  section_number text not null,
  section_title text not null,
  position int not null,
  name text not null,
  -- Relative, folder-based, lower-case: the object name in the data-room bucket.
  path text not null unique check (path ~ '^[a-z0-9_]+/[a-z0-9][a-z0-9._-]*\.md$' and path !~ '\.\.'),
  version text not null default '1.0' check (version ~ '^[0-9]{1,3}(\.[0-9]{1,3}){1,2}$'),
  document_date date not null,
  status text not null default 'active' check (status in ('active', 'withdrawn')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table data_room.documents enable row level security;

create table if not exists data_room.document_versions (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null references data_room.documents (id) on delete cascade,
  version text not null,
  document_date date not null,
  size_bytes int not null,
  sha256 text not null,
  note text,
  -- 'seed', 'service_role' or a user id.
  uploaded_by text not null,
  created_at timestamptz not null default now(),
  unique (document_id, version)
);
alter table data_room.document_versions enable row level security;

-- Every grant the PIN check issued, so access events can be tied to it and a grant can be
-- revoked before it expires ('Leave data room').
create table if not exists data_room.grants (
  id uuid primary key,
  client_address text not null,
  issued_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
alter table data_room.grants enable row level security;

create table if not exists data_room.pin_attempts (
  id bigint generated always as identity primary key,
  client_address text not null,
  succeeded boolean not null default false,
  attempted_at timestamptz not null default now()
);
create index if not exists pin_attempts_address_time
  on data_room.pin_attempts (client_address, attempted_at);
alter table data_room.pin_attempts enable row level security;

create table if not exists data_room.access_events (
  id bigint generated always as identity primary key,
  document_id uuid references data_room.documents (id) on delete set null,
  document_path text not null,
  action text not null check (action in ('open', 'download')),
  grant_id uuid not null,
  occurred_at timestamptz not null default now()
);
create index if not exists access_events_time on data_room.access_events (occurred_at desc);
alter table data_room.access_events enable row level security;

grant usage on schema data_room to service_role;
grant select, insert, update, delete on all tables in schema data_room to service_role;

-- True when the request carries a live data-room grant (signed by this deployment, not
-- expired, not revoked) or runs as the service role.
create or replace function data_room.has_grant() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select auth.role() = 'service_role'
    or (
      coalesce(auth.jwt() ->> 'data_room', '') = 'true'
      and exists (
        select 1 from data_room.grants g
        where g.id::text = auth.jwt() ->> 'jti'
          and g.revoked_at is null
          and g.expires_at > now()
      )
    )
$$;
revoke all on function data_room.has_grant() from public;
grant usage on schema data_room to anon, authenticated;
grant select on data_room.documents, data_room.document_versions to anon, authenticated;
grant execute on function data_room.has_grant() to anon, authenticated, service_role;

create policy documents_with_grant on data_room.documents
  for select to anon, authenticated, service_role using (data_room.has_grant());
create policy versions_with_grant on data_room.document_versions
  for select to anon, authenticated, service_role using (data_room.has_grant());
