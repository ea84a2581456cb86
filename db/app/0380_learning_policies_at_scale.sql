-- Read policies and indexes that stay fast at issue 11's scale (decision 0102;
-- bench/learning-bench.ts: 100,000 learners, 1,000,000 enrolments, 10,000,000 progress rows).
--
-- 0326 turned the big tables' read policies into sets; these are the ones it left calling a
-- function for every row, each found slow with EXPLAIN ANALYZE as the signed-in role at that
-- scale: an organization admin reading the organization's 100,000 memberships took 11 s,
-- their user_roles 28 s, profiles 24 s (an instructor's 257 s); a learner's course library
-- (1,000 courses) 0.9 s; an instructor reading the lessons they teach 2.8 s. Each policy keeps
-- its meaning: a set below holds exactly the rows for which the per-row function answers
-- true, and the role matrix test passes unchanged. `(select auth.uid())` makes the caller's id
-- one init plan per statement instead of a claims lookup per row.

-- ----- sets the policies compute once per statement ------------------------------------------

-- Every board b for which learning.administers_board(uid, b) is true: the boards of the
-- organizations they administer as a whole, and those they are an active board admin of.
create or replace function learning.boards_administered(uid uuid) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select b.id from public.boards b
   where b.organization_id in (select learning.orgs_administered(uid))
  union
  select m.board_id from public.memberships m
   where m.user_id = uid and m.active and m.role = 'org_admin' and m.board_id is not null
$$;

-- Every course c for which learning.in_catalogue(uid, c) is true.
create or replace function learning.courses_in_catalogue(uid uuid) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select c.id from public.courses c
   where c.published and uid is not null
     and (c.organization_id is null
          or c.organization_id not in (select learning.orgs_barred(uid)))
     and (
       c.visibility = 'public'
       or (c.visibility = 'organization'
           and c.organization_id in (
             select m.organization_id from public.memberships m
              where m.user_id = uid and m.active
                and m.role in ('learner', 'instructor', 'org_admin')
           ))
       or (c.organization_id is not null
           and c.id in (
             select cb.course_id from public.course_boards cb
               join public.memberships m on m.board_id = cb.board_id
              where m.user_id = uid and m.active and m.role <> 'compliance_officer'
           ))
     )
$$;

-- learning.oversees with the same answer in one statement of index lookups: 0322's form called
-- is_org_admin() for each of the person's memberships and teaches() for each of their
-- enrolments, about 2.5 ms a profile at this scale. It stays a per-row check: the set of
-- people an organization admin oversees is the whole organization, too big to build for
-- every statement that reads one name.
create or replace function learning.oversees(uid uuid, person uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.memberships m
     where m.user_id = person
       and (
         exists (select 1 from public.organizations o
                  where o.id = m.organization_id and o.owner_id = uid)
         or exists (select 1 from public.memberships a
                     where a.user_id = uid and a.organization_id = m.organization_id
                       and a.active and a.role = 'org_admin' and a.board_id is null)
       )
  ) or exists (
    select 1 from public.enrollments e
      join public.courses c on c.id = e.course_id
     where e.user_id = person
       and uid is not null
       and case
         when c.organization_id is null then c.owner_id = uid
         else exists (select 1 from public.organizations o
                       where o.id = c.organization_id and o.owner_id = uid)
           or exists (select 1 from public.memberships a
                       where a.user_id = uid and a.organization_id = c.organization_id
                         and a.active and a.role = 'org_admin' and a.board_id is null)
           or (exists (select 1 from public.course_instructors ci
                        where ci.course_id = c.id and ci.user_id = uid)
               and exists (select 1 from public.memberships a
                            where a.user_id = uid and a.organization_id = c.organization_id
                              and a.active and a.role in ('instructor', 'org_admin')))
       end
  )
$$;

revoke all on function learning.boards_administered(uuid), learning.courses_in_catalogue(uuid)
  from public;
grant execute on function learning.boards_administered(uuid), learning.courses_in_catalogue(uuid)
  to authenticated, service_role;

-- ----- policies ------------------------------------------------------------------------------

drop policy memberships_read on public.memberships;
create policy memberships_read on public.memberships for select to authenticated
  using (
    (user_id = (select auth.uid()) and active)
    or organization_id in (select learning.orgs_administered((select auth.uid())))
    or board_id in (select learning.boards_administered((select auth.uid())))
  );

drop policy user_roles_select on public.user_roles;
create policy user_roles_select on public.user_roles for select to authenticated
  using (
    user_id = (select auth.uid())
    or (select public.has_role((select auth.uid()), 'admin'))
    or organization_id in (select learning.orgs_administered((select auth.uid())))
  );
drop policy user_roles_admin_write on public.user_roles;
create policy user_roles_admin_write on public.user_roles for all to authenticated
  using (organization_id is null and (select public.has_role((select auth.uid()), 'admin')))
  with check (organization_id is null and (select public.has_role((select auth.uid()), 'admin')));

drop policy profiles_select_own on public.profiles;
create policy profiles_select_own on public.profiles for select to authenticated
  using (
    id = (select auth.uid())
    or (select public.has_role((select auth.uid()), 'admin'))
    or learning.oversees((select auth.uid()), id)
  );

-- The first branch still reads only the row's own columns and the caller's memberships, so a
-- new course passes it within its INSERT ... RETURNING (see 0322).
drop policy courses_read on public.courses;
create policy courses_read on public.courses for select to authenticated
  using (
    case
      when organization_id is null then owner_id = (select auth.uid())
      else organization_id in (select learning.orgs_administered((select auth.uid())))
        or (owner_id = (select auth.uid())
            and learning.holds((select auth.uid()), organization_id,
                               array['instructor', 'org_admin']))
    end
    or id in (select learning.courses_taught((select auth.uid())))
    or id in (select learning.courses_enrolled((select auth.uid())))
    or id in (select learning.courses_in_catalogue((select auth.uid())))
  );

-- 0322's `for all` write policies applied to reads too, adding a teaches() call per row to
-- the read policy's sets (which already hold every course the caller teaches). Split per
-- command, with the same checks, they no longer touch reads.
drop policy modules_write on public.modules;
create policy modules_insert on public.modules for insert to authenticated
  with check (learning.teaches((select auth.uid()), course_id));
create policy modules_update on public.modules for update to authenticated
  using (learning.teaches((select auth.uid()), course_id))
  with check (learning.teaches((select auth.uid()), course_id));
create policy modules_delete on public.modules for delete to authenticated
  using (learning.teaches((select auth.uid()), course_id));

drop policy lessons_write on public.lessons;
create policy lessons_insert on public.lessons for insert to authenticated
  with check (learning.teaches((select auth.uid()), course_id));
create policy lessons_update on public.lessons for update to authenticated
  using (learning.teaches((select auth.uid()), course_id))
  with check (learning.teaches((select auth.uid()), course_id));
create policy lessons_delete on public.lessons for delete to authenticated
  using (learning.teaches((select auth.uid()), course_id));

drop policy assessments_write on public.assessments;
create policy assessments_insert on public.assessments for insert to authenticated
  with check (learning.teaches((select auth.uid()), course_id));
create policy assessments_update on public.assessments for update to authenticated
  using (learning.teaches((select auth.uid()), course_id))
  with check (learning.teaches((select auth.uid()), course_id));
create policy assessments_delete on public.assessments for delete to authenticated
  using (learning.teaches((select auth.uid()), course_id));
