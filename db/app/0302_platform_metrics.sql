-- User activity recording and the public platform metrics call.

-- The gateway's per-service request counters (flushed by the gateway every 10 s). The platform
-- migration that owns this table normally creates it first; the same definition here lets the
-- metrics call compile on a database where it has not been created yet.
create table if not exists platform.request_metrics (
  minute timestamptz not null,
  service text not null,
  requests int not null default 0,
  errors int not null default 0,
  p50_ms real,
  p99_ms real,
  primary key (minute, service)
);

-- Moves a user's last activity to now. Writes at most once a minute per user: activity is a
-- per-day and per-week figure, and skipping repeated writes keeps busy users from producing a
-- write (and a bucket update) on every request.
create or replace function platform.touch_user_activity(p_user uuid) returns void
language sql security definer set search_path = pg_catalog, public, platform
as $$
  insert into public.user_activity (user_id, last_active_at)
  select p_user, now()
  where p_user is not null and exists (select 1 from auth.users u where u.id = p_user)
  on conflict (user_id) do update set last_active_at = excluded.last_active_at
  where user_activity.last_active_at < excluded.last_active_at - interval '1 minute'
$$;

-- A signed-in user's writes to the learning tables count as activity.
create or replace function platform.record_writer_activity() returns trigger
language plpgsql security definer set search_path = pg_catalog, platform
as $$
begin
  perform platform.touch_user_activity(auth.uid());
  return null;
end
$$;

create trigger record_activity after insert or update or delete on public.enrollments
  for each statement execute function platform.record_writer_activity();
create trigger record_activity after insert or update or delete on public.notes
  for each statement execute function platform.record_writer_activity();
create trigger record_activity after insert or update or delete on public.flashcards
  for each statement execute function platform.record_writer_activity();
create trigger record_activity after insert or update or delete on public.courses
  for each statement execute function platform.record_writer_activity();

-- Called by the app when a signed-in user opens it (reading alone writes nothing).
create or replace function public.record_activity() returns void
language plpgsql security definer set search_path = pg_catalog, platform
as $$
begin
  if auth.uid() is null then
    raise exception 'record_activity needs a signed-in user' using errcode = '42501';
  end if;
  perform platform.touch_user_activity(auth.uid());
end
$$;
revoke execute on function public.record_activity() from public, anon;
grant execute on function public.record_activity() to authenticated, service_role;

-- Users whose last activity is within p_window of now: whole hours from the buckets, the one
-- partial hour at the window's start from an index range of user_activity.
create or replace function platform.active_users_since(p_window interval) returns bigint
language sql stable security definer set search_path = pg_catalog, public, platform
as $$
  with edge as (
    select now() - p_window as since,
           platform.activity_hour(now() - p_window) as first_hour
  )
  select coalesce((select sum(h.n) from platform.activity_hours h, edge
                    where h.hour > edge.first_hour), 0)::bigint
       + (select count(*) from public.user_activity a, edge
           where a.last_active_at >= edge.since
             and a.last_active_at < edge.first_hour + interval '1 hour')
$$;

create or replace function public.get_public_platform_metrics() returns json
language sql stable security definer set search_path = pg_catalog, public, platform
as $$
  with counters as (
    select name, sum(n)::bigint as n from platform.row_counters group by name
  ),
  service_totals as (
    select service, sum(requests)::bigint as requests
      from platform.request_metrics
     where minute >= now() - interval '24 hours'
     group by service
  ),
  counting as (
    -- Request counts are reported only when the gateway has recorded something in the window;
    -- otherwise the estimates are unknown (null), not zero.
    select exists (select 1 from service_totals) as active
  ),
  latest_rest as (
    select p50_ms, p99_ms
      from platform.request_metrics
     where service = 'rest' and minute >= date_trunc('minute', now()) - interval '1 minute'
     order by minute desc
     limit 1
  ),
  minutes as (
    select generate_series(date_trunc('minute', now()) - interval '59 minutes',
                           date_trunc('minute', now()), interval '1 minute') as minute
  ),
  per_minute as (
    select m.minute,
           coalesce(sum(r.requests), 0)::bigint as requests,
           coalesce(sum(r.errors), 0)::bigint as errors
      from minutes m
      left join platform.request_metrics r on r.minute = m.minute
     group by m.minute
  )
  select json_build_object(
    'totals', json_build_object(
      'users', coalesce((select n from counters where name = 'users'), 0),
      'courses', coalesce((select n from counters where name = 'courses'), 0),
      'enrollments', coalesce((select n from counters where name = 'enrollments'), 0),
      'notes', coalesce((select n from counters where name = 'notes'), 0),
      'flashcards', coalesce((select n from counters where name = 'flashcards'), 0),
      'active_users_7d', platform.active_users_since(interval '7 days'),
      'active_today', platform.active_users_since(interval '24 hours')
    ),
    'estimates', json_build_object(
      'db_requests', (select case when c.active then coalesce((select requests from service_totals where service = 'rest'), 0) end from counting c),
      'auth_requests', (select case when c.active then coalesce((select requests from service_totals where service = 'auth'), 0) end from counting c),
      'storage_requests', (select case when c.active then coalesce((select requests from service_totals where service = 'storage'), 0) end from counting c),
      'realtime_events', (select case when c.active then coalesce((select requests from service_totals where service = 'realtime'), 0) end from counting c),
      'functions_requests', (select case when c.active then coalesce((select requests from service_totals where service = 'functions'), 0) end from counting c),
      'window_hours', 24
    ),
    'completion', json_build_object(
      'completed', coalesce((select n from counters where name = 'enrollments_completed'), 0),
      'in_progress', coalesce((select n from counters where name = 'enrollments_in_progress'), 0),
      'not_started', coalesce((select n from counters where name = 'enrollments'), 0)
                   - coalesce((select n from counters where name = 'enrollments_completed'), 0)
                   - coalesce((select n from counters where name = 'enrollments_in_progress'), 0)
    ),
    'response_time_ms', (select round(p50_ms::numeric, 1) from latest_rest),
    'response_time_p99_ms', (select round(p99_ms::numeric, 1) from latest_rest),
    -- This call runs on a connection itself, so at least one exists even where
    -- pg_stat_activity shows none (embedded PGlite runs as a single session).
    'db_connections', (select greatest(count(*), 1) from pg_stat_activity
                        where datname = current_database() and backend_type = 'client backend'),
    'requests_last_hour', (select case when c.active then
                              (select json_agg(json_build_object(
                                'minute', minute, 'requests', requests, 'errors', errors)
                                order by minute) from per_minute) end
                             from counting c),
    'generated_at', now()
  )
$$;

revoke execute on function public.get_public_platform_metrics() from public;
grant execute on function public.get_public_platform_metrics() to anon, authenticated, service_role;

-- Internal helpers are reachable only through the definer functions above.
revoke execute on function platform.touch_user_activity(uuid) from public;
revoke execute on function platform.active_users_since(interval) from public;
revoke execute on function platform.bump_counter(text, bigint) from public;
