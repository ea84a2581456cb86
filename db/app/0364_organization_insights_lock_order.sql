-- The analytics counters (decision 0135) are upserted in key order, so two statements that
-- move the same counters (two enrolment imports at once, or a board's members moved during
-- one) take their row locks in the same order and wait for each other instead of
-- deadlocking. The functions are 0360's and 0363's with `order by` added.

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
     order by course_id
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
     order by course_id, day
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
     order by b.board_id, d.course_id
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
   order by course_id, user_id
  on conflict (course_id, user_id) do update
    set enrolled = excluded.enrolled, completed = excluded.completed,
        score_sum = excluded.score_sum, score_count = excluded.score_count,
        last_active_day = excluded.last_active_day;

  perform learning.refresh_learner_days(p_users);
end
$$;

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
     order by organization_id, day
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
   order by organization_id, user_id
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
     order by board_id, day
    on conflict (board_id, day) do update set learners = s.learners + excluded.learners
  ),
  gone as (
    delete from learning.board_learner_days d
     using diff
     where d.board_id = diff.board_id and d.user_id = diff.user_id and diff.new_day is null
  )
  insert into learning.board_learner_days as d (board_id, user_id, last_active_day)
  select board_id, user_id, new_day from diff where new_day is not null
   order by board_id, user_id
  on conflict (board_id, user_id) do update set last_active_day = excluded.last_active_day;
end
$$;

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
     order by m.board_id, f.course_id
    on conflict (board_id, course_id) do update
      set enrollments = s.enrollments + excluded.enrollments,
          completions = s.completions + excluded.completions,
          score_sum = s.score_sum + excluded.score_sum,
          score_count = s.score_count + excluded.score_count
  ),
  counted as (
    insert into learning.learner_totals as t (scope_id, learners)
    select m.board_id, sum(m.sign) from moves m
     where exists (select 1 from public.boards b where b.id = m.board_id)
     group by m.board_id
     order by m.board_id
    on conflict (scope_id) do update set learners = t.learners + excluded.learners
  ),
  gone as (
    delete from learning.board_learners b
     using moves m
     where m.sign = -1 and b.board_id = m.board_id and b.user_id = m.user_id
  )
  insert into learning.board_learners (board_id, user_id, organization_id)
  select board_id, user_id, organization_id from moves where sign = 1;

  with users as (select distinct u as user_id from unnest(p_users) u),
  wanted as (
    select distinct m.organization_id, m.user_id
      from public.memberships m
      join users u on u.user_id = m.user_id
     where m.active and m.role = 'learner'
  ),
  current as (
    select o.* from learning.organization_learners o join users u on u.user_id = o.user_id
  ),
  moves as (
    select w.organization_id, w.user_id, 1 as sign from wanted w
     where not exists (
       select 1 from current c where c.organization_id = w.organization_id and c.user_id = w.user_id)
    union all
    select c.organization_id, c.user_id, -1 from current c
     where not exists (
       select 1 from wanted w where w.organization_id = c.organization_id and w.user_id = c.user_id)
  ),
  counted as (
    insert into learning.learner_totals as t (scope_id, learners)
    select m.organization_id, sum(m.sign) from moves m
     where exists (select 1 from public.organizations o where o.id = m.organization_id)
     group by m.organization_id
     order by m.organization_id
    on conflict (scope_id) do update set learners = t.learners + excluded.learners
  ),
  gone as (
    delete from learning.organization_learners o
     using moves m
     where m.sign = -1 and o.organization_id = m.organization_id and o.user_id = m.user_id
  )
  insert into learning.organization_learners (organization_id, user_id)
  select organization_id, user_id from moves where sign = 1;

  perform learning.refresh_learner_days(p_users);
end
$$;
