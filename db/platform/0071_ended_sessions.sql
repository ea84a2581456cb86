-- Sessions that ended (sign-out, refresh-token reuse, user deleted, password change…), kept
-- while access tokens issued for them may still be unexpired, so every gateway process can
-- refuse those tokens (decision 0071). Each process loads the recent rows at start, hears
-- new ones through NOTIFY and re-reads them on a short poll in case a notification was lost.
create table if not exists platform.ended_sessions (
  session_id uuid primary key,
  ended_at timestamptz not null default clock_timestamp()
);
create index if not exists ended_sessions_ended_at on platform.ended_sessions (ended_at);

create or replace function platform.record_ended_session() returns trigger
language plpgsql
security definer
set search_path = pg_catalog, platform
as $$
begin
  insert into platform.ended_sessions (session_id) values (old.id)
    on conflict (session_id) do update set ended_at = excluded.ended_at;
  perform pg_notify('lyceum_session_ended', old.id::text);
  return null;
end
$$;

drop trigger if exists sessions_record_ended on auth.sessions;
create trigger sessions_record_ended
  after delete on auth.sessions
  for each row execute function platform.record_ended_session();
