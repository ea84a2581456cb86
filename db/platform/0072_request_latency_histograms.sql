-- Latency percentiles for the whole cluster (decision 0073): each gateway process adds its
-- minute's latency histogram to the row, and p50/p99 are read from the sum, instead of being
-- the percentiles of whichever process flushed last.
--
-- Bucket i (1-based) holds latencies up to 0.01 ms × 2^((i − 1) / 8): eight buckets per
-- doubling, so a percentile read at the bucket's geometric middle is within 4.5 % of the
-- latency it stands for. The gateway's `latencyBucket()` uses the same boundaries.
alter table platform.request_metrics add column if not exists latency_histogram integer[];

create or replace function platform.histogram_add(a integer[], b integer[]) returns integer[]
language sql immutable
set search_path = pg_catalog
as $$
  select coalesce(array_agg(coalesce(a[i], 0) + coalesce(b[i], 0) order by i), '{}'::integer[])
    from generate_series(1, greatest(coalesce(array_length(a, 1), 0),
                                     coalesce(array_length(b, 1), 0))) as i
$$;

-- Nearest-rank percentile `p` (0–100) of a histogram, in milliseconds; null when it is empty.
create or replace function platform.histogram_percentile(h integer[], p double precision)
returns real
language sql immutable
set search_path = pg_catalog
as $$
  with buckets as (
    select i,
           sum(coalesce(h[i], 0)) over (order by i) as cumulative,
           sum(coalesce(h[i], 0)) over () as total
      from generate_series(1, coalesce(array_length(h, 1), 0)) as i
  )
  select (case when i = 1 then 0.01 else 0.01 * power(2, (i - 1.5) / 8.0) end)::real
    from buckets
   where total > 0 and cumulative >= greatest(1, ceil(p / 100.0 * total))
   order by i
   limit 1
$$;

-- One process's increments for a minute and service: counts and histogram added, the
-- percentiles recomputed from everything recorded so far.
create or replace function platform.add_request_metrics(
  p_minute timestamptz,
  p_service text,
  p_requests integer,
  p_errors integer,
  p_histogram integer[]
) returns void
language sql
set search_path = pg_catalog, platform
as $$
  insert into platform.request_metrics as m
         (minute, service, requests, errors, latency_histogram, p50_ms, p99_ms)
  values (p_minute, p_service, p_requests, p_errors, p_histogram,
          platform.histogram_percentile(p_histogram, 50),
          platform.histogram_percentile(p_histogram, 99))
  on conflict (minute, service) do update
    set requests = m.requests + excluded.requests,
        errors = m.errors + excluded.errors,
        latency_histogram = platform.histogram_add(m.latency_histogram, excluded.latency_histogram),
        p50_ms = platform.histogram_percentile(
          platform.histogram_add(m.latency_histogram, excluded.latency_histogram), 50),
        p99_ms = platform.histogram_percentile(
          platform.histogram_add(m.latency_histogram, excluded.latency_histogram), 99)
$$;
