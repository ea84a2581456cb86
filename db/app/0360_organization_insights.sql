-- Organization analytics from maintained counters (issue 11, decision 0135).
--
-- Counting a million enrolments or ten million progress rows per request is too slow for the
-- admin screens, so triggers keep the figures as the rows change, as 0301 does for the platform
-- metrics. Three layers:
--
-- 1. learning.enrollment_facts: one row per (course, learner) of an organization's course with
--    what the counters need: enrolled (not dropped), completed, the sum and number of graded
--    quiz scores, and the UTC day of the learner's latest activity in the course (the latest
--    lesson_progress.updated_at or assessment_attempts.submitted_at). A statement on
--    enrollments, lesson_progress or assessment_attempts recomputes the facts of the pairs it
--    touched from their own rows (a few index lookups per pair) and applies the difference.
-- 2. Counters, read by the analytics procedures: per course (public.course_stats) and per
--    board and course (public.board_course_stats) the enrolments, completions and score sums;
--    and "learners by the day of their latest activity" per course, organization and board
--    (public.*_activity_days). Because each learner sits in exactly one day bucket (their
--    latest), "active in the last 7 days" is the sum of 7 buckets: exact, distinct learners,
--    whatever the number of progress rows.
-- 3. A board's figures are those of its learners (active `learner` memberships of the board),
--    in every course of the organization; learning.board_learners mirrors that set so a
--    membership change adds or removes exactly what was counted.
--
-- The counters carry no foreign keys (a cascade may remove a course before its rows' triggers
-- run); deletes of courses, boards and organizations clear their counters, and the triggers
-- only touch counters of courses and boards that still exist.

-- ----- bookkeeping (schema learning: not exposed over REST) ---------------------------------

create table learning.enrollment_facts (
  course_id uuid not null,
  user_id uuid not null,
  organization_id uuid not null,
  enrolled boolean not null,
  completed boolean not null,
  score_sum numeric not null,
  score_count int not null,
  last_active_day date,
  primary key (course_id, user_id)
);
create index enrollment_facts_user_idx on learning.enrollment_facts (user_id, organization_id);

create table learning.organization_learner_days (
  organization_id uuid not null,
  user_id uuid not null,
  last_active_day date not null,
  primary key (organization_id, user_id)
);

create table learning.board_learners (
  board_id uuid not null,
  user_id uuid not null,
  organization_id uuid not null,
  primary key (board_id, user_id)
);
create index board_learners_user_idx on learning.board_learners (user_id);

create table learning.board_learner_days (
  board_id uuid not null,
  user_id uuid not null,
  last_active_day date not null,
  primary key (board_id, user_id)
);

alter table learning.enrollment_facts enable row level security;
alter table learning.organization_learner_days enable row level security;
alter table learning.board_learners enable row level security;
alter table learning.board_learner_days enable row level security;
revoke all on learning.enrollment_facts, learning.organization_learner_days,
  learning.board_learners, learning.board_learner_days from public, anon, authenticated;

-- ----- counters (public, read-only, RLS) ---------------------------------------------------

create table public.course_stats (
  course_id uuid primary key,
  organization_id uuid not null,
  enrollments int not null default 0,
  completions int not null default 0,
  score_sum numeric not null default 0,
  score_count int not null default 0
);
create index course_stats_org_idx on public.course_stats (organization_id);

create table public.course_activity_days (
  course_id uuid not null,
  day date not null,
  organization_id uuid not null,
  learners int not null default 0,
  primary key (course_id, day)
);

create table public.organization_activity_days (
  organization_id uuid not null,
  day date not null,
  learners int not null default 0,
  primary key (organization_id, day)
);

create table public.board_course_stats (
  board_id uuid not null,
  course_id uuid not null,
  organization_id uuid not null,
  enrollments int not null default 0,
  completions int not null default 0,
  score_sum numeric not null default 0,
  score_count int not null default 0,
  primary key (board_id, course_id)
);
create index board_course_stats_course_idx on public.board_course_stats (course_id);

create table public.board_activity_days (
  board_id uuid not null,
  day date not null,
  organization_id uuid not null,
  learners int not null default 0,
  primary key (board_id, day)
);

-- ----- keeping them ------------------------------------------------------------------------

create or replace function learning.utc_day(ts timestamptz) returns date
language sql immutable parallel safe
set search_path = ''
as $$ select (ts at time zone 'UTC')::date $$;

-- Recomputes the facts of the given (course, learner) pairs and moves the course and board
-- counters by the difference; then the learners' organization and board activity days.
create or replace function learning.refresh_enrollment_facts(p_courses uuid[], p_users uuid[])
returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  with pairs as (
    select distinct t.course_id, t.user_id from unnest(p_courses, p_users) as t(course_id, user_id)
  ),
  fresh as (
    select p.course_id, p.user_id, c.organization_id,
           coalesce(e.status <> 'dropped', false) as enrolled,
           coalesce(e.status = 'completed', false) as completed,
           coalesce(a.score_sum, 0) as score_sum,
           coalesce(a.score_count, 0)::int as score_count,
           learning.utc_day(greatest(lp.last_at, a.last_at)) as last_active_day
      from pairs p
      join public.courses c on c.id = p.course_id and c.organization_id is not null
      left join public.enrollments e on e.course_id = p.course_id and e.user_id = p.user_id
      left join lateral (
        select max(l.updated_at) as last_at from public.lesson_progress l
         where l.course_id = p.course_id and l.user_id = p.user_id
      ) lp on true
      left join lateral (
        select sum(x.score) as score_sum, count(x.score) as score_count,
               max(x.submitted_at) as last_at
          from public.assessment_attempts x
         where x.course_id = p.course_id and x.user_id = p.user_id
      ) a on true
  ),
  kept as (
    select * from fresh f
     where f.enrolled or f.completed or f.score_count > 0 or f.last_active_day is not null
  ),
  old as (
    select f.* from learning.enrollment_facts f
      join pairs p on p.course_id = f.course_id and p.user_id = f.user_id
  ),
  diff as (
    select coalesce(n.course_id, o.course_id) as course_id,
           coalesce(n.user_id, o.user_id) as user_id,
           coalesce(n.organization_id, o.organization_id) as organization_id,
           coalesce(n.enrolled::int, 0) - coalesce(o.enrolled::int, 0) as d_enrolled,
           coalesce(n.completed::int, 0) - coalesce(o.completed::int, 0) as d_completed,
           coalesce(n.score_sum, 0) - coalesce(o.score_sum, 0) as d_score_sum,
           coalesce(n.score_count, 0) - coalesce(o.score_count, 0) as d_score_count,
           o.last_active_day as old_day,
           n.last_active_day as new_day
      from kept n
      full join old o on o.course_id = n.course_id and o.user_id = n.user_id
  ),
  -- Only courses that still exist keep counters (a deleted course's rows go with it).
  live as (
    select d.* from diff d where exists (select 1 from public.courses c where c.id = d.course_id)
  ),
  course_totals as (
    insert into public.course_stats as s
      (course_id, organization_id, enrollments, completions, score_sum, score_count)
    select course_id, organization_id, sum(d_enrolled), sum(d_completed), sum(d_score_sum),
           sum(d_score_count)
      from live
     group by course_id, organization_id
    having sum(abs(d_enrolled)) + sum(abs(d_completed)) + sum(abs(d_score_count)) > 0
        or sum(d_score_sum) <> 0
    on conflict (course_id) do update
      set enrollments = s.enrollments + excluded.enrollments,
          completions = s.completions + excluded.completions,
          score_sum = s.score_sum + excluded.score_sum,
          score_count = s.score_count + excluded.score_count
  ),
  course_days as (
    insert into public.course_activity_days as s (course_id, day, organization_id, learners)
    select course_id, day, organization_id, sum(delta)
      from (
        select course_id, old_day as day, organization_id, -1 as delta from live
         where old_day is distinct from new_day and old_day is not null
        union all
        select course_id, new_day, organization_id, 1 from live
         where old_day is distinct from new_day and new_day is not null
      ) moves
     group by course_id, day, organization_id
    on conflict (course_id, day) do update set learners = s.learners + excluded.learners
  ),
  board_totals as (
    insert into public.board_course_stats as s
      (board_id, course_id, organization_id, enrollments, completions, score_sum, score_count)
    select b.board_id, d.course_id, d.organization_id, sum(d.d_enrolled), sum(d.d_completed),
           sum(d.d_score_sum), sum(d.d_score_count)
      from live d
      join learning.board_learners b
        on b.user_id = d.user_id and b.organization_id = d.organization_id
     group by b.board_id, d.course_id, d.organization_id
    having sum(abs(d.d_enrolled)) + sum(abs(d.d_completed)) + sum(abs(d.d_score_count)) > 0
        or sum(d.d_score_sum) <> 0
    on conflict (board_id, course_id) do update
      set enrollments = s.enrollments + excluded.enrollments,
          completions = s.completions + excluded.completions,
          score_sum = s.score_sum + excluded.score_sum,
          score_count = s.score_count + excluded.score_count
  ),
  gone as (
    delete from learning.enrollment_facts f
     using old o
     where f.course_id = o.course_id and f.user_id = o.user_id
       and not exists (select 1 from kept k where k.course_id = o.course_id and k.user_id = o.user_id)
  )
  insert into learning.enrollment_facts as f
    (course_id, user_id, organization_id, enrolled, completed, score_sum, score_count,
     last_active_day)
  select course_id, user_id, organization_id, enrolled, completed, score_sum, score_count,
         last_active_day
    from kept
  on conflict (course_id, user_id) do update
    set enrolled = excluded.enrolled, completed = excluded.completed,
        score_sum = excluded.score_sum, score_count = excluded.score_count,
        last_active_day = excluded.last_active_day;

  perform learning.refresh_learner_days(p_users);
end
$$;

-- Each learner's latest active day in the organization and in each of their boards (the
-- maximum over their facts), and the day buckets moved by the difference.
create or replace function learning.refresh_learner_days(p_users uuid[]) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  with users as (select distinct u as user_id from unnest(p_users) u),
  fresh as (
    select f.organization_id, f.user_id, max(f.last_active_day) as last_active_day
      from learning.enrollment_facts f
      join users u on u.user_id = f.user_id
     group by f.organization_id, f.user_id
    having max(f.last_active_day) is not null
  ),
  old as (
    select d.* from learning.organization_learner_days d join users u on u.user_id = d.user_id
  ),
  diff as (
    select coalesce(n.organization_id, o.organization_id) as organization_id,
           coalesce(n.user_id, o.user_id) as user_id,
           o.last_active_day as old_day, n.last_active_day as new_day
      from fresh n
      full join old o on o.organization_id = n.organization_id and o.user_id = n.user_id
     where o.last_active_day is distinct from n.last_active_day
  ),
  days as (
    insert into public.organization_activity_days as s (organization_id, day, learners)
    select organization_id, day, sum(delta)
      from (
        select organization_id, old_day as day, -1 as delta from diff where old_day is not null
        union all
        select organization_id, new_day, 1 from diff where new_day is not null
      ) moves
     where exists (select 1 from public.organizations o where o.id = moves.organization_id)
     group by organization_id, day
    on conflict (organization_id, day) do update set learners = s.learners + excluded.learners
  ),
  gone as (
    delete from learning.organization_learner_days d
     using diff
     where d.organization_id = diff.organization_id and d.user_id = diff.user_id
       and diff.new_day is null
  )
  insert into learning.organization_learner_days as d (organization_id, user_id, last_active_day)
  select organization_id, user_id, new_day from diff where new_day is not null
  on conflict (organization_id, user_id) do update set last_active_day = excluded.last_active_day;

  -- A board learner's latest day is their organization's latest day.
  with users as (select distinct u as user_id from unnest(p_users) u),
  fresh as (
    select b.board_id, b.organization_id, b.user_id, d.last_active_day
      from learning.board_learners b
      join users u on u.user_id = b.user_id
      join learning.organization_learner_days d
        on d.organization_id = b.organization_id and d.user_id = b.user_id
  ),
  old as (
    select d.*, b.organization_id
      from learning.board_learner_days d
      join users u on u.user_id = d.user_id
      left join public.boards b on b.id = d.board_id
  ),
  diff as (
    select coalesce(n.board_id, o.board_id) as board_id,
           coalesce(n.organization_id, o.organization_id) as organization_id,
           coalesce(n.user_id, o.user_id) as user_id,
           o.last_active_day as old_day, n.last_active_day as new_day
      from fresh n
      full join old o on o.board_id = n.board_id and o.user_id = n.user_id
     where o.last_active_day is distinct from n.last_active_day
  ),
  days as (
    insert into public.board_activity_days as s (board_id, day, organization_id, learners)
    select board_id, day, organization_id, sum(delta)
      from (
        select board_id, old_day as day, organization_id, -1 as delta from diff
         where old_day is not null
        union all
        select board_id, new_day, organization_id, 1 from diff where new_day is not null
      ) moves
     where organization_id is not null
       and exists (select 1 from public.boards b where b.id = moves.board_id)
     group by board_id, day, organization_id
    on conflict (board_id, day) do update set learners = s.learners + excluded.learners
  ),
  gone as (
    delete from learning.board_learner_days d
     using diff
     where d.board_id = diff.board_id and d.user_id = diff.user_id and diff.new_day is null
  )
  insert into learning.board_learner_days as d (board_id, user_id, last_active_day)
  select board_id, user_id, new_day from diff where new_day is not null
  on conflict (board_id, user_id) do update set last_active_day = excluded.last_active_day;
end
$$;

-- Brings learning.board_learners in line with the memberships of the given users: a learner
-- who joins a board adds their facts to its counters, one who leaves (or is deactivated, or
-- becomes something else) takes them away.
create or replace function learning.refresh_board_learners(p_users uuid[]) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  with users as (select distinct u as user_id from unnest(p_users) u),
  wanted as (
    select distinct m.board_id, m.user_id, m.organization_id
      from public.memberships m
      join users u on u.user_id = m.user_id
     where m.board_id is not null and m.active and m.role = 'learner'
  ),
  current as (
    select b.* from learning.board_learners b join users u on u.user_id = b.user_id
  ),
  moves as (
    select w.board_id, w.user_id, w.organization_id, 1 as sign from wanted w
     where not exists (select 1 from current c where c.board_id = w.board_id and c.user_id = w.user_id)
    union all
    select c.board_id, c.user_id, c.organization_id, -1 from current c
     where not exists (select 1 from wanted w where w.board_id = c.board_id and w.user_id = c.user_id)
  ),
  board_totals as (
    insert into public.board_course_stats as s
      (board_id, course_id, organization_id, enrollments, completions, score_sum, score_count)
    select m.board_id, f.course_id, f.organization_id,
           sum(m.sign * f.enrolled::int), sum(m.sign * f.completed::int),
           sum(m.sign * f.score_sum), sum(m.sign * f.score_count)
      from moves m
      join learning.enrollment_facts f
        on f.user_id = m.user_id and f.organization_id = m.organization_id
     where exists (select 1 from public.boards b where b.id = m.board_id)
     group by m.board_id, f.course_id, f.organization_id
    on conflict (board_id, course_id) do update
      set enrollments = s.enrollments + excluded.enrollments,
          completions = s.completions + excluded.completions,
          score_sum = s.score_sum + excluded.score_sum,
          score_count = s.score_count + excluded.score_count
  ),
  gone as (
    delete from learning.board_learners b
     using moves m
     where m.sign = -1 and b.board_id = m.board_id and b.user_id = m.user_id
  )
  insert into learning.board_learners (board_id, user_id, organization_id)
  select board_id, user_id, organization_id from moves where sign = 1;

  perform learning.refresh_learner_days(p_users);
end
$$;

-- Statement triggers: the pairs a statement touched, old and new.
create or replace function learning.insights_pairs_changed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  courses uuid[];
  users uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(course_id), array_agg(user_id) into courses, users
      from (select distinct course_id, user_id from new_rows) t;
  elsif tg_op = 'DELETE' then
    select array_agg(course_id), array_agg(user_id) into courses, users
      from (select distinct course_id, user_id from old_rows) t;
  else
    select array_agg(course_id), array_agg(user_id) into courses, users
      from (
        select course_id, user_id from new_rows
        union
        select course_id, user_id from old_rows
      ) t;
  end if;
  if courses is not null then
    perform learning.refresh_enrollment_facts(courses, users);
  end if;
  return null;
end
$$;

create or replace function learning.insights_members_changed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  users uuid[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct user_id) into users from new_rows;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct user_id) into users from old_rows;
  else
    select array_agg(distinct user_id) into users
      from (select user_id from new_rows union select user_id from old_rows) t;
  end if;
  if users is not null then
    perform learning.refresh_board_learners(users);
  end if;
  return null;
end
$$;

do $$
declare
  t text;
begin
  foreach t in array array['enrollments', 'lesson_progress', 'assessment_attempts'] loop
    execute format(
      'create trigger insights_insert after insert on public.%I referencing new table as new_rows
         for each statement execute function learning.insights_pairs_changed()', t);
    execute format(
      'create trigger insights_update after update on public.%I
         referencing old table as old_rows new table as new_rows
         for each statement execute function learning.insights_pairs_changed()', t);
    execute format(
      'create trigger insights_delete after delete on public.%I referencing old table as old_rows
         for each statement execute function learning.insights_pairs_changed()', t);
  end loop;
end
$$;

create trigger insights_insert after insert on public.memberships
  referencing new table as new_rows
  for each statement execute function learning.insights_members_changed();
create trigger insights_update after update on public.memberships
  referencing old table as old_rows new table as new_rows
  for each statement execute function learning.insights_members_changed();
create trigger insights_delete after delete on public.memberships
  referencing old table as old_rows
  for each statement execute function learning.insights_members_changed();

-- A deleted course, board or organization takes its counters with it.
create or replace function learning.insights_clear() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'courses' then
    delete from public.course_stats s using old_rows o where s.course_id = o.id;
    delete from public.course_activity_days s using old_rows o where s.course_id = o.id;
    delete from public.board_course_stats s using old_rows o where s.course_id = o.id;
    delete from learning.enrollment_facts s using old_rows o where s.course_id = o.id;
  elsif tg_table_name = 'boards' then
    delete from public.board_course_stats s using old_rows o where s.board_id = o.id;
    delete from public.board_activity_days s using old_rows o where s.board_id = o.id;
    delete from learning.board_learners s using old_rows o where s.board_id = o.id;
    delete from learning.board_learner_days s using old_rows o where s.board_id = o.id;
  else
    delete from public.organization_activity_days s using old_rows o where s.organization_id = o.id;
    delete from learning.organization_learner_days s using old_rows o where s.organization_id = o.id;
  end if;
  return null;
end
$$;
create trigger insights_clear after delete on public.courses referencing old table as old_rows
  for each statement execute function learning.insights_clear();
create trigger insights_clear after delete on public.boards referencing old table as old_rows
  for each statement execute function learning.insights_clear();
create trigger insights_clear after delete on public.organizations
  referencing old table as old_rows
  for each statement execute function learning.insights_clear();

-- Recounts everything from the source rows: the migration's starting point, and the way back
-- after a bulk load that ran with triggers off (bench seeds).
create or replace function learning.rebuild_insights() returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from public.course_stats;
  delete from public.course_activity_days;
  delete from public.organization_activity_days;
  delete from public.board_course_stats;
  delete from public.board_activity_days;
  delete from learning.enrollment_facts;
  delete from learning.organization_learner_days;
  delete from learning.board_learners;
  delete from learning.board_learner_days;

  insert into learning.enrollment_facts
    (course_id, user_id, organization_id, enrolled, completed, score_sum, score_count,
     last_active_day)
  select k.course_id, k.user_id, c.organization_id,
         coalesce(bool_or(k.enrolled), false), coalesce(bool_or(k.completed), false),
         coalesce(sum(k.score_sum), 0), coalesce(sum(k.score_count), 0)::int,
         learning.utc_day(max(k.last_at))
    from (
      select e.course_id, e.user_id, e.status <> 'dropped' as enrolled,
             e.status = 'completed' as completed, null::numeric as score_sum,
             null::bigint as score_count, null::timestamptz as last_at
        from public.enrollments e
      union all
      select l.course_id, l.user_id, null, null, null, null, max(l.updated_at)
        from public.lesson_progress l group by l.course_id, l.user_id
      union all
      select x.course_id, x.user_id, null, null, sum(x.score), count(x.score), max(x.submitted_at)
        from public.assessment_attempts x group by x.course_id, x.user_id
    ) k
    join public.courses c on c.id = k.course_id and c.organization_id is not null
   group by k.course_id, k.user_id, c.organization_id;

  insert into learning.board_learners (board_id, user_id, organization_id)
  select distinct m.board_id, m.user_id, m.organization_id
    from public.memberships m
   where m.board_id is not null and m.active and m.role = 'learner';

  insert into learning.organization_learner_days (organization_id, user_id, last_active_day)
  select organization_id, user_id, max(last_active_day)
    from learning.enrollment_facts
   group by organization_id, user_id
  having max(last_active_day) is not null;

  insert into learning.board_learner_days (board_id, user_id, last_active_day)
  select b.board_id, b.user_id, d.last_active_day
    from learning.board_learners b
    join learning.organization_learner_days d
      on d.organization_id = b.organization_id and d.user_id = b.user_id;

  insert into public.course_stats
    (course_id, organization_id, enrollments, completions, score_sum, score_count)
  select course_id, organization_id, count(*) filter (where enrolled),
         count(*) filter (where completed), sum(score_sum), sum(score_count)
    from learning.enrollment_facts
   group by course_id, organization_id;

  insert into public.course_activity_days (course_id, day, organization_id, learners)
  select course_id, last_active_day, organization_id, count(*)
    from learning.enrollment_facts
   where last_active_day is not null
   group by course_id, last_active_day, organization_id;

  insert into public.organization_activity_days (organization_id, day, learners)
  select organization_id, last_active_day, count(*)
    from learning.organization_learner_days
   group by organization_id, last_active_day;

  insert into public.board_course_stats
    (board_id, course_id, organization_id, enrollments, completions, score_sum, score_count)
  select b.board_id, f.course_id, f.organization_id, count(*) filter (where f.enrolled),
         count(*) filter (where f.completed), sum(f.score_sum), sum(f.score_count)
    from learning.board_learners b
    join learning.enrollment_facts f
      on f.user_id = b.user_id and f.organization_id = b.organization_id
   group by b.board_id, f.course_id, f.organization_id;

  insert into public.board_activity_days (board_id, day, organization_id, learners)
  select d.board_id, d.last_active_day, b.organization_id, count(*)
    from learning.board_learner_days d
    join learning.board_learners b on b.board_id = d.board_id and b.user_id = d.user_id
   group by d.board_id, d.last_active_day, b.organization_id;
end
$$;

select learning.rebuild_insights();

revoke all on function learning.utc_day(timestamptz), learning.refresh_enrollment_facts(uuid[], uuid[]),
  learning.refresh_learner_days(uuid[]), learning.refresh_board_learners(uuid[]),
  learning.rebuild_insights() from public, anon, authenticated;
grant execute on function learning.utc_day(timestamptz) to anon, authenticated, service_role;
grant execute on function learning.rebuild_insights() to service_role;

-- ----- who reads them ----------------------------------------------------------------------

-- Organizations the user administers as a whole (owner, or organization-wide org_admin), as a
-- set the read policies compute once per statement.
create or replace function learning.orgs_administered(uid uuid) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select o.id from public.organizations o where o.owner_id = uid
  union
  select m.organization_id from public.memberships m
   where m.user_id = uid and m.active and m.role = 'org_admin' and m.board_id is null
$$;
revoke all on function learning.orgs_administered(uuid) from public;
grant execute on function learning.orgs_administered(uuid) to authenticated, service_role;

alter table public.course_stats enable row level security;
alter table public.course_activity_days enable row level security;
alter table public.organization_activity_days enable row level security;
alter table public.board_course_stats enable row level security;
alter table public.board_activity_days enable row level security;

create policy course_stats_read on public.course_stats for select to authenticated
  using (organization_id in (select learning.orgs_administered((select auth.uid()))));
create policy course_activity_days_read on public.course_activity_days for select
  to authenticated
  using (organization_id in (select learning.orgs_administered((select auth.uid()))));
create policy organization_activity_days_read on public.organization_activity_days for select
  to authenticated
  using (organization_id in (select learning.orgs_administered((select auth.uid()))));
-- Figures across boards are the owner's (spec section 6: "analytics aggregated across boards").
create policy board_course_stats_read on public.board_course_stats for select to authenticated
  using (learning.is_owner((select auth.uid()), organization_id));
create policy board_activity_days_read on public.board_activity_days for select
  to authenticated
  using (learning.is_owner((select auth.uid()), organization_id));

revoke all on public.course_stats, public.course_activity_days,
  public.organization_activity_days, public.board_course_stats, public.board_activity_days
  from anon, authenticated;
grant select on public.course_stats, public.course_activity_days,
  public.organization_activity_days, public.board_course_stats, public.board_activity_days
  to authenticated;
grant all on public.course_stats, public.course_activity_days,
  public.organization_activity_days, public.board_course_stats, public.board_activity_days
  to service_role;
