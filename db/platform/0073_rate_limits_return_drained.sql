-- A sync returns only buckets less than half full (decision 0070): a process that thinks a
-- busier key is full admits at most what the stated tolerance already allows before its next
-- sync tells it, and with many signed-in users each sync reads a few rows, not all of them.
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
     where r.refilled < p_limit / 2;
end
$$;
