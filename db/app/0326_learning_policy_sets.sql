-- Read policies that stay fast on large tables (decision 0100, "Performance").
--
-- 0322's read policies call learning.teaches() / enrolled() for every row, and each call runs
-- its own lookups: an instructor's progress table of 5,000 rows took seconds. These policies
-- ask instead whether the row's course is in the caller's set of taught (or enrolled, or
-- barred) courses: PostgreSQL computes each set once per statement (a hashed subplan) and
-- then checks every row with a hash probe. The sets are exactly the courses for which the
-- per-row functions answer true, so the role matrix is unchanged; the functions stay for
-- single checks (procedures, write policies).

-- Organizations where the user is a deactivated member (memberships there, none active).
create or replace function learning.orgs_barred(uid uuid) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select m.organization_id from public.memberships m
   where m.user_id = uid
   group by m.organization_id
  having not bool_or(m.active)
  except
  select o.id from public.organizations o where o.owner_id = uid
$$;

-- Every course c for which learning.teaches(uid, c) is true.
create or replace function learning.courses_taught(uid uuid) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select c.id from public.courses c where c.organization_id is null and c.owner_id = uid
  union
  select c.id from public.courses c
   where c.organization_id in (
     select o.id from public.organizations o where o.owner_id = uid
     union
     select m.organization_id from public.memberships m
      where m.user_id = uid and m.active and m.role = 'org_admin' and m.board_id is null
   )
  union
  select ci.course_id from public.course_instructors ci
    join public.courses c on c.id = ci.course_id
   where ci.user_id = uid
     and exists (
       select 1 from public.memberships m
        where m.user_id = uid and m.organization_id = c.organization_id and m.active
          and m.role in ('instructor', 'org_admin')
     )
$$;

-- Every course c for which learning.enrolled(uid, c) is true.
create or replace function learning.courses_enrolled(uid uuid) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select e.course_id from public.enrollments e
    join public.courses c on c.id = e.course_id
   where e.user_id = uid and e.status <> 'dropped'
     and (c.organization_id is null
          or c.organization_id not in (select learning.orgs_barred(uid)))
$$;

-- Courses of the organizations the user is barred from: their own rows there are hidden.
create or replace function learning.courses_barred(uid uuid) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select c.id from public.courses c where c.organization_id in (select learning.orgs_barred(uid))
$$;

revoke all on function learning.orgs_barred(uuid), learning.courses_taught(uuid),
  learning.courses_enrolled(uuid), learning.courses_barred(uuid) from public;
grant execute on function learning.orgs_barred(uuid), learning.courses_taught(uuid),
  learning.courses_enrolled(uuid), learning.courses_barred(uuid)
  to anon, authenticated, service_role;

drop policy courses_read on public.courses;
create policy courses_read on public.courses for select to authenticated
  using (
    case
      when organization_id is null then owner_id = (select auth.uid())
      else learning.is_org_admin((select auth.uid()), organization_id)
        or (owner_id = (select auth.uid())
            and learning.holds((select auth.uid()), organization_id,
                               array['instructor', 'org_admin']))
    end
    or id in (select learning.courses_taught((select auth.uid())))
    or id in (select learning.courses_enrolled((select auth.uid())))
    or learning.in_catalogue((select auth.uid()), id)
  );

drop policy course_instructors_read on public.course_instructors;
create policy course_instructors_read on public.course_instructors for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );

drop policy modules_read on public.modules;
create policy modules_read on public.modules for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );

drop policy lessons_read on public.lessons;
create policy lessons_read on public.lessons for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );

drop policy assessments_read on public.assessments;
create policy assessments_read on public.assessments for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or (published and course_id in (select learning.courses_enrolled((select auth.uid()))))
  );

drop policy assignments_read on public.assignments;
create policy assignments_read on public.assignments for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );

drop policy enrollments_read on public.enrollments;
create policy enrollments_read on public.enrollments for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or (user_id = (select auth.uid())
        and course_id not in (select learning.courses_barred((select auth.uid()))))
  );

drop policy lesson_progress_read on public.lesson_progress;
create policy lesson_progress_read on public.lesson_progress for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or (user_id = (select auth.uid())
        and course_id not in (select learning.courses_barred((select auth.uid()))))
  );

drop policy assessment_attempts_read on public.assessment_attempts;
create policy assessment_attempts_read on public.assessment_attempts for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or (user_id = (select auth.uid())
        and course_id not in (select learning.courses_barred((select auth.uid()))))
  );

drop policy course_posts_read on public.course_posts;
create policy course_posts_read on public.course_posts for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );

drop policy questions_teach on public.questions;
create policy questions_teach on public.questions for all to authenticated
  using (course_id in (select learning.courses_taught((select auth.uid()))))
  with check (learning.teaches((select auth.uid()), course_id));
drop policy assessment_questions_teach on public.assessment_questions;
create policy assessment_questions_teach on public.assessment_questions for all to authenticated
  using (course_id in (select learning.courses_taught((select auth.uid()))))
  with check (learning.teaches((select auth.uid()), course_id));
