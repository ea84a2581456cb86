-- Reading other people's profiles as a set (decision 0614). 0380's `profiles_select_own` called
-- learning.oversees() for every profile row before sorting: EXPLAIN (ANALYZE, BUFFERS) as an
-- organization API key of 10,000 learners (bench/public-api-bench.ts) showed a sequential
-- scan whose filter made 10,001 calls, 70,901 buffer hits and 254 of the statement's 257 ms,
-- to return a page of 100. The policy now asks whether the row's id is in the set of people
-- the caller oversees, which PostgreSQL computes once per statement (a hashed subplan) and
-- probes per row. The set holds exactly the people for whom learning.oversees() answers true,
-- so every role sees the same rows; oversees() stays for single checks.

-- Every person p for which learning.oversees(uid, p) is true: anyone with a membership (in any
-- state) in an organization the caller administers as a whole, and anyone enrolled in a course
-- the caller teaches (courses_taught is exactly the set for which oversees' course test is
-- true). A person may appear twice; callers test membership of the set, and `union all` spares
-- a second hash of a set that can be the whole organization.
create or replace function learning.people_overseen(uid uuid) returns setof uuid
language sql stable security definer
rows 1000
set search_path = ''
as $$
  select m.user_id from public.memberships m
   where m.organization_id in (select learning.orgs_administered(uid))
  union all
  select e.user_id from public.enrollments e
   where e.course_id in (select learning.courses_taught(uid))
$$;
revoke all on function learning.people_overseen(uuid) from public;
grant execute on function learning.people_overseen(uuid) to authenticated, service_role;

-- The set is read in FROM: called in a select list, a set-returning security definer function
-- is entered once per row it returns (switching its search_path each time), which about
-- doubled the statement's time.
drop policy profiles_select_own on public.profiles;
create policy profiles_select_own on public.profiles for select to authenticated
  using (
    id = (select auth.uid())
    or (select public.has_role((select auth.uid()), 'admin'))
    or id in (select p.person from learning.people_overseen((select auth.uid())) p (person))
  );
