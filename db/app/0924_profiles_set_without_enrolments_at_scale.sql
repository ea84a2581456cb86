-- 0923's set of people overseen held everyone enrolled in a course the caller teaches, and an
-- organization admin "teaches" every course of the organization: at issue 11's scale (100,000
-- members, 1,000 courses, 1,000,000 enrolments) building it took 5–6 s per statement under
-- load, so even reading one profile took 7 s (decision 0614). The set now leaves out the
-- enrolments in courses of the organizations the caller administers, and the policy falls back
-- to learning.oversees() for the rows the set does not hold. Every person in the set is one
-- oversees() answers true for, so the policy admits exactly the rows 0380's did.

drop policy profiles_select_own on public.profiles;
drop function learning.people_overseen(uuid);

-- People p for whom learning.oversees(uid, p) is true, in a set small enough to build for every
-- statement: everyone with a membership (in any state) in an organization the caller
-- administers as a whole, and everyone enrolled in a course the caller teaches outside those
-- organizations. Left out: people enrolled in those organizations' courses who are not members,
-- which the caller oversees too but which can number millions of enrolments to list.
-- A person may appear twice (`union all`: callers test membership of the set).
create function learning.people_overseen_in_bulk(uid uuid) returns setof uuid
language sql stable security definer
rows 1000
set search_path = ''
as $$
  select m.user_id from public.memberships m
   where m.organization_id in (select learning.orgs_administered(uid))
  union all
  select e.user_id from public.enrollments e
   where e.course_id in (
     select t.course from learning.courses_taught(uid) t (course)
     except
     select c.id from public.courses c
      where c.organization_id in (select learning.orgs_administered(uid))
   )
$$;
revoke all on function learning.people_overseen_in_bulk(uuid) from public;
grant execute on function learning.people_overseen_in_bulk(uuid) to authenticated, service_role;

-- The set is read in FROM (in a select list the security definer function is entered once per
-- row it returns). oversees() runs only for rows the set does not hold: for an organization
-- admin, people of other organizations and enrolled non-members.
create policy profiles_select_own on public.profiles for select to authenticated
  using (
    id = (select auth.uid())
    or (select public.has_role((select auth.uid()), 'admin'))
    or id in (select p.person from learning.people_overseen_in_bulk((select auth.uid())) p (person))
    or learning.oversees((select auth.uid()), id)
  );
