-- The spec's metrics shape has numbers for the request estimates: they were null until the
-- gateway's first counter flush, which a client written against the spec could not read. They
-- are now 0 until then, with `window_start`, the start of the 24-hour window they count over.
-- Everything else is as in 0302.

create or replace function public.get_public_platform_metrics() returns json
language sql stable security definer set search_path = pg_catalog, public, platform
as $$
  with counters as (
    select name, sum(n)::bigint as n from platform.row_counters group by name
  ),
  win as (
    select now() - interval '24 hours' as since
  ),
  service_totals as (
    select service, sum(requests)::bigint as requests
      from platform.request_metrics, win
     where minute >= win.since
     group by service
  ),
  counting as (
    -- The per-minute series is reported only once the gateway has recorded something.
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
      'db_requests', coalesce((select requests from service_totals where service = 'rest'), 0),
      'auth_requests', coalesce((select requests from service_totals where service = 'auth'), 0),
      'storage_requests', coalesce((select requests from service_totals where service = 'storage'), 0),
      'realtime_events', coalesce((select requests from service_totals where service = 'realtime'), 0),
      'functions_requests', coalesce((select requests from service_totals where service = 'functions'), 0),
      'window_hours', 24,
      'window_start', (select since from win)
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
