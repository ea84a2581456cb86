-- Tiers, coupons and subscriptions (issue 17, decision 0600). The tiers' allowances stay in
-- quota_tier_allowances (0500, decision 0202); this adds what a tier is sold as, the coupons
-- that admit people during the beta and grant tiers, and who is subscribed to what. A
-- subscription change sets the quotas of everyone it covers through initialize_user_quotas.

create schema if not exists billing;
grant usage on schema billing to service_role;

-- What the pricing section shows: one row per tier, its allowances read from
-- quota_tier_allowances (never restated here). `monthly_price_cents` null: not sold through
-- checkout (the free tier). The ids match organizations.tier.
create table public.tiers (
  id text primary key check (id ~ '^[a-z][a-z0-9_]{0,39}$'),
  name text not null check (length(trim(name)) between 1 and 40),
  summary text not null check (length(summary) <= 300),
  -- Who buys it: one person, or an organization for all its members.
  audience text not null check (audience in ('individual', 'organization')),
  monthly_price_cents integer check (monthly_price_cents >= 0),
  currency text not null default 'eur' check (currency ~ '^[a-z]{3}$'),
  -- Higher ranks win when a person is covered by several subscriptions.
  rank integer not null unique,
  -- A Stripe Price to sell instead of the price above (e.g. one with taxes set up in Stripe).
  stripe_price_id text check (stripe_price_id ~ '^price_[A-Za-z0-9_]{1,200}$')
);
insert into public.tiers (id, name, summary, audience, monthly_price_cents, rank) values
  ('free', 'Free', 'For a learner on their own: the course library, progress and the study coach.',
   'individual', null, 0),
  ('pro', 'Pro', 'For a learner who studies with the coach every day.', 'individual', 900, 1),
  ('enterprise', 'Enterprise', 'For a university: every member of the organization, with a dedicated account manager.',
   'organization', 49900, 2);
insert into public.quota_tier_allowances (tier, feature_type, monthly_limit) values
  ('pro', 'coach_message', 5000),
  ('enterprise', 'coach_message', 20000)
on conflict (tier, feature_type) do nothing;

alter table public.tiers enable row level security;
create policy tiers_read on public.tiers for select to anon, authenticated using (true);
revoke all on public.tiers from anon, authenticated;
grant select on public.tiers to anon, authenticated;
grant all on public.tiers to service_role;

-- The pricing section's one read: each tier with its allowances as { feature: limit }.
create view public.pricing_tiers as
  select t.id, t.name, t.summary, t.audience, t.monthly_price_cents, t.currency, t.rank,
         coalesce(jsonb_object_agg(a.feature_type, a.monthly_limit)
                    filter (where a.feature_type is not null), '{}'::jsonb) as allowances
    from public.tiers t
    left join public.quota_tier_allowances a on a.tier = t.id
   group by t.id;
grant select on public.pricing_tiers to anon, authenticated, service_role;

-- Coupons: a code (stored upper-case, so redeeming is case-insensitive) that admits a person
-- during the beta and grants a tier, optionally only for one organization (whose learners
-- sign up with it). percent_off 100 activates the tier without payment; less maps to a
-- Stripe promotion code at checkout.
create table public.coupons (
  id uuid primary key default gen_random_uuid(),
  code text not null unique check (code ~ '^[A-Z0-9][A-Z0-9-]{3,39}$'),
  tier text not null references public.tiers (id),
  organization_id uuid references public.organizations (id) on delete cascade,
  percent_off integer not null default 100 check (percent_off between 1 and 100),
  stripe_promotion_code text check (stripe_promotion_code ~ '^promo_[A-Za-z0-9_]{1,200}$'),
  max_redemptions integer not null check (max_redemptions between 1 and 1000000),
  redeemed_count integer not null default 0,
  expires_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  revoked_by uuid references auth.users (id) on delete set null,
  check (redeemed_count between 0 and max_redemptions),
  check (percent_off = 100 or stripe_promotion_code is not null)
);
create index coupons_created_idx on public.coupons (created_at desc);

create table public.coupon_redemptions (
  id bigint generated always as identity primary key,
  coupon_id uuid not null references public.coupons (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  purpose text not null check (purpose in ('sign_up', 'checkout')),
  redeemed_at timestamptz not null default now(),
  unique (coupon_id, user_id)
);
create index coupon_redemptions_user_idx on public.coupon_redemptions (user_id);

-- Who pays for what: one row per subscribed person or organization. `status` is Stripe's
-- subscription status; a coupon's free activation is `active` with no Stripe ids.
create table public.subscribers (
  id uuid primary key default gen_random_uuid(),
  user_id uuid unique references auth.users (id) on delete cascade,
  organization_id uuid unique references public.organizations (id) on delete cascade,
  tier text not null references public.tiers (id),
  status text not null check (status in ('active', 'trialing', 'past_due', 'unpaid', 'canceled',
    'incomplete', 'incomplete_expired', 'paused')),
  source text not null check (source in ('stripe', 'coupon')),
  stripe_customer_id text,
  stripe_subscription_id text unique,
  coupon_id uuid references public.coupons (id) on delete set null,
  current_period_end timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((user_id is null) <> (organization_id is null))
);
create index subscribers_customer_idx on public.subscribers (stripe_customer_id);

-- Stripe events already applied, so a redelivered event changes nothing (the webhook).
create table billing.stripe_events (
  id text primary key,
  type text not null,
  received_at timestamptz not null default now()
);
grant all on billing.stripe_events to service_role;

alter table public.coupons enable row level security;
alter table public.coupon_redemptions enable row level security;
alter table public.subscribers enable row level security;

-- Platform admins see every coupon and redemption; the person who redeemed sees their own.
-- Coupons are written only through create_coupon and revoke_coupon.
create policy coupons_platform_admin on public.coupons for select to authenticated
  using ((select public.has_role((select auth.uid()), 'admin')));
create policy coupon_redemptions_read on public.coupon_redemptions for select to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role((select auth.uid()), 'admin')));
-- A subscription is read by the person it covers, the organization's admins (its owner and
-- organization-wide org admins) and platform admins; only the server writes it.
create policy subscribers_read on public.subscribers for select to authenticated
  using (
    user_id = (select auth.uid())
    or (organization_id is not null and learning.is_org_admin((select auth.uid()), organization_id))
    or (select public.has_role((select auth.uid()), 'admin'))
  );
revoke all on public.coupons, public.coupon_redemptions, public.subscribers from anon, authenticated;
grant select on public.coupons, public.coupon_redemptions, public.subscribers to authenticated;
grant all on public.coupons, public.coupon_redemptions, public.subscribers to service_role;

-- ----- who is covered by what -----------------------------------------------------------------

create or replace function billing.in_force(s public.subscribers) returns boolean
language sql stable
set search_path = ''
as $$
  select s.status in ('active', 'trialing')
     and (s.current_period_end is null or s.current_period_end > now())
$$;

-- The subscription that gives a person their tier: their own, or an organization's they are an
-- active member of, whichever tier ranks higher; null for none (the free tier).
create or replace function billing.covering_subscription(p_user uuid) returns public.subscribers
language sql stable security definer
set search_path = ''
as $$
  select s.*
    from public.subscribers s
    join public.tiers t on t.id = s.tier
   where billing.in_force(s)
     and (s.user_id = p_user
          or s.organization_id in (select m.organization_id from public.memberships m
                                    where m.user_id = p_user and m.active))
   order by t.rank desc, s.user_id is not null desc
   limit 1
$$;

-- Sets a person's allowances to the tier that covers them now.
create or replace function billing.apply_tier(p_user uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  perform public.initialize_user_quotas(
    coalesce((billing.covering_subscription(p_user)).tier, 'free'), p_user);
end
$$;

-- A subscription changed: everyone it covers gets the tier that covers them now, and an
-- organization's tier (shown on its settings page) follows its subscription.
create or replace function billing.subscription_changed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  changed public.subscribers := case when tg_op = 'DELETE' then old else new end;
begin
  if changed.user_id is not null then
    perform billing.apply_tier(changed.user_id);
  else
    update public.organizations o
       set tier = case when tg_op <> 'DELETE' and billing.in_force(changed) then changed.tier else 'free' end
     where o.id = changed.organization_id;
    perform billing.apply_tier(m.user_id)
       from (select distinct user_id from public.memberships
              where organization_id = changed.organization_id) m;
  end if;
  return null;
end
$$;
create trigger subscribers_apply_tier after insert or update or delete on public.subscribers
  for each row execute function billing.subscription_changed();

-- Joining (or leaving) a subscribed organization changes what covers a person.
create or replace function billing.membership_changed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.subscribers s where s.organization_id = new.organization_id) then
    perform billing.apply_tier(new.user_id);
  end if;
  return null;
end
$$;
create trigger memberships_apply_tier after insert or update of active on public.memberships
  for each row execute function billing.membership_changed();

-- ----- coupons --------------------------------------------------------------------------------

-- Why a coupon cannot be redeemed now, or null when it can.
create or replace function billing.coupon_problem(c public.coupons) returns text
language sql stable
set search_path = ''
as $$
  select case
    when c.id is null then 'unknown'
    when c.revoked_at is not null then 'revoked'
    when c.expires_at is not null and c.expires_at <= now() then 'expired'
    when c.redeemed_count >= c.max_redemptions then 'used_up'
  end
$$;

create or replace function billing.coupon_json(c public.coupons, problem text) returns jsonb
language sql stable
set search_path = ''
as $$
  select jsonb_build_object(
    'ok', problem is null, 'reason', problem, 'coupon_id', c.id, 'code', c.code, 'tier', c.tier,
    'organization_id', c.organization_id, 'percent_off', c.percent_off,
    'stripe_promotion_code', c.stripe_promotion_code, 'max_redemptions', c.max_redemptions,
    'expires_at', c.expires_at)
$$;

/** A coupon's state without redeeming it: { ok, reason, …the coupon's terms }. */
create or replace function billing.check_coupon(p_code text) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  c public.coupons;
begin
  select * into c from public.coupons where code = upper(trim(p_code));
  return billing.coupon_json(c, billing.coupon_problem(c));
end
$$;

/**
 * Redeems a coupon for a person, atomically: one conditional UPDATE takes a redemption only
 * while one is left, so of two people racing for the last one exactly one gets it (the other
 * waits on the row lock, re-reads the count and is refused). A person redeeming a coupon they
 * already redeemed takes nothing more. On success the coupon's organization (if any) gets the
 * person as a learner, and a tier above free with 100 % off becomes their subscription.
 * Answers { ok, reason: unknown|revoked|expired|used_up, …the coupon's terms }.
 */
create or replace function billing.redeem_coupon(p_code text, p_user uuid, p_purpose text)
returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  c public.coupons;
  normalized text := upper(trim(p_code));
begin
  select * into c from public.coupons where code = normalized;
  if found and exists (select 1 from public.coupon_redemptions r
                        where r.coupon_id = c.id and r.user_id = p_user) then
    return billing.coupon_json(c, null) || jsonb_build_object('already_redeemed', true);
  end if;

  update public.coupons k
     set redeemed_count = k.redeemed_count + 1
   where k.code = normalized
     and k.revoked_at is null
     and (k.expires_at is null or k.expires_at > now())
     and k.redeemed_count < k.max_redemptions
  returning * into c;
  if not found then
    select * into c from public.coupons where code = normalized;
    return billing.coupon_json(c, coalesce(billing.coupon_problem(c), 'used_up'));
  end if;

  insert into public.coupon_redemptions (coupon_id, user_id, purpose)
  values (c.id, p_user, p_purpose);
  if c.organization_id is not null then
    insert into public.memberships (user_id, organization_id, role, created_by)
    values (p_user, c.organization_id, 'learner', p_user)
    on conflict do nothing;
  end if;
  if c.percent_off = 100 and c.tier <> 'free' then
    if (select t.audience from public.tiers t where t.id = c.tier) = 'organization' then
      if c.organization_id is not null then
        insert into public.subscribers (organization_id, tier, status, source, coupon_id)
        values (c.organization_id, c.tier, 'active', 'coupon', c.id)
        on conflict (organization_id) do update
          set tier = excluded.tier, status = 'active', source = 'coupon',
              coupon_id = excluded.coupon_id, current_period_end = null, updated_at = now();
      end if;
    else
      insert into public.subscribers (user_id, tier, status, source, coupon_id)
      values (p_user, c.tier, 'active', 'coupon', c.id)
      on conflict (user_id) do update
        set tier = excluded.tier, status = 'active', source = 'coupon',
            coupon_id = excluded.coupon_id, current_period_end = null, updated_at = now();
    end if;
  end if;
  return billing.coupon_json(c, null);
end
$$;
revoke all on function billing.redeem_coupon(text, uuid, text) from public;
revoke all on function billing.check_coupon(text) from public;
grant execute on function billing.redeem_coupon(text, uuid, text), billing.check_coupon(text)
  to service_role;

create or replace function billing.require_platform_admin() returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if auth.role() is distinct from 'service_role' and not exists (
    select 1 from public.user_roles r
     where r.user_id = auth.uid() and r.role = 'admin' and r.organization_id is null) then
    raise exception 'Only platform administrators manage coupons.' using errcode = '42501';
  end if;
end
$$;

/**
 * A new coupon (platform admins). Without a code, one is made of 12 random hexadecimal
 * characters (48 bits: guessing one is hopeless at the attempt limit).
 */
create or replace function public.create_coupon(
  p_tier text,
  p_max_redemptions integer,
  p_code text default null,
  p_expires_at timestamptz default null,
  p_organization_id uuid default null,
  p_percent_off integer default 100,
  p_stripe_promotion_code text default null
) returns public.coupons
language plpgsql security definer
set search_path = ''
as $$
declare
  created public.coupons;
  wanted text := upper(trim(coalesce(p_code, '')));
begin
  perform billing.require_platform_admin();
  if wanted = '' then
    wanted := 'LYC-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 6)) || '-'
                     || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 6));
  end if;
  if wanted !~ '^[A-Z0-9][A-Z0-9-]{3,39}$' then
    raise exception 'A coupon code is 4 to 40 letters, digits or hyphens, starting with a letter or digit.'
      using errcode = '22023';
  end if;
  if not exists (select 1 from public.tiers t where t.id = p_tier) then
    raise exception 'There is no tier "%".', p_tier using errcode = '22023';
  end if;
  if p_max_redemptions is null or p_max_redemptions < 1 or p_max_redemptions > 1000000 then
    raise exception 'Maximum redemptions must be between 1 and 1,000,000.' using errcode = '22023';
  end if;
  if p_expires_at is not null and p_expires_at <= now() then
    raise exception 'The expiry must be in the future.' using errcode = '22023';
  end if;
  if p_percent_off is null or p_percent_off < 1 or p_percent_off > 100 then
    raise exception 'The discount must be between 1 and 100 percent.' using errcode = '22023';
  end if;
  if p_percent_off < 100 and p_stripe_promotion_code is null then
    raise exception 'A discount below 100 %% needs the Stripe promotion code (promo_…) it maps to.'
      using errcode = '22023';
  end if;
  if p_organization_id is not null
     and not exists (select 1 from public.organizations o where o.id = p_organization_id) then
    raise exception 'There is no such organization.' using errcode = '22023';
  end if;
  if exists (select 1 from public.coupons k where k.code = wanted) then
    raise exception 'The code % is already taken.', wanted using errcode = '23505';
  end if;
  insert into public.coupons (code, tier, organization_id, percent_off, stripe_promotion_code,
                              max_redemptions, expires_at, created_by)
  values (wanted, p_tier, p_organization_id, p_percent_off, p_stripe_promotion_code,
          p_max_redemptions, p_expires_at, auth.uid())
  returning * into created;
  return created;
end
$$;

/** Withdraws a coupon (platform admins): nobody redeems it afterwards; redemptions stay. */
create or replace function public.revoke_coupon(p_coupon uuid) returns public.coupons
language plpgsql security definer
set search_path = ''
as $$
declare
  revoked public.coupons;
begin
  perform billing.require_platform_admin();
  update public.coupons k
     set revoked_at = coalesce(k.revoked_at, now()),
         revoked_by = coalesce(k.revoked_by, auth.uid())
   where k.id = p_coupon
  returning * into revoked;
  if not found then
    raise exception 'There is no such coupon.' using errcode = 'P0002';
  end if;
  return revoked;
end
$$;
revoke all on function public.create_coupon(text, integer, text, timestamptz, uuid, integer, text),
  public.revoke_coupon(uuid) from public, anon;
grant execute on function public.create_coupon(text, integer, text, timestamptz, uuid, integer, text),
  public.revoke_coupon(uuid) to authenticated, service_role;

select audit.attach('public.coupons', 'beta access and billing', 'contract');
select audit.attach('public.coupon_redemptions', 'beta access and billing', 'contract');
select audit.attach('public.subscribers', 'billing', 'contract');
