-- Usage quotas (issue 13, decision 0202): each user has a monthly allowance per metered
-- feature, set from their tier when their profile is created; `track_usage` counts usage
-- atomically and refuses what would pass the allowance, saying when it resets;
-- `reset_monthly_quotas` starts the new month (a scheduled job). The subscriptions issue
-- adds tiers and payment: it adds rows to quota_tier_allowances and calls
-- initialize_user_quotas(tier, user) when a subscription changes.

create table public.quota_tier_allowances (
  tier text not null check (tier ~ '^[a-z][a-z0-9_]{0,39}$'),
  feature_type text not null check (feature_type ~ '^[a-z][a-z0-9_]{0,39}$'),
  monthly_limit integer not null check (monthly_limit >= 0),
  primary key (tier, feature_type)
);
-- The free tier every account starts on.
insert into public.quota_tier_allowances (tier, feature_type, monthly_limit)
values ('free', 'coach_message', 500);

create table public.user_quotas (
  user_id uuid not null references auth.users (id) on delete cascade,
  feature_type text not null,
  tier text not null,
  monthly_limit integer not null check (monthly_limit >= 0),
  used integer not null default 0 check (used >= 0),
  period_start timestamptz not null,
  resets_at timestamptz not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, feature_type),
  check (resets_at > period_start)
);
-- reset_monthly_quotas finds the rows whose month is over.
create index user_quotas_resets_idx on public.user_quotas (resets_at);

create table public.usage_events (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  feature_type text not null,
  amount integer not null check (amount > 0),
  metadata jsonb not null default '{}'::jsonb
    check (jsonb_typeof(metadata) = 'object' and octet_length(metadata::text) <= 4096),
  created_at timestamptz not null default now()
);
create index usage_events_user_idx on public.usage_events (user_id, created_at desc);

alter table public.quota_tier_allowances enable row level security;
alter table public.user_quotas enable row level security;
alter table public.usage_events enable row level security;

-- Allowances are public facts of the product; counters and events are the user's own.
create policy quota_tier_allowances_read on public.quota_tier_allowances
  for select to anon, authenticated using (true);
create policy user_quotas_own on public.user_quotas
  for select to authenticated using (user_id = (select auth.uid()));
create policy usage_events_own on public.usage_events
  for select to authenticated using (user_id = (select auth.uid()));

grant select on public.quota_tier_allowances to anon, authenticated;
grant select on public.user_quotas, public.usage_events to authenticated;
grant all on public.quota_tier_allowances, public.user_quotas, public.usage_events to service_role;

/** The current UTC calendar month: its start and the next one's. */
create or replace function learning.quota_month(at timestamptz, out period_start timestamptz, out resets_at timestamptz)
language sql immutable
set search_path = ''
as $$
  select date_trunc('month', at at time zone 'UTC') at time zone 'UTC',
         (date_trunc('month', at at time zone 'UTC') + interval '1 month') at time zone 'UTC'
$$;

-- Sets a user's allowances to a tier's (keeping what they used this month). Only the service
-- role and the sign-up trigger call it: a user must not choose their own tier.
create or replace function public.initialize_user_quotas(tier text, target_user uuid default null)
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  who uuid := coalesce(target_user, auth.uid());
  changed integer;
begin
  if who is null then
    raise exception 'initialize_user_quotas needs a user' using errcode = '22023';
  end if;
  if not exists (select 1 from public.quota_tier_allowances a where a.tier = initialize_user_quotas.tier) then
    raise exception 'unknown quota tier: %', initialize_user_quotas.tier using errcode = '22023';
  end if;
  insert into public.user_quotas (user_id, feature_type, tier, monthly_limit, period_start, resets_at)
  select who, a.feature_type, a.tier, a.monthly_limit, m.period_start, m.resets_at
    from public.quota_tier_allowances a, learning.quota_month(now()) m
   where a.tier = initialize_user_quotas.tier
  on conflict (user_id, feature_type) do update
     set tier = excluded.tier, monthly_limit = excluded.monthly_limit, updated_at = now();
  get diagnostics changed = row_count;
  return changed;
end
$$;
revoke all on function public.initialize_user_quotas(text, uuid) from public, anon, authenticated;
grant execute on function public.initialize_user_quotas(text, uuid) to service_role;

create or replace function learning.initialize_quotas_on_profile() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform public.initialize_user_quotas('free', new.id);
  return new;
end
$$;
create trigger profiles_initialize_quotas after insert on public.profiles
  for each row execute function learning.initialize_quotas_on_profile();

-- Accounts that existed before quotas start on the free tier too.
select public.initialize_user_quotas('free', p.id) from public.profiles p;

/**
 * Counts `usage_amount` of a feature for a user, atomically, if it fits in this month's
 * allowance. Answers { allowed, used, limit, remaining, resets_at } and, when refused, a
 * message with the reset date. A signed-in user may count only their own usage.
 */
create or replace function public.track_usage(
  user_id uuid,
  feature_type text,
  usage_amount integer,
  metadata jsonb default '{}'::jsonb
) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  quota public.user_quotas;
  month record;
begin
  if auth.role() is distinct from 'service_role' and track_usage.user_id is distinct from auth.uid() then
    raise exception 'usage can be counted only for yourself' using errcode = '42501';
  end if;
  if usage_amount is null or usage_amount < 1 then
    raise exception 'usage_amount must be a positive whole number' using errcode = '22023';
  end if;
  if metadata is null or jsonb_typeof(metadata) <> 'object' then
    raise exception 'metadata must be a JSON object' using errcode = '22023';
  end if;
  select * into month from learning.quota_month(now());

  -- A month the reset job has not reached yet still starts afresh; a user without quota rows
  -- (made before quotas existed, or a feature added since) gets their tier's, else free.
  update public.user_quotas q
     set used = 0, period_start = month.period_start, resets_at = month.resets_at, updated_at = now()
   where q.user_id = track_usage.user_id and q.feature_type = track_usage.feature_type
     and q.resets_at <= now();
  if not exists (select 1 from public.user_quotas q
                  where q.user_id = track_usage.user_id and q.feature_type = track_usage.feature_type) then
    perform public.initialize_user_quotas(
      coalesce((select q.tier from public.user_quotas q where q.user_id = track_usage.user_id limit 1), 'free'),
      track_usage.user_id);
  end if;

  update public.user_quotas q
     set used = q.used + usage_amount, updated_at = now()
   where q.user_id = track_usage.user_id and q.feature_type = track_usage.feature_type
     and q.used + usage_amount <= q.monthly_limit
  returning * into quota;

  if found then
    insert into public.usage_events (user_id, feature_type, amount, metadata)
    values (track_usage.user_id, track_usage.feature_type, usage_amount, metadata);
    return jsonb_build_object(
      'allowed', true, 'used', quota.used, 'limit', quota.monthly_limit,
      'remaining', quota.monthly_limit - quota.used, 'resets_at', quota.resets_at);
  end if;

  select * into quota from public.user_quotas q
   where q.user_id = track_usage.user_id and q.feature_type = track_usage.feature_type;
  if not found then
    raise exception 'no allowance for %', track_usage.feature_type using errcode = '22023';
  end if;
  return jsonb_build_object(
    'allowed', false, 'used', quota.used, 'limit', quota.monthly_limit,
    'remaining', greatest(quota.monthly_limit - quota.used, 0), 'resets_at', quota.resets_at,
    'message', format('You have used all %s %s of this month. Your allowance resets on %s (UTC).',
      quota.monthly_limit, replace(track_usage.feature_type, '_', ' ') || 's',
      to_char(quota.resets_at at time zone 'UTC', 'FMDD FMMonth YYYY')));
end
$$;
revoke all on function public.track_usage(uuid, text, integer, jsonb) from public, anon;
grant execute on function public.track_usage(uuid, text, integer, jsonb) to authenticated, service_role;

/** Starts the new month for every counter whose month is over; answers how many. */
create or replace function public.reset_monthly_quotas() returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  reset_count integer;
begin
  update public.user_quotas q
     set used = 0, period_start = m.period_start, resets_at = m.resets_at, updated_at = now()
    from learning.quota_month(now()) m
   where q.resets_at <= now();
  get diagnostics reset_count = row_count;
  return reset_count;
end
$$;
revoke all on function public.reset_monthly_quotas() from public, anon, authenticated;
grant execute on function public.reset_monthly_quotas() to service_role;
