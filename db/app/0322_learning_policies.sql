-- Who may do what in the learning app (spec section 6, issue 11, decision 0100).
--
-- Every check reads memberships, course_instructors and enrollments as they are now, never the
-- token's claims, so a role change or a deactivation takes effect on the next statement. The
-- checks are SECURITY DEFINER functions because they read tables whose own policies call them
-- (without it, policies would recurse); each takes the user id and runs a few index lookups.
-- anon gets no privilege on any of these tables: the public catalogue is public.public_courses.

-- ----- role checks -------------------------------------------------------------------------

create or replace function learning.is_owner(uid uuid, org uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from public.organizations o where o.id = org and o.owner_id = uid)
$$;

-- An active membership in the organization with one of the roles (any board).
create or replace function learning.holds(uid uuid, org uuid, roles text[]) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.memberships m
     where m.user_id = uid and m.organization_id = org and m.active and m.role = any (roles)
  )
$$;

-- The owner, or an active organization-wide (not board) org_admin.
create or replace function learning.is_org_admin(uid uuid, org uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select learning.is_owner(uid, org)
      or exists (
        select 1 from public.memberships m
         where m.user_id = uid and m.organization_id = org and m.active
           and m.role = 'org_admin' and m.board_id is null
      )
$$;

create or replace function learning.is_member(uid uuid, org uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select learning.is_owner(uid, org)
      or learning.holds(uid, org, array['learner', 'instructor', 'org_admin', 'compliance_officer'])
$$;

-- A deactivated member: has memberships in the organization and none of them active. They
-- keep nothing of it, not even their own enrolments' rows, until reactivated.
create or replace function learning.is_barred(uid uuid, org uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select org is not null
     and not learning.is_owner(uid, org)
     and exists (select 1 from public.memberships m where m.user_id = uid and m.organization_id = org)
     and not exists (
       select 1 from public.memberships m
        where m.user_id = uid and m.organization_id = org and m.active
     )
$$;

create or replace function learning.administers_board(uid uuid, board uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.boards b
     where b.id = board
       and (
         learning.is_org_admin(uid, b.organization_id)
         or exists (
           select 1 from public.memberships m
            where m.user_id = uid and m.board_id = b.id and m.active and m.role = 'org_admin'
         )
       )
  )
$$;

create or replace function learning.course_org(course uuid) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select c.organization_id from public.courses c where c.id = course
$$;

-- Everything an instructor may do with the course: its instructors (while they hold an
-- active instructor or admin membership), its organization's admins, or the owner of a
-- personal course.
create or replace function learning.teaches(uid uuid, course uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.courses c
     where c.id = course
       and uid is not null
       and case
         when c.organization_id is null then c.owner_id = uid
         else learning.is_org_admin(uid, c.organization_id)
           or (
             exists (
               select 1 from public.course_instructors ci
                where ci.course_id = c.id and ci.user_id = uid
             )
             and learning.holds(uid, c.organization_id, array['instructor', 'org_admin'])
           )
       end
  )
$$;

create or replace function learning.enrolled(uid uuid, course uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.enrollments e
      join public.courses c on c.id = e.course_id
     where e.course_id = course and e.user_id = uid and e.status <> 'dropped'
       and not learning.is_barred(uid, c.organization_id)
  )
$$;

-- The catalogue: published courses the user may find and enrol in themself. Public ones for
-- everybody; an organization's own to its learning members (visibility 'organization') or
-- to the members of the boards the course is distributed to.
create or replace function learning.in_catalogue(uid uuid, course uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.courses c
     where c.id = course and c.published and uid is not null
       and not learning.is_barred(uid, c.organization_id)
       and (
         c.visibility = 'public'
         or (
           c.organization_id is not null
           and (
             (c.visibility = 'organization'
               and learning.holds(uid, c.organization_id, array['learner', 'instructor', 'org_admin']))
             or exists (
               select 1 from public.course_boards cb
                 join public.memberships m on m.board_id = cb.board_id
                where cb.course_id = c.id and m.user_id = uid and m.active
                  and m.role <> 'compliance_officer'
             )
           )
         )
       )
  )
$$;

create or replace function learning.can_read_course(uid uuid, course uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select learning.teaches(uid, course) or learning.enrolled(uid, course)
      or learning.in_catalogue(uid, course)
$$;

-- Personal data of another user: an admin of an organization they belong to, or someone who
-- teaches a course they are enrolled in.
create or replace function learning.oversees(uid uuid, person uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.memberships m
     where m.user_id = person and learning.is_org_admin(uid, m.organization_id)
  ) or exists (
    select 1 from public.enrollments e
     where e.user_id = person and learning.teaches(uid, e.course_id)
  )
$$;

-- Who may create, change or remove a membership: the owner for every one; an organization
-- admin for every one except the owner's and except naming board admins (the owner's job);
-- a board admin for learners and instructors of their board.
create or replace function learning.may_manage_membership(
  uid uuid, org uuid, board uuid, member_role text, member uuid
) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select learning.is_owner(uid, org)
      or (
        not learning.is_owner(member, org)
        and (
          (learning.is_org_admin(uid, org) and not (member_role = 'org_admin' and board is not null))
          or (board is not null and member_role in ('learner', 'instructor')
              and learning.administers_board(uid, board))
        )
      )
$$;

revoke all on all functions in schema learning from public;
grant execute on all functions in schema learning to anon, authenticated, service_role;

-- ----- has_role: the same checks for clients and policies ---------------------------------

-- has_role(uid, role, scope) answers for the caller only (see 0320):
--   'learner', course       enrolled in the course (and not deactivated in its organization)
--   'instructor', course    may do everything an instructor may with the course
--   'org_admin', org        the owner or an organization-wide admin
--   'owner', org            the organization's owner
--   'compliance_officer', org, 'member', org (any active role)
create or replace function public.has_role(uid uuid, role_name text, scope uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform learning.require_self(uid);
  return case role_name
    when 'learner' then learning.enrolled(uid, scope)
    when 'instructor' then learning.teaches(uid, scope)
    when 'org_admin' then learning.is_org_admin(uid, scope)
    when 'owner' then learning.is_owner(uid, scope)
    when 'compliance_officer' then learning.holds(uid, scope, array['compliance_officer'])
    when 'member' then learning.is_member(uid, scope)
    else false
  end;
end
$$;
revoke all on function public.has_role(uuid, text, uuid) from public;
grant execute on function public.has_role(uuid, text, uuid) to anon, authenticated, service_role;

-- ----- role names in user_roles follow memberships ----------------------------------------

-- user_roles keeps one row per (user, role, organization) the user actively holds, so the
-- token's app_metadata.roles lists them; the rows of an organization are rewritten from its
-- memberships whenever one changes.
create or replace function learning.sync_user_roles() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  affected record;
begin
  for affected in
    select distinct r.user_id, r.organization_id
      from (
        select o.user_id, o.organization_id from old_rows o
        union all
        select n.user_id, n.organization_id from new_rows n
      ) r
  loop
    delete from public.user_roles u
     where u.user_id = affected.user_id and u.organization_id = affected.organization_id;
    insert into public.user_roles (user_id, role, organization_id)
    select distinct m.user_id, m.role, m.organization_id
      from public.memberships m
     where m.user_id = affected.user_id and m.organization_id = affected.organization_id
       and m.active
    on conflict do nothing;
  end loop;
  return null;
end
$$;

-- Transition tables cannot name both sides on insert or delete; three small triggers share
-- the function through empty stand-ins.
create or replace function learning.sync_user_roles_insert() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from public.user_roles u
   using (select distinct user_id, organization_id from new_rows) n
   where u.user_id = n.user_id and u.organization_id = n.organization_id;
  insert into public.user_roles (user_id, role, organization_id)
  select distinct m.user_id, m.role, m.organization_id
    from public.memberships m
    join (select distinct user_id, organization_id from new_rows) n
      on n.user_id = m.user_id and n.organization_id = m.organization_id
   where m.active
  on conflict do nothing;
  return null;
end
$$;

create or replace function learning.sync_user_roles_delete() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from public.user_roles u
   using (select distinct user_id, organization_id from old_rows) o
   where u.user_id = o.user_id and u.organization_id = o.organization_id;
  insert into public.user_roles (user_id, role, organization_id)
  select distinct m.user_id, m.role, m.organization_id
    from public.memberships m
    join (select distinct user_id, organization_id from old_rows) o
      on o.user_id = m.user_id and o.organization_id = m.organization_id
   where m.active
  on conflict do nothing;
  return null;
end
$$;

create trigger sync_user_roles_insert after insert on public.memberships
  referencing new table as new_rows
  for each statement execute function learning.sync_user_roles_insert();
create trigger sync_user_roles_update after update on public.memberships
  referencing old table as old_rows new table as new_rows
  for each statement execute function learning.sync_user_roles();
create trigger sync_user_roles_delete after delete on public.memberships
  referencing old table as old_rows
  for each statement execute function learning.sync_user_roles_delete();

-- The owner of a new organization is its first admin.
create or replace function learning.add_owner_membership() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.owner_id is not null then
    insert into public.memberships (user_id, organization_id, role, created_by)
    values (new.owner_id, new.id, 'org_admin', new.owner_id)
    on conflict do nothing;
  end if;
  return null;
end
$$;
create trigger add_owner_membership after insert on public.organizations
  for each row execute function learning.add_owner_membership();

-- An instructor who creates an organization's course teaches it.
create or replace function learning.add_creator_as_instructor() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.organization_id is not null and auth.uid() is not null
     and learning.holds(auth.uid(), new.organization_id, array['instructor', 'org_admin']) then
    insert into public.course_instructors (course_id, user_id, added_by)
    values (new.id, auth.uid(), auth.uid())
    on conflict do nothing;
  end if;
  return null;
end
$$;
create trigger add_creator_as_instructor after insert on public.courses
  for each row execute function learning.add_creator_as_instructor();

-- An enrolment's progress_percent (which the platform metrics' completion split reads) follows
-- the learner's completed lessons; clients cannot write it.
create or replace function learning.update_enrollment_progress() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.enrollments e
     set progress_percent = p.percent,
         status = case when p.percent = 100 and e.status = 'active' then 'completed' else e.status end,
         completed_at = case when p.percent = 100 then coalesce(e.completed_at, now()) else null end
    from (
      select t.user_id, t.course_id,
             (100 * (select count(*) from public.lesson_progress lp
                      where lp.user_id = t.user_id and lp.course_id = t.course_id
                        and lp.status = 'completed')
                  / greatest((select count(*) from public.lessons l where l.course_id = t.course_id), 1)
             )::smallint as percent
        from (select distinct user_id, course_id from new_rows) t
    ) p
   where e.user_id = p.user_id and e.course_id = p.course_id
     and e.progress_percent is distinct from least(p.percent, 100);
  return null;
end
$$;
create trigger update_enrollment_progress_insert after insert on public.lesson_progress
  referencing new table as new_rows
  for each statement execute function learning.update_enrollment_progress();
create trigger update_enrollment_progress_update after update on public.lesson_progress
  referencing new table as new_rows
  for each statement execute function learning.update_enrollment_progress();

-- ----- policies ----------------------------------------------------------------------------

alter table public.organizations enable row level security;
alter table public.boards enable row level security;
alter table public.memberships enable row level security;
alter table public.course_boards enable row level security;
alter table public.course_instructors enable row level security;
alter table public.modules enable row level security;
alter table public.lessons enable row level security;
alter table public.questions enable row level security;
alter table public.lesson_progress enable row level security;
alter table public.assessments enable row level security;
alter table public.assessment_questions enable row level security;
alter table public.assignments enable row level security;
alter table public.assessment_attempts enable row level security;
alter table public.course_posts enable row level security;

create policy organizations_read on public.organizations for select to authenticated
  using (learning.is_member(auth.uid(), id));
create policy organizations_update on public.organizations for update to authenticated
  using (learning.is_org_admin(auth.uid(), id))
  with check (learning.is_org_admin(auth.uid(), id));

create policy boards_read on public.boards for select to authenticated
  using (learning.is_member(auth.uid(), organization_id));
create policy boards_insert on public.boards for insert to authenticated
  with check (learning.is_owner(auth.uid(), organization_id));
create policy boards_update on public.boards for update to authenticated
  using (learning.is_owner(auth.uid(), organization_id))
  with check (learning.is_owner(auth.uid(), organization_id));
create policy boards_delete on public.boards for delete to authenticated
  using (learning.is_owner(auth.uid(), organization_id));

create policy memberships_read on public.memberships for select to authenticated
  using (
    (user_id = auth.uid() and active)
    or learning.is_org_admin(auth.uid(), organization_id)
    or (board_id is not null and learning.administers_board(auth.uid(), board_id))
  );
create policy memberships_insert on public.memberships for insert to authenticated
  with check (
    created_by = auth.uid()
    and learning.may_manage_membership(auth.uid(), organization_id, board_id, role, user_id)
  );
create policy memberships_update on public.memberships for update to authenticated
  using (learning.may_manage_membership(auth.uid(), organization_id, board_id, role, user_id))
  with check (learning.may_manage_membership(auth.uid(), organization_id, board_id, role, user_id));
create policy memberships_delete on public.memberships for delete to authenticated
  using (learning.may_manage_membership(auth.uid(), organization_id, board_id, role, user_id));

-- Courses: replaces 0300's owner-only policies (and its read policy for anon).
drop policy courses_read on public.courses;
drop policy courses_insert on public.courses;
drop policy courses_update on public.courses;
drop policy courses_delete on public.courses;
-- The first branch reads only the row's own columns: a new course must pass it within its
-- INSERT ... RETURNING, when functions that look the course up cannot see it yet.
create policy courses_read on public.courses for select to authenticated
  using (
    case
      when organization_id is null then owner_id = auth.uid()
      else learning.is_org_admin(auth.uid(), organization_id)
        or (owner_id = auth.uid()
            and learning.holds(auth.uid(), organization_id, array['instructor', 'org_admin']))
    end
    or learning.can_read_course(auth.uid(), id)
  );
create policy courses_insert on public.courses for insert to authenticated
  with check (
    case
      when organization_id is null then owner_id = auth.uid()
      else learning.is_org_admin(auth.uid(), organization_id)
        or learning.holds(auth.uid(), organization_id, array['instructor', 'org_admin'])
    end
  );
create policy courses_update on public.courses for update to authenticated
  using (learning.teaches(auth.uid(), id))
  with check (
    learning.teaches(auth.uid(), id)
    and (organization_id is not null or owner_id = auth.uid())
  );
create policy courses_delete on public.courses for delete to authenticated
  using (
    case
      when organization_id is null then owner_id = auth.uid()
      else learning.is_org_admin(auth.uid(), organization_id)
    end
  );

create policy course_boards_read on public.course_boards for select to authenticated
  using (
    learning.is_owner(auth.uid(), organization_id)
    or learning.holds(auth.uid(), organization_id, array['learner', 'instructor', 'org_admin'])
  );
create policy course_boards_insert on public.course_boards for insert to authenticated
  with check (learning.is_owner(auth.uid(), organization_id));
create policy course_boards_delete on public.course_boards for delete to authenticated
  using (learning.is_owner(auth.uid(), organization_id));

create policy course_instructors_read on public.course_instructors for select to authenticated
  using (learning.teaches(auth.uid(), course_id) or learning.enrolled(auth.uid(), course_id));
create policy course_instructors_insert on public.course_instructors for insert to authenticated
  with check (
    added_by = auth.uid()
    and learning.is_org_admin(auth.uid(), learning.course_org(course_id))
    and learning.holds(user_id, learning.course_org(course_id), array['instructor', 'org_admin'])
  );
create policy course_instructors_delete on public.course_instructors for delete to authenticated
  using (learning.is_org_admin(auth.uid(), learning.course_org(course_id)));

-- Course content: read by whoever teaches or is enrolled, written by whoever teaches.
create policy modules_read on public.modules for select to authenticated
  using (learning.teaches(auth.uid(), course_id) or learning.enrolled(auth.uid(), course_id));
create policy modules_write on public.modules for all to authenticated
  using (learning.teaches(auth.uid(), course_id))
  with check (learning.teaches(auth.uid(), course_id));

create policy lessons_read on public.lessons for select to authenticated
  using (learning.teaches(auth.uid(), course_id) or learning.enrolled(auth.uid(), course_id));
create policy lessons_write on public.lessons for all to authenticated
  using (learning.teaches(auth.uid(), course_id))
  with check (learning.teaches(auth.uid(), course_id));

-- The bank holds the answers: only those who teach read it. Learners see a quiz's questions
-- without answers through get_assessment_questions().
create policy questions_teach on public.questions for all to authenticated
  using (learning.teaches(auth.uid(), course_id))
  with check (learning.teaches(auth.uid(), course_id));
create policy assessment_questions_teach on public.assessment_questions for all to authenticated
  using (learning.teaches(auth.uid(), course_id))
  with check (learning.teaches(auth.uid(), course_id));

create policy assessments_read on public.assessments for select to authenticated
  using (
    learning.teaches(auth.uid(), course_id)
    or (published and learning.enrolled(auth.uid(), course_id))
  );
create policy assessments_write on public.assessments for all to authenticated
  using (learning.teaches(auth.uid(), course_id))
  with check (learning.teaches(auth.uid(), course_id));

create policy assignments_read on public.assignments for select to authenticated
  using (learning.teaches(auth.uid(), course_id) or learning.enrolled(auth.uid(), course_id));
create policy assignments_insert on public.assignments for insert to authenticated
  with check (assigned_by = auth.uid() and learning.teaches(auth.uid(), course_id));
create policy assignments_update on public.assignments for update to authenticated
  using (learning.teaches(auth.uid(), course_id))
  with check (learning.teaches(auth.uid(), course_id));
create policy assignments_delete on public.assignments for delete to authenticated
  using (learning.teaches(auth.uid(), course_id));

-- Enrolments: replaces 0300's policies, under which a learner could set their own progress.
drop policy enrollments_read on public.enrollments;
drop policy enrollments_insert on public.enrollments;
drop policy enrollments_update on public.enrollments;
drop policy enrollments_delete on public.enrollments;
create policy enrollments_read on public.enrollments for select to authenticated
  using (
    (user_id = auth.uid() and not learning.is_barred(auth.uid(), learning.course_org(course_id)))
    or learning.teaches(auth.uid(), course_id)
  );
-- Self-enrolment in a catalogue course or in one the user teaches (a personal course's owner
-- studies their own), or an organization admin enrolling a member.
create policy enrollments_insert on public.enrollments for insert to authenticated
  with check (
    enrolled_by = auth.uid()
    and (
      (user_id = auth.uid()
        and (learning.in_catalogue(auth.uid(), course_id) or learning.teaches(auth.uid(), course_id)))
      or (
        learning.is_org_admin(auth.uid(), learning.course_org(course_id))
        and learning.holds(user_id, learning.course_org(course_id),
                           array['learner', 'instructor', 'org_admin'])
      )
    )
  );
create policy enrollments_update on public.enrollments for update to authenticated
  using (learning.is_org_admin(auth.uid(), learning.course_org(course_id)))
  with check (learning.is_org_admin(auth.uid(), learning.course_org(course_id)));
create policy enrollments_delete on public.enrollments for delete to authenticated
  using (
    (user_id = auth.uid() and not learning.is_barred(auth.uid(), learning.course_org(course_id)))
    or learning.is_org_admin(auth.uid(), learning.course_org(course_id))
  );

create policy lesson_progress_read on public.lesson_progress for select to authenticated
  using (
    (user_id = auth.uid() and not learning.is_barred(auth.uid(), learning.course_org(course_id)))
    or learning.teaches(auth.uid(), course_id)
  );
create policy lesson_progress_insert on public.lesson_progress for insert to authenticated
  with check (user_id = auth.uid() and learning.enrolled(auth.uid(), course_id));
create policy lesson_progress_update on public.lesson_progress for update to authenticated
  using (user_id = auth.uid() and learning.enrolled(auth.uid(), course_id))
  with check (user_id = auth.uid() and learning.enrolled(auth.uid(), course_id));

-- Attempts are written only by submit_assessment_attempt and grade_assessment_attempt.
create policy assessment_attempts_read on public.assessment_attempts for select to authenticated
  using (
    (user_id = auth.uid() and not learning.is_barred(auth.uid(), learning.course_org(course_id)))
    or learning.teaches(auth.uid(), course_id)
  );

create policy course_posts_read on public.course_posts for select to authenticated
  using (learning.teaches(auth.uid(), course_id) or learning.enrolled(auth.uid(), course_id));
create policy course_posts_insert on public.course_posts for insert to authenticated
  with check (
    author_id = auth.uid()
    and (learning.teaches(auth.uid(), course_id) or learning.enrolled(auth.uid(), course_id))
  );
create policy course_posts_update on public.course_posts for update to authenticated
  using (
    author_id = auth.uid()
    and (learning.teaches(auth.uid(), course_id) or learning.enrolled(auth.uid(), course_id))
  )
  with check (author_id = auth.uid());
create policy course_posts_delete on public.course_posts for delete to authenticated
  using (
    (author_id = auth.uid() and learning.enrolled(auth.uid(), course_id))
    or learning.teaches(auth.uid(), course_id)
  );

-- Profiles and user_roles: an org_admin of one organization no longer reads every profile.
drop policy profiles_select_own on public.profiles;
create policy profiles_select_own on public.profiles for select to authenticated
  using (
    id = auth.uid()
    or public.has_role(auth.uid(), 'admin')
    or learning.oversees(auth.uid(), id)
  );
drop policy user_roles_select on public.user_roles;
create policy user_roles_select on public.user_roles for select to authenticated
  using (
    user_id = auth.uid()
    or public.has_role(auth.uid(), 'admin')
    or (organization_id is not null and learning.is_org_admin(auth.uid(), organization_id))
  );
-- Platform admins assign platform roles; organization roles come from memberships.
drop policy user_roles_admin_write on public.user_roles;
create policy user_roles_admin_write on public.user_roles for all to authenticated
  using (organization_id is null and public.has_role(auth.uid(), 'admin'))
  with check (organization_id is null and public.has_role(auth.uid(), 'admin'));

-- ----- privileges --------------------------------------------------------------------------

revoke all on public.organizations, public.boards, public.memberships, public.courses,
  public.course_boards, public.course_instructors, public.modules, public.lessons,
  public.questions, public.enrollments, public.lesson_progress, public.assessments,
  public.assessment_questions, public.assignments, public.assessment_attempts,
  public.course_posts
  from anon, authenticated;

grant select on public.organizations to authenticated;
grant update (name, struggle_threshold, settings) on public.organizations to authenticated;
grant select, insert, delete on public.boards to authenticated;
grant update (name, slug) on public.boards to authenticated;
grant select, insert, delete on public.memberships to authenticated;
grant update (board_id, role, active) on public.memberships to authenticated;
grant select, insert, delete on public.courses to authenticated;
grant update (title, slug, subject, description, published, visibility) on public.courses
  to authenticated;
grant select, insert, delete on public.course_boards, public.course_instructors to authenticated;
grant select, insert, update, delete on public.modules, public.lessons, public.questions,
  public.assessments, public.assessment_questions, public.assignments to authenticated;
grant select, delete on public.enrollments to authenticated;
grant insert (user_id, course_id) on public.enrollments to authenticated;
grant update (status) on public.enrollments to authenticated;
grant select on public.lesson_progress to authenticated;
-- lesson_id and course_id are updatable only so that an upsert can name them; the keep_columns
-- trigger refuses any change to them.
grant insert (lesson_id, course_id, status, position, time_spent_seconds, completed_at),
  update (lesson_id, course_id, status, position, time_spent_seconds, completed_at)
  on public.lesson_progress to authenticated;
grant select on public.assessment_attempts to authenticated;
grant select, delete on public.course_posts to authenticated;
grant insert (course_id, parent_id, body), update (body) on public.course_posts to authenticated;

grant all on public.organizations, public.boards, public.memberships, public.course_boards,
  public.course_instructors, public.modules, public.lessons, public.questions,
  public.lesson_progress, public.assessments, public.assessment_questions, public.assignments,
  public.assessment_attempts, public.course_posts
  to service_role;
