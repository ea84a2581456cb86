-- Failed passwords per email address, whether or not an account has that address, so a locked
-- address says nothing about who has an account. In the database so that every gateway
-- process sees the same count.
create table if not exists auth.password_failures (
  email text primary key,
  failures int not null default 0,
  window_started_at timestamptz not null default now(),
  locked_until timestamptz,
  updated_at timestamptz not null default now()
);
create index if not exists password_failures_updated on auth.password_failures (updated_at);
alter table auth.password_failures enable row level security;
