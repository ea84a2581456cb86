-- Coupons tied to an organization from the admin coupons screen (issue 17, decision 0613):
-- platform admins pick the organization by name and change a coupon's organization, maximum
-- and expiry after creating it. Redeeming a coupon already makes the new person a learner of
-- its organization (billing.redeem_coupon, 0900).

/**
 * Organizations a platform admin may tie a coupon to: those whose name or slug contains
 * p_search (at most p_limit, by name), or, with p_ids, exactly those (to name a coupon's
 * organization). Platform admins do not read `organizations` otherwise.
 */
create or replace function public.coupon_organizations(
  p_search text default '',
  p_ids uuid[] default null,
  p_limit integer default 50
) returns table (id uuid, name text, slug text)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  pattern text := '%' || regexp_replace(trim(coalesce(p_search, '')), '([\\%_])', '\\\1', 'g') || '%';
begin
  perform billing.require_platform_admin();
  if p_limit is null or p_limit not between 1 and 200 then
    raise exception 'p_limit is 1 to 200' using errcode = '22023';
  end if;
  if length(coalesce(p_search, '')) > 200 then
    raise exception 'Search for at most 200 characters' using errcode = '22023';
  end if;
  return query
    select o.id, o.name, o.slug from public.organizations o
     where (p_ids is not null and o.id = any (p_ids))
        or (p_ids is null and (o.name ilike pattern or o.slug ilike pattern))
     order by lower(o.name), o.id
     limit p_limit;
end
$$;

/**
 * Changes a coupon's organization (null: none), maximum redemptions and expiry (platform
 * admins). Its code, tier and discount stay: people may already hold the code for them. The
 * maximum cannot fall below the redemptions already taken; a revoked coupon stays revoked.
 */
create or replace function public.update_coupon(
  p_coupon uuid,
  p_max_redemptions integer,
  p_expires_at timestamptz default null,
  p_organization_id uuid default null
) returns public.coupons
language plpgsql security definer
set search_path = ''
as $$
declare
  current public.coupons;
  updated public.coupons;
begin
  perform billing.require_platform_admin();
  select * into current from public.coupons k where k.id = p_coupon for update;
  if not found then
    raise exception 'There is no such coupon.' using errcode = 'P0002';
  end if;
  if current.revoked_at is not null then
    raise exception 'The coupon % is revoked; create a new one instead.', current.code
      using errcode = '22023';
  end if;
  if p_max_redemptions is null or p_max_redemptions < 1 or p_max_redemptions > 1000000 then
    raise exception 'Maximum redemptions must be between 1 and 1,000,000.' using errcode = '22023';
  end if;
  if p_max_redemptions < current.redeemed_count then
    raise exception '% people have already redeemed %; the maximum cannot be lower.',
      current.redeemed_count, current.code using errcode = '22023';
  end if;
  if p_expires_at is not null and p_expires_at <= now()
     and p_expires_at is distinct from current.expires_at then
    raise exception 'The expiry must be in the future.' using errcode = '22023';
  end if;
  if p_organization_id is not null
     and not exists (select 1 from public.organizations o where o.id = p_organization_id) then
    raise exception 'There is no such organization.' using errcode = '22023';
  end if;
  update public.coupons k
     set max_redemptions = p_max_redemptions,
         expires_at = p_expires_at,
         organization_id = p_organization_id
   where k.id = p_coupon
  returning * into updated;
  return updated;
end
$$;

revoke all on function public.coupon_organizations(text, uuid[], integer),
  public.update_coupon(uuid, integer, timestamptz, uuid) from public, anon;
grant execute on function public.coupon_organizations(text, uuid[], integer),
  public.update_coupon(uuid, integer, timestamptz, uuid) to authenticated, service_role;
