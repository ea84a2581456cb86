-- The organization owner's boards (issue 11, decision 0140): creating, renaming and removing
-- them with messages a person can act on, each board's counts, and every user of the
-- organization for the owner's oversight. The policies of 0322 already let only the owner
-- write boards and course_boards; these procedures run as the caller, so they change nothing
-- about who may do what.

-- Two boards of one organization never share a name (the switcher and the screens tell them
-- apart by it).
create unique index boards_name_unique on public.boards (organization_id, lower(trim(name)));

-- A board name as an address segment: "Faculty of Arts & Design" → "faculty-of-arts-design".
create or replace function learning.slugify(value text) returns text
language sql immutable
set search_path = ''
as $$
  select coalesce(
    nullif(left(trim(both '-' from regexp_replace(lower(value), '[^a-z0-9]+', '-', 'g')), 50), ''),
    'board'
  )
$$;

create or replace function learning.require_owner(org uuid, action text) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if org is null or not learning.is_owner(auth.uid(), org) then
    raise exception 'Only the organization''s owner can %', action using errcode = '42501';
  end if;
end
$$;

create or replace function learning.check_board_name(org uuid, board_name text, except_board uuid)
returns text
language plpgsql stable
set search_path = ''
as $$
declare
  cleaned text := trim(coalesce(board_name, ''));
begin
  if length(cleaned) = 0 or length(cleaned) > 200 then
    raise exception 'A board name has 1 to 200 characters' using errcode = '22023';
  end if;
  if exists (
    select 1 from public.boards b
     where b.organization_id = org and lower(trim(b.name)) = lower(cleaned)
       and b.id is distinct from except_board
  ) then
    raise exception 'A board named "%" already exists', cleaned
      using errcode = '23505', detail = 'board_name_taken';
  end if;
  return cleaned;
end
$$;

-- Creates a board with a free address name derived from its name ("arts", "arts-2", …).
create or replace function public.create_board(organization_id uuid, name text)
returns public.boards
language plpgsql volatile
set search_path = ''
as $$
declare
  org uuid := create_board.organization_id;
  cleaned text;
  base text;
  candidate text;
  n int := 1;
  created public.boards;
begin
  perform learning.require_owner(org, 'create boards');
  cleaned := learning.check_board_name(org, create_board.name, null);
  base := learning.slugify(cleaned);
  candidate := base;
  while exists (select 1 from public.boards b where b.organization_id = org and b.slug = candidate) loop
    n := n + 1;
    candidate := base || '-' || n;
  end loop;
  insert into public.boards (organization_id, name, slug)
  values (org, cleaned, candidate)
  returning * into created;
  return created;
end
$$;

-- Renames a board; its address name stays, so links to it keep working.
create or replace function public.rename_board(board_id uuid, name text)
returns public.boards
language plpgsql volatile
set search_path = ''
as $$
declare
  board public.boards;
  cleaned text;
begin
  select * into board from public.boards b where b.id = rename_board.board_id;
  perform learning.require_owner(board.organization_id, 'rename boards');
  cleaned := learning.check_board_name(board.organization_id, rename_board.name, board.id);
  update public.boards b set name = cleaned where b.id = board.id returning * into board;
  return board;
end
$$;

-- Removing a board (decision 0140). Its board admins must be removed first: they administer
-- only this board, and moving an admin membership elsewhere would widen what it governs. Every
-- other membership (learners, instructors, compliance officers, active or not) moves to
-- `move_members_to` — another board of the organization, or null for the whole organization
-- — so nobody loses their place or their enrolments. The courses distributed to it stay in
-- the organization and are no longer distributed to this board; enrolments are kept.
create or replace function public.remove_board(board_id uuid, move_members_to uuid default null)
returns jsonb
language plpgsql volatile
set search_path = ''
as $$
declare
  board public.boards;
  admins int;
  moved int;
  merged int;
  withdrawn int;
begin
  select * into board from public.boards b where b.id = remove_board.board_id;
  perform learning.require_owner(board.organization_id, 'remove boards');
  if move_members_to = board.id then
    raise exception 'Choose another board for its members, or the whole organization'
      using errcode = '22023';
  end if;
  if move_members_to is not null and not exists (
    select 1 from public.boards b
     where b.id = move_members_to and b.organization_id = board.organization_id
  ) then
    raise exception 'The board to move its members to is not a board of this organization'
      using errcode = '22023';
  end if;
  select count(*)::int into admins
    from public.memberships m where m.board_id = board.id and m.role = 'org_admin';
  if admins > 0 then
    raise exception '% still has % board %: remove them on the board''s page first', board.name,
      admins, case when admins = 1 then 'admin' else 'admins' end
      using errcode = 'PT409', detail = 'board_has_admins';
  end if;

  -- Someone who already holds the same role where they move to keeps that membership.
  with duplicates as (
    delete from public.memberships m
     where m.board_id = board.id
       and exists (
         select 1 from public.memberships d
          where d.user_id = m.user_id and d.organization_id = m.organization_id
            and d.role = m.role and d.board_id is not distinct from move_members_to
       )
    returning 1
  )
  select count(*)::int into merged from duplicates;
  with moving as (
    update public.memberships m set board_id = move_members_to
     where m.board_id = board.id
    returning 1
  )
  select count(*)::int into moved from moving;
  select count(*)::int into withdrawn from public.course_boards cb where cb.board_id = board.id;
  delete from public.boards b where b.id = board.id;
  return jsonb_build_object('moved', moved + merged, 'withdrawn', withdrawn);
end
$$;

-- A direct DELETE of a board that still has members would take their memberships with it
-- (the foreign key cascades): refused, pointing at remove_board's way of moving them.
create or replace function learning.refuse_removing_occupied_board() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  people int;
begin
  -- The organization itself is being deleted: its boards and memberships go with it.
  if not exists (select 1 from public.organizations o where o.id = old.organization_id) then
    return old;
  end if;
  select count(distinct m.user_id)::int into people
    from public.memberships m where m.board_id = old.id;
  if people > 0 then
    raise exception '% still has % %: move them to another board first', old.name, people,
      case when people = 1 then 'member' else 'members' end
      using errcode = 'PT409', detail = 'board_has_members';
  end if;
  return old;
end
$$;
create trigger refuse_removing_occupied_board before delete on public.boards
  for each row execute function learning.refuse_removing_occupied_board();

-- Each board of the organization with what the caller may see of it: its people (distinct
-- users with an active membership there), its board admins and the courses distributed to
-- it. Runs as the caller, so row-level security decides what is counted.
create or replace function public.board_overview(organization_id uuid)
returns table (
  id uuid, name text, slug text, members int, admins int, courses int, created_at timestamptz
)
language sql stable
set search_path = ''
as $$
  select b.id, b.name, b.slug,
         (select count(distinct m.user_id)::int from public.memberships m
           where m.board_id = b.id and m.active),
         (select count(*)::int from public.memberships m
           where m.board_id = b.id and m.active and m.role = 'org_admin'),
         (select count(*)::int from public.course_boards cb where cb.board_id = b.id),
         b.created_at
    from public.boards b
   where b.organization_id = board_overview.organization_id
   order by lower(b.name), b.id
$$;

-- Every user of the organization with all their memberships (any board, active or not), for
-- its owner and organization-wide admins, who may already read those memberships and profiles
-- (0322); this adds the sign-in address, which lives in auth.users. Searched by name or
-- address, optionally only the people holding a membership in one board and/or with one role,
-- a page at a time; `total` is the number of matching users.
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
      select u.id, u.email::text as email, p.full_name, p.display_name
        from people x
        join auth.users u on u.id = x.user_id
        left join public.profiles p on p.id = u.id
       where u.email ilike pattern or p.full_name ilike pattern or p.display_name ilike pattern
    )
    select mt.id, mt.email, mt.full_name, mt.display_name,
           learning.is_owner(mt.id, org),
           coalesce((
             select jsonb_agg(jsonb_build_object(
                      'id', m.id, 'role', m.role, 'active', m.active,
                      'board_id', m.board_id, 'board_name', b.name
                    ) order by b.name nulls first, m.role)
               from public.memberships m
               left join public.boards b on b.id = m.board_id
              where m.user_id = mt.id and m.organization_id = org
           ), '[]'::jsonb),
           (count(*) over ())::int
      from matching mt
     order by lower(coalesce(nullif(mt.full_name, ''), nullif(mt.display_name, ''), mt.email)), mt.id
     limit page_size offset page_offset;
end
$$;

revoke all on function public.create_board(uuid, text), public.rename_board(uuid, text),
  public.remove_board(uuid, uuid), public.board_overview(uuid),
  public.organization_people(uuid, text, uuid, text, int, int)
  from public;
grant execute on function public.create_board(uuid, text), public.rename_board(uuid, text),
  public.remove_board(uuid, uuid), public.board_overview(uuid),
  public.organization_people(uuid, text, uuid, text, int, int)
  to authenticated, service_role;
revoke all on function learning.slugify(text), learning.require_owner(uuid, text),
  learning.check_board_name(uuid, text, uuid), learning.refuse_removing_occupied_board()
  from public;
grant execute on function learning.slugify(text), learning.require_owner(uuid, text),
  learning.check_board_name(uuid, text, uuid)
  to authenticated, service_role;
