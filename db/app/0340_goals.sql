-- Goals for learners (issue 11, decision 0125): an instructor sets one for a learner of a
-- course they teach (complete the course or a module, reach a score on a quiz, by a date), a
-- learner sets their own. The goals feature (a later issue) reads and extends this table.
--
-- Who: learners read their own goals and write the ones they set themselves; whoever teaches
-- the course (its instructors, the organization's admins, a personal course's owner) reads and
-- manages every goal in it; board admins, compliance officers and everybody else get nothing.

create table public.goals (
  id uuid primary key default gen_random_uuid(),
  -- The learner the goal is for.
  user_id uuid not null references auth.users (id) on delete cascade default auth.uid(),
  -- Null only for a learner's own goal outside any course (kind 'custom').
  course_id uuid references public.courses (id) on delete cascade,
  -- Who set it: the learner, or someone who teaches the course. Never written by clients.
  set_by uuid references auth.users (id) on delete set null default auth.uid(),
  kind text not null check (kind in ('complete_course', 'complete_module', 'reach_score', 'custom')),
  module_id uuid,
  assessment_id uuid,
  -- reach_score: the percent to reach on the quiz.
  target_score numeric(5, 2) check (target_score is null or target_score between 0 and 100),
  title text not null check (length(trim(title)) between 1 and 200),
  note text not null default '' check (length(note) <= 2000),
  due_on date,
  achieved_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (module_id, course_id) references public.modules (id, course_id) on delete cascade,
  foreign key (assessment_id, course_id)
    references public.assessments (id, course_id) on delete cascade,
  constraint goals_target_matches_kind check (
    case kind
      when 'complete_course' then
        course_id is not null and module_id is null and assessment_id is null and target_score is null
      when 'complete_module' then
        module_id is not null and assessment_id is null and target_score is null
      when 'reach_score' then
        assessment_id is not null and target_score is not null and module_id is null
      else module_id is null and assessment_id is null and target_score is null
    end
  )
);
-- A learner's goals, newest first; a course's goals for its instructors.
create index goals_user_idx on public.goals (user_id, created_at desc);
create index goals_course_idx on public.goals (course_id, user_id);

create trigger touch_updated_at before update on public.goals
  for each row execute function learning.touch_updated_at();
create trigger keep_columns before update on public.goals
  for each row execute function learning.keep_columns('user_id', 'course_id');

alter table public.goals enable row level security;

create policy goals_read on public.goals for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or (user_id = (select auth.uid())
        and (course_id is null
             or course_id not in (select learning.courses_barred((select auth.uid())))))
  );
-- A learner sets their own goal (in a course they are enrolled in, or outside any course);
-- whoever teaches a course sets one for a learner enrolled in it.
create policy goals_insert on public.goals for insert to authenticated
  with check (
    set_by = auth.uid()
    and (
      (user_id = auth.uid()
        and (course_id is null or learning.enrolled(auth.uid(), course_id)))
      or (course_id is not null
        and learning.teaches(auth.uid(), course_id)
        and learning.enrolled(user_id, course_id))
    )
  );
create policy goals_update on public.goals for update to authenticated
  using (
    (user_id = auth.uid() and set_by = auth.uid()
      and (course_id is null or learning.enrolled(auth.uid(), course_id)))
    or (course_id is not null and learning.teaches(auth.uid(), course_id))
  )
  with check (
    (user_id = auth.uid() and set_by = auth.uid()
      and (course_id is null or learning.enrolled(auth.uid(), course_id)))
    or (course_id is not null and learning.teaches(auth.uid(), course_id))
  );
create policy goals_delete on public.goals for delete to authenticated
  using (
    (user_id = auth.uid() and set_by = auth.uid()
      and (course_id is null or learning.enrolled(auth.uid(), course_id)))
    or (course_id is not null and learning.teaches(auth.uid(), course_id))
  );

revoke all on public.goals from anon, authenticated;
grant select, delete on public.goals to authenticated;
-- set_by is not granted: it is always the writer (its default), so nobody signs a goal as
-- someone else.
grant insert (id, user_id, course_id, kind, module_id, assessment_id, target_score, title, note,
  due_on) on public.goals to authenticated;
grant update (kind, module_id, assessment_id, target_score, title, note, due_on, achieved_at)
  on public.goals to authenticated;
grant all on public.goals to service_role;
