-- Per-key API rate limits shared by every gateway process on one database (decision 0070).
-- Each process keeps local token buckets and, every sync interval, adds what it admitted
-- since the last sync here and reads back what is left of every bucket not full.
create table if not exists platform.api_rate_limits (
  key text primary key,
  -- May go below zero: requests admitted by several processes between two syncs are a debt
  -- that refills before the key is allowed more.
  tokens double precision not null,
  updated_at timestamptz not null
);

create or replace function platform.sync_api_rate_limits(
  p_keys text[],
  p_used integer[],
  p_limit double precision
) returns table (key text, tokens double precision)
language plpgsql
set search_path = pg_catalog, platform
as $$
#variable_conflict use_column
begin
  -- Keys in one order in every process, so two syncs lock shared rows without deadlocking.
  insert into platform.api_rate_limits as b (key, tokens, updated_at)
  select u.key, p_limit - u.used, clock_timestamp()
    from unnest(p_keys, p_used) as u(key, used)
   order by u.key
  on conflict on constraint api_rate_limits_pkey do update
    set tokens = least(
          p_limit,
          b.tokens + greatest(0, extract(epoch from clock_timestamp() - b.updated_at)) * p_limit
        ) - (p_limit - excluded.tokens),
        updated_at = clock_timestamp();

  return query
    select r.key, r.refilled
      from (
        select b.key,
               least(p_limit,
                     b.tokens + greatest(0, extract(epoch from clock_timestamp() - b.updated_at))
                       * p_limit) as refilled
          from platform.api_rate_limits b
      ) r
     where r.refilled < p_limit;
end
$$;

-- Full buckets say nothing a missing row does not; dropping them keeps each sync's scan small.
create or replace function platform.prune_api_rate_limits(p_limit double precision)
returns void
language sql
set search_path = pg_catalog, platform
as $$
  delete from platform.api_rate_limits b
   where b.tokens + greatest(0, extract(epoch from clock_timestamp() - b.updated_at)) * p_limit
         >= p_limit
$$;
