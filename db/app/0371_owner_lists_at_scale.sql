-- The owner's lists at scale (decision 0140; bench/owner-bench.ts). board_overview ran as the
-- caller, so row-level security called its membership check once per counted row: 2.4 s for
-- 20,000 members. It now checks the caller once (the owner or an organization-wide admin, who
-- may read every membership anyway) and counts without per-row checks. organization_people
-- built every matching person's memberships before taking a page; it now pages first.

create or replace function public.board_overview(organization_id uuid)
returns table (
  id uuid, name text, slug text, members int, admins int, courses int, created_at timestamptz
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  org uuid := board_overview.organization_id;
begin
  if org is null or not learning.is_org_admin(auth.uid(), org) then
    raise exception 'Only the organization''s owner or its admins can see its boards'' figures'
      using errcode = '42501';
  end if;
  return query
    select b.id, b.name, b.slug,
           coalesce(m.members, 0), coalesce(m.admins, 0), coalesce(c.courses, 0),
           b.created_at
      from public.boards b
      left join (
        select x.board_id,
               count(distinct x.user_id) filter (where x.active)::int as members,
               count(*) filter (where x.active and x.role = 'org_admin')::int as admins
          from public.memberships x
         where x.organization_id = org and x.board_id is not null
         group by x.board_id
      ) m on m.board_id = b.id
      left join (
        select cb.board_id, count(*)::int as courses
          from public.course_boards cb
         where cb.organization_id = org
         group by cb.board_id
      ) c on c.board_id = b.id
     where b.organization_id = org
     order by lower(b.name), b.id;
end
$$;

create or replace function public.organization_people(
  organization_id uuid,
  search text default '',
  board_id uuid default null,
  role_name text default null,
  page_size int default 25,
  page_offset int default 0
)
returns table (
  user_id uuid, email text, full_name text, display_name text, is_owner boolean,
  memberships jsonb, total int
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  org uuid := organization_people.organization_id;
  pattern text := '%' || regexp_replace(trim(coalesce(search, '')), '([\\%_])', '\\\1', 'g') || '%';
begin
  if org is null or not learning.is_org_admin(auth.uid(), org) then
    raise exception 'Only the organization''s owner or its admins can list its people'
      using errcode = '42501';
  end if;
  if page_size is null or page_size not between 1 and 100 or page_offset is null
     or page_offset < 0 then
    raise exception 'page_size is 1 to 100 and page_offset is 0 or more' using errcode = '22023';
  end if;
  if length(coalesce(search, '')) > 200 then
    raise exception 'Search for at most 200 characters' using errcode = '22023';
  end if;
  return query
    with people as (
      select distinct m.user_id from public.memberships m
       where m.organization_id = org
         and (organization_people.board_id is null or m.board_id = organization_people.board_id)
         and (role_name is null or m.role = role_name)
      union
      select o.owner_id from public.organizations o
       where o.id = org and o.owner_id is not null and organization_people.board_id is null
         and role_name is null
    ), matching as (
      select u.id, u.email::text as email, p.full_name, p.display_name,
             lower(coalesce(nullif(p.full_name, ''), nullif(p.display_name, ''), u.email)) as sort_key
        from people x
        join auth.users u on u.id = x.user_id
        left join public.profiles p on p.id = u.id
       where trim(coalesce(search, '')) = ''
          or u.email ilike pattern or p.full_name ilike pattern or p.display_name ilike pattern
    ), page as (
      select mt.*, (count(*) over ())::int as matched
        from matching mt
       order by mt.sort_key, mt.id
       limit page_size offset page_offset
    )
    select pg.id, pg.email, pg.full_name, pg.display_name,
           learning.is_owner(pg.id, org),
           coalesce((
             select jsonb_agg(jsonb_build_object(
                      'id', m.id, 'role', m.role, 'active', m.active,
                      'board_id', m.board_id, 'board_name', b.name
                    ) order by b.name nulls first, m.role)
               from public.memberships m
               left join public.boards b on b.id = m.board_id
              where m.user_id = pg.id and m.organization_id = org
           ), '[]'::jsonb),
           pg.matched
      from page pg
     order by pg.sort_key, pg.id;
end
$$;
