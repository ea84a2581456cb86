-- Deactivation bans the account whichever path deactivates (decision 0130, amended): 0350 banned
-- only in learning.deactivate_member, so an org admin setting `memberships.active = false`
-- through REST barred the organization's data but left the account able to sign in. The ban now
-- follows from the membership update itself, as 0350's lift_suspension already did for the way
-- back: the people endpoint, its screens and REST behave alike.

-- After an update that deactivates memberships: each person it deactivated who keeps no access
-- (learning.keeps_account_access: no other active membership, no organization of their own, not
-- a platform admin) is banned as GoTrue bans, the ban remembered as this module's, and their
-- sessions recorded as ended (decision 0071) so every process refuses their tokens at once.
create or replace function learning.suspend_deactivated() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  until timestamptz := now() + interval '100 years';
  person record;
begin
  for person in
    select distinct on (n.user_id) n.user_id, n.organization_id
      from new_rows n join old_rows o on o.id = n.id
     where o.active and not n.active
       and not learning.keeps_account_access(n.user_id)
     order by n.user_id, n.organization_id
  loop
    update auth.users set banned_until = until
     where id = person.user_id and (banned_until is null or banned_until < until);
    -- An operator's longer ban stands, and is never this module's to lift.
    if found then
      insert into learning.account_suspensions (user_id, banned_until, organization_id, suspended_by)
      values (person.user_id, until, person.organization_id, auth.uid())
      on conflict (user_id) do update
        set banned_until = excluded.banned_until, organization_id = excluded.organization_id,
            suspended_by = excluded.suspended_by, created_at = now();
    end if;
    -- The session rows stay until their next refresh, which the auth service answers with
    -- GoTrue's `user_banned` and ends for good; a reactivation ends them too (lift_suspension).
    insert into platform.ended_sessions (session_id)
    select s.id from auth.sessions s where s.user_id = person.user_id
    on conflict (session_id) do update set ended_at = excluded.ended_at;
    perform pg_notify('lyceum_session_ended', s.id::text)
       from auth.sessions s where s.user_id = person.user_id;
  end loop;
  return null;
end
$$;
create trigger suspend_deactivated after update on public.memberships
  referencing old table as old_rows new table as new_rows
  for each statement execute function learning.suspend_deactivated();
revoke all on function learning.suspend_deactivated() from public, anon, authenticated;

-- The people endpoint's deactivation: the update above now does the banning. It still names
-- the admin who did it (the endpoint's transaction carries no JWT, so auth.uid() is null there)
-- and answers whether the account is now barred from signing in.
create or replace function learning.deactivate_member(actor uuid, org uuid, member uuid)
returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform learning.require_member_manager(actor, org, member);
  update public.memberships set active = false
   where user_id = member and organization_id = org and active;
  if found then
    update learning.account_suspensions set suspended_by = actor
     where user_id = member and suspended_by is null;
  end if;
  return not learning.keeps_account_access(member);
end
$$;
revoke all on function learning.deactivate_member(uuid, uuid, uuid) from public, anon, authenticated;
