-- The organization admin's people screens (issue 11, decision 0130): who may name whom, what a
-- deactivation does to the account, and the writes the /functions/v1/org-people endpoint makes.

-- ----- who may manage a membership ---------------------------------------------------------

-- 0322 let any organization-wide admin create, change or remove org_admin memberships, so one
-- admin could name others or remove a peer. Now only the owner names, changes, deactivates or
-- removes an org_admin (organization-wide or of a board); organization admins manage learners,
-- instructors and compliance officers; a board admin manages learners and instructors of their
-- board. Nobody but the owner acts on the owner.
create or replace function learning.may_manage_membership(
  uid uuid, org uuid, board uuid, member_role text, member uuid
) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select learning.is_owner(uid, org)
      or (
        not learning.is_owner(member, org)
        and member_role is distinct from 'org_admin'
        and (
          learning.is_org_admin(uid, org)
          or (board is not null and member_role in ('learner', 'instructor')
              and learning.administers_board(uid, board))
        )
      )
$$;

-- ----- account-level suspension ------------------------------------------------------------

-- A user deactivated in their last organization is banned from signing in, the way GoTrue's
-- banned_until bans (the "876000h" ban, a hundred years). The row remembers the ban this
-- module set, so a reactivation lifts only that one and never an operator's own ban.
create table learning.account_suspensions (
  user_id uuid primary key references auth.users (id) on delete cascade,
  banned_until timestamptz not null,
  organization_id uuid references public.organizations (id) on delete set null,
  suspended_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table learning.account_suspensions enable row level security;
revoke all on learning.account_suspensions from public, anon, authenticated;

-- Whether the user may still sign in at all: an active membership somewhere, an organization
-- of their own, the platform admin role, or no organization ever (Personal mode).
create or replace function learning.keeps_account_access(member uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from public.memberships m where m.user_id = member and m.active)
      or exists (select 1 from public.organizations o where o.owner_id = member)
      or exists (
        select 1 from public.user_roles r
         where r.user_id = member and r.role = 'admin' and r.organization_id is null
      )
      or not exists (select 1 from public.memberships m where m.user_id = member)
$$;

-- Lifts a suspension as soon as the user holds an active membership again, through whichever
-- path (the people screen, REST, another organization adding them).
create or replace function learning.lift_suspension() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update auth.users u set banned_until = null
    from learning.account_suspensions s
   where s.user_id = u.id and u.banned_until = s.banned_until
     and s.user_id in (select n.user_id from new_rows n where n.active);
  -- Their sessions ended with the suspension; the person signs in afresh.
  delete from auth.sessions a
   using learning.account_suspensions s
   where a.user_id = s.user_id and s.user_id in (select n.user_id from new_rows n where n.active);
  delete from learning.account_suspensions s
   where s.user_id in (select n.user_id from new_rows n where n.active);
  return null;
end
$$;
create trigger lift_suspension_insert after insert on public.memberships
  referencing new table as new_rows
  for each statement execute function learning.lift_suspension();
create trigger lift_suspension_update after update on public.memberships
  referencing new table as new_rows
  for each statement execute function learning.lift_suspension();

-- ----- the people screen's writes ----------------------------------------------------------
--
-- Called only by the server (never exposed over REST) with the verified caller as `actor`;
-- each checks the actor with the helpers the policies use before it writes anything, and
-- raises 42501 (refused), P0002 (no such member) or 22023 (bad input).

create or replace function learning.require_member_manager(actor uuid, org uuid, member uuid)
returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not learning.is_org_admin(actor, org) then
    raise exception 'Only an administrator of this organization can manage its people'
      using errcode = '42501';
  end if;
  if actor = member then
    raise exception 'You cannot change your own roles or deactivate yourself'
      using errcode = '42501', hint = 'Ask the organization''s owner or another admin.';
  end if;
  if not exists (
    select 1 from public.memberships m where m.user_id = member and m.organization_id = org
  ) then
    raise exception 'This person is not a member of this organization' using errcode = 'P0002';
  end if;
  if exists (
    select 1 from public.memberships m
     where m.user_id = member and m.organization_id = org
       and not learning.may_manage_membership(actor, org, m.board_id, m.role, member)
  ) then
    raise exception 'Only the organization''s owner can change an org admin or the owner'
      using errcode = '42501';
  end if;
end
$$;

-- Deactivates every membership of the member in the organization. When none remains active
-- anywhere, the account is banned (sessions end now) until a membership is active again.
-- Returns whether the account was suspended.
create or replace function learning.deactivate_member(actor uuid, org uuid, member uuid)
returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  until timestamptz := now() + interval '100 years';
begin
  perform learning.require_member_manager(actor, org, member);
  update public.memberships set active = false
   where user_id = member and organization_id = org and active;
  if learning.keeps_account_access(member) then
    return false;
  end if;
  update auth.users set banned_until = until where id = member
     and (banned_until is null or banned_until < until);
  -- An operator's longer ban stands, and is never this module's to lift.
  if found then
    insert into learning.account_suspensions (user_id, banned_until, organization_id, suspended_by)
    values (member, until, org, actor)
    on conflict (user_id) do update
      set banned_until = excluded.banned_until, organization_id = excluded.organization_id,
          suspended_by = excluded.suspended_by, created_at = now();
  end if;
  -- Every gateway process refuses the sessions' access tokens from now on (decision 0071's
  -- ended sessions, recorded as its trigger does). The rows stay until their next refresh,
  -- which the auth service then answers with GoTrue's `user_banned` and ends for good; a
  -- reactivation ends them too, so the person signs in afresh.
  insert into platform.ended_sessions (session_id)
  select s.id from auth.sessions s where s.user_id = member
  on conflict (session_id) do update set ended_at = excluded.ended_at;
  perform pg_notify('lyceum_session_ended', s.id::text) from auth.sessions s
   where s.user_id = member;
  return true;
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
  update public.memberships set active = true
   where user_id = member and organization_id = org and not active;
end
$$;

-- The distinct (role, board) pairs of a roles array.
create or replace function learning.role_rows(wanted jsonb) returns table (role text, board_id uuid)
language sql immutable
set search_path = ''
as $$
  select distinct w ->> 'role', nullif(w ->> 'board_id', '')::uuid
    from jsonb_array_elements(wanted) w
$$;

-- Checks a roles array, {"role": …, "board_id": uuid or null} each, against the organization
-- and the actor's authority: every pair must be one the actor may grant.
create or replace function learning.check_wanted_roles(actor uuid, org uuid, member uuid, wanted jsonb)
returns void
language plpgsql stable security definer
set search_path = ''
as $$
declare
  bad text;
begin
  if jsonb_typeof(wanted) is distinct from 'array' or jsonb_array_length(wanted) = 0 then
    raise exception 'Give the member at least one role' using errcode = '22023';
  end if;
  select coalesce(w ->> 'role', '(none)') into bad from jsonb_array_elements(wanted) w
   where w ->> 'role' is null
      or w ->> 'role' not in ('learner', 'instructor', 'org_admin', 'compliance_officer')
   limit 1;
  if found then
    raise exception 'Unknown role: %', bad using errcode = '22023';
  end if;
  if exists (
    select 1 from learning.role_rows(wanted) w
     where w.board_id is not null
       and not exists (
         select 1 from public.boards b where b.id = w.board_id and b.organization_id = org
       )
  ) then
    raise exception 'A board named is not a board of this organization' using errcode = '22023';
  end if;
  if exists (
    select 1 from learning.role_rows(wanted) w
     where not learning.may_manage_membership(actor, org, w.board_id, w.role, member)
  ) then
    raise exception 'Only the organization''s owner can name an org admin or a board admin'
      using errcode = '42501';
  end if;
end
$$;

-- Replaces the member's roles in the organization with `wanted`. Every membership removed and
-- every one added must be one the actor may manage; new ones take the member's current
-- active state.
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
   where m.user_id = member and m.organization_id = org;
  delete from public.memberships m
   where m.user_id = member and m.organization_id = org
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

-- Makes an account (new, or one that exists) a member with the given roles, active.
create or replace function learning.add_member(actor uuid, org uuid, member uuid, wanted jsonb)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if not learning.is_org_admin(actor, org) then
    raise exception 'Only an administrator of this organization can add people to it'
      using errcode = '42501';
  end if;
  perform learning.check_wanted_roles(actor, org, member, wanted);
  if exists (
    select 1 from public.memberships m where m.user_id = member and m.organization_id = org
  ) then
    raise exception 'This person is already a member of the organization'
      using errcode = '23505', hint = 'Change their roles in the list instead.';
  end if;
  insert into public.memberships (user_id, organization_id, board_id, role, active, created_by)
  select member, org, w.board_id, w.role, true, actor from learning.role_rows(wanted) w;
end
$$;

revoke all on function learning.keeps_account_access(uuid), learning.lift_suspension(),
  learning.require_member_manager(uuid, uuid, uuid),
  learning.deactivate_member(uuid, uuid, uuid), learning.reactivate_member(uuid, uuid, uuid),
  learning.set_member_roles(uuid, uuid, uuid, jsonb), learning.role_rows(jsonb),
  learning.check_wanted_roles(uuid, uuid, uuid, jsonb), learning.add_member(uuid, uuid, uuid, jsonb)
  from public, anon, authenticated;
