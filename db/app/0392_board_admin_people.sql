-- A board admin's people and enrolments (issue 11, decision 0142). A board admin (an active
-- org_admin membership with a board, decision 0100) manages the learners and instructors of
-- their boards on the same screens and endpoint as an organization-wide admin, scoped to those
-- boards: the people procedures of 0350/0390 now act on the memberships in the actor's scope
-- only, and the enrolments of a board's people in courses distributed to it become readable
-- and removable by its admins. Another board's memberships and enrolments stay out of reach,
-- whichever path asks.

-- The boards of the organization the actor administers as a board admin; empty for everyone
-- else, organization-wide admins and the owner included (their scope is the organization).
create or replace function learning.admin_boards_in(actor uuid, org uuid) returns uuid[]
language sql stable security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct m.board_id), '{}')
    from public.memberships m
   where m.user_id = actor and m.organization_id = org and m.active
     and m.role = 'org_admin' and m.board_id is not null
$$;

-- Whether a membership (by its board) lies in the part of the organization the actor manages.
create or replace function learning.in_people_scope(actor uuid, org uuid, board uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select learning.is_org_admin(actor, org) or board = any (learning.admin_boards_in(actor, org))
$$;

-- Every (course, user) pair a board admin may see and remove enrolments of: courses
-- distributed to a board they administer, people holding a membership of that board. Empty for
-- everyone who is no board admin, so the policies below cost them one empty set per statement.
create or replace function learning.board_enrolment_pairs(uid uuid)
returns table (course_id uuid, user_id uuid)
language sql stable security definer
set search_path = ''
as $$
  select distinct cb.course_id, m.user_id
    from public.memberships a
    join public.course_boards cb on cb.board_id = a.board_id
    join public.memberships m on m.board_id = a.board_id
   where a.user_id = uid and a.active and a.role = 'org_admin' and a.board_id is not null
$$;

revoke all on function learning.admin_boards_in(uuid, uuid), learning.in_people_scope(uuid, uuid, uuid),
  learning.board_enrolment_pairs(uuid)
  from public, anon;
grant execute on function learning.board_enrolment_pairs(uuid) to authenticated, service_role;

create policy enrollments_board_admin_read on public.enrollments for select to authenticated
  using (
    (course_id, user_id) in (
      select p.course_id, p.user_id from learning.board_enrolment_pairs((select auth.uid())) p
    )
  );
create policy enrollments_board_admin_delete on public.enrollments for delete to authenticated
  using (
    (course_id, user_id) in (
      select p.course_id, p.user_id from learning.board_enrolment_pairs((select auth.uid())) p
    )
  );

-- ----- the people procedures, scoped -------------------------------------------------------

-- 0350's check, for organization-wide admins unchanged; a board admin passes for a member with
-- a membership on their boards, and every such membership must be one they may manage
-- (learners and instructors, decision 0130).
create or replace function learning.require_member_manager(actor uuid, org uuid, member uuid)
returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not (learning.is_org_admin(actor, org)
          or cardinality(learning.admin_boards_in(actor, org)) > 0) then
    raise exception 'Only an administrator of this organization can manage its people'
      using errcode = '42501';
  end if;
  if actor = member then
    raise exception 'You cannot change your own roles or deactivate yourself'
      using errcode = '42501', hint = 'Ask the organization''s owner or another admin.';
  end if;
  if not exists (
    select 1 from public.memberships m
     where m.user_id = member and m.organization_id = org
       and learning.in_people_scope(actor, org, m.board_id)
  ) then
    raise exception 'This person is not a member of this organization'
      using errcode = 'P0002';
  end if;
  if exists (
    select 1 from public.memberships m
     where m.user_id = member and m.organization_id = org
       and learning.in_people_scope(actor, org, m.board_id)
       and not learning.may_manage_membership(actor, org, m.board_id, m.role, member)
  ) then
    raise exception 'Only the organization''s owner can change an org admin or the owner'
      using errcode = '42501';
  end if;
end
$$;

create or replace function learning.deactivate_member(actor uuid, org uuid, member uuid)
returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform learning.require_member_manager(actor, org, member);
  update public.memberships m set active = false
   where m.user_id = member and m.organization_id = org and m.active
     and learning.in_people_scope(actor, org, m.board_id);
  if found then
    update learning.account_suspensions set suspended_by = actor
     where user_id = member and suspended_by is null;
  end if;
  return not learning.keeps_account_access(member);
end
$$;

create or replace function learning.reactivate_member(actor uuid, org uuid, member uuid)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform learning.require_member_manager(actor, org, member);
  -- lift_suspension follows from this update.
  update public.memberships m set active = true
   where m.user_id = member and m.organization_id = org and not m.active
     and learning.in_people_scope(actor, org, m.board_id);
end
$$;

-- Replaces the member's roles within the actor's scope; a board admin's change leaves the
-- person's other memberships as they are (check_wanted_roles already limits what they grant
-- to learners and instructors of their boards).
create or replace function learning.set_member_roles(actor uuid, org uuid, member uuid, wanted jsonb)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  is_active boolean;
begin
  perform learning.require_member_manager(actor, org, member);
  perform learning.check_wanted_roles(actor, org, member, wanted);
  select bool_or(m.active) into is_active from public.memberships m
   where m.user_id = member and m.organization_id = org
     and learning.in_people_scope(actor, org, m.board_id);
  delete from public.memberships m
   where m.user_id = member and m.organization_id = org
     and learning.in_people_scope(actor, org, m.board_id)
     and not exists (
       select 1 from learning.role_rows(wanted) w
        where w.role = m.role and w.board_id is not distinct from m.board_id
     );
  insert into public.memberships (user_id, organization_id, board_id, role, active, created_by)
  select member, org, w.board_id, w.role, is_active, actor from learning.role_rows(wanted) w
   where not exists (
     select 1 from public.memberships m
      where m.user_id = member and m.organization_id = org
        and m.role = w.role and m.board_id is not distinct from w.board_id
   );
end
$$;

-- Adds a person with roles. A board admin may add to their boards; someone who already
-- belongs to the organization elsewhere joins the board too, as long as they are active
-- there (a person an organization admin deactivated is theirs to reactivate).
create or replace function learning.add_member(actor uuid, org uuid, member uuid, wanted jsonb)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if not (learning.is_org_admin(actor, org)
          or cardinality(learning.admin_boards_in(actor, org)) > 0) then
    raise exception 'Only an administrator of this organization can add people to it'
      using errcode = '42501';
  end if;
  perform learning.check_wanted_roles(actor, org, member, wanted);
  if exists (
    select 1 from public.memberships m
     where m.user_id = member and m.organization_id = org
       and learning.in_people_scope(actor, org, m.board_id)
  ) then
    raise exception 'This person is already a member of the organization'
      using errcode = '23505', hint = 'Change their roles in the list instead.';
  end if;
  if exists (select 1 from public.memberships m where m.user_id = member and m.organization_id = org)
     and not exists (
       select 1 from public.memberships m
        where m.user_id = member and m.organization_id = org and m.active
     ) then
    raise exception 'This person is deactivated in the organization; its administrators can reactivate them'
      using errcode = '23505';
  end if;
  insert into public.memberships (user_id, organization_id, board_id, role, active, created_by)
  select member, org, w.board_id, w.role, true, actor from learning.role_rows(wanted) w;
end
$$;

revoke all on function learning.require_member_manager(uuid, uuid, uuid),
  learning.deactivate_member(uuid, uuid, uuid), learning.reactivate_member(uuid, uuid, uuid),
  learning.set_member_roles(uuid, uuid, uuid, jsonb), learning.add_member(uuid, uuid, uuid, jsonb)
  from public, anon, authenticated;
