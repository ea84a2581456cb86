-- The owner's list of the organization's people (organization_people, 0371) leaves out the
-- accounts that stand for organization API keys (decision 0610): a key is no person, it has its
-- own screen, and the org admins' people list (org-people) already leaves it out. The same
-- procedure as 0371 with one more condition on the memberships it starts from.

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
         and not exists (select 1 from platform.organization_api_keys k
                          where k.principal_id = m.user_id)
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
