-- One stored name for the first role: `learner`, the name spec section 6 gives in user_roles
-- and the one memberships use. Screens label it "Student". Accounts created so far hold
-- `student`; they become `learner` (a user who somehow holds both keeps one row).
delete from public.user_roles s
 where s.role = 'student'
   and exists (
     select 1 from public.user_roles l
      where l.user_id = s.user_id
        and l.role = 'learner'
        and l.organization_id is not distinct from s.organization_id
   );
alter table public.user_roles drop constraint if exists user_roles_role_check;
update public.user_roles set role = 'learner' where role = 'student';
alter table public.user_roles add constraint user_roles_role_check
  check (role in ('admin', 'org_admin', 'instructor', 'learner', 'compliance_officer'));

create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = public
as $$
begin
  insert into public.profiles (id, display_name, full_name, avatar_url)
  values (
    new.id,
    left(coalesce(new.raw_user_meta_data ->> 'display_name', new.raw_user_meta_data ->> 'name',
      split_part(coalesce(new.email, ''), '@', 1)), 80),
    left(new.raw_user_meta_data ->> 'full_name', 120),
    left(new.raw_user_meta_data ->> 'avatar_url', 2048)
  )
  on conflict (id) do nothing;
  insert into public.user_roles (user_id, role) values (new.id, 'learner')
  on conflict do nothing;
  return new;
end
$$;

-- Helpers that policies call but clients never should live in their own schema, which the
-- REST layer does not expose.
create schema if not exists learning;
grant usage on schema learning to anon, authenticated, service_role;

-- Who may ask about a user's roles: the user themself, the service role, and the server's
-- own statements (no request claims at all). Anyone else learning that an id holds `admin`
-- would be handed a target (issue 10).
create or replace function learning.require_self(uid uuid) returns void
language plpgsql stable
set search_path = ''
as $$
begin
  if uid is not distinct from auth.uid()
     or auth.role() = 'service_role'
     or auth.jwt() = '{}'::jsonb then
    return;
  end if;
  raise exception 'has_role answers only for the signed-in user'
    using errcode = '42501', hint = 'Pass auth.uid() as the user id.';
end
$$;

create or replace function public.has_role(uid uuid, role_name text) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform learning.require_self(uid);
  return exists (
    select 1 from public.user_roles r where r.user_id = uid and r.role = role_name
  );
end
$$;
revoke all on function public.has_role(uuid, text) from public;
grant execute on function public.has_role(uuid, text) to anon, authenticated, service_role;
