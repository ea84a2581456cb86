-- How many learners an organization and each board has, kept as the memberships change
-- (decision 0135): counting 100,000 learner memberships per analytics request is the one count
-- 0361 still made. learning.organization_learners mirrors the active `learner` memberships per
-- organization (any board or none), as learning.board_learners does per board; the totals
-- move by exactly the learners who joined or left either set.

create table learning.organization_learners (
  organization_id uuid not null,
  user_id uuid not null,
  primary key (organization_id, user_id)
);

-- Learners per organization or per board (the ids never collide: both are random UUIDs).
create table learning.learner_totals (
  scope_id uuid primary key,
  learners int not null default 0
);

alter table learning.organization_learners enable row level security;
alter table learning.learner_totals enable row level security;
revoke all on learning.organization_learners, learning.learner_totals
  from public, anon, authenticated;

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
  counted as (
    insert into learning.learner_totals as t (scope_id, learners)
    select m.board_id, sum(m.sign) from moves m
     where exists (select 1 from public.boards b where b.id = m.board_id)
     group by m.board_id
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
    delete from learning.learner_totals s using old_rows o where s.scope_id = o.id;
  else
    delete from public.organization_activity_days s using old_rows o where s.organization_id = o.id;
    delete from learning.organization_learner_days s using old_rows o where s.organization_id = o.id;
    delete from learning.organization_learners s using old_rows o where s.organization_id = o.id;
    delete from learning.learner_totals s using old_rows o where s.scope_id = o.id;
  end if;
  return null;
end
$$;

-- rebuild_insights (0360) recounts the rest; this recounts the learner sets and totals too.
create or replace function learning.rebuild_learner_totals() returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from learning.organization_learners;
  delete from learning.learner_totals;
  insert into learning.organization_learners (organization_id, user_id)
  select distinct m.organization_id, m.user_id
    from public.memberships m
   where m.active and m.role = 'learner';
  insert into learning.learner_totals (scope_id, learners)
  select organization_id, count(*) from learning.organization_learners group by organization_id
  union all
  select board_id, count(*) from learning.board_learners group by board_id;
end
$$;
revoke all on function learning.rebuild_learner_totals() from public, anon, authenticated;
grant execute on function learning.rebuild_learner_totals() to service_role;

select learning.rebuild_learner_totals();

-- One call recounts everything (a bench that seeds with triggers off ends with it).
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

  perform learning.rebuild_learner_totals();
end
$$;

create or replace function learning.learner_total(scope uuid) returns int
language sql stable security definer
set search_path = ''
as $$ select coalesce((select t.learners from learning.learner_totals t where t.scope_id = scope), 0) $$;
revoke all on function learning.learner_total(uuid) from public, anon;
grant execute on function learning.learner_total(uuid) to authenticated, service_role;

create or replace function public.get_organization_insights(
  organization_id uuid,
  board_id uuid default null
) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  org uuid := get_organization_insights.organization_id;
  board uuid := get_organization_insights.board_id;
  since date := learning.activity_window_start();
  result jsonb;
begin
  perform learning.require_org_admin(org);
  perform learning.require_owner_for_board(org, board);
  if board is null then
    select jsonb_build_object(
             'courses', count(*)::int,
             'learners', learning.learner_total(org),
             'enrollments', coalesce(sum(s.enrollments), 0)::int,
             'completions', coalesce(sum(s.completions), 0)::int,
             'graded_attempts', coalesce(sum(s.score_count), 0)::int,
             'average_score', round(sum(s.score_sum) / nullif(sum(s.score_count), 0), 1),
             'active_learners_7d', (select coalesce(sum(d.learners), 0)::int
                                      from public.organization_activity_days d
                                     where d.organization_id = org and d.day >= since))
      into result
      from public.courses c
      left join public.course_stats s on s.course_id = c.id
     where c.organization_id = org;
  else
    select jsonb_build_object(
             'courses', count(*)::int,
             'learners', learning.learner_total(board),
             'enrollments', coalesce(sum(s.enrollments), 0)::int,
             'completions', coalesce(sum(s.completions), 0)::int,
             'graded_attempts', coalesce(sum(s.score_count), 0)::int,
             'average_score', round(sum(s.score_sum) / nullif(sum(s.score_count), 0), 1),
             'active_learners_7d', (select coalesce(sum(d.learners), 0)::int
                                      from public.board_activity_days d
                                     where d.board_id = board and d.day >= since))
      into result
      from public.board_course_stats s
     where s.board_id = board and s.enrollments > 0;
  end if;
  return result || jsonb_build_object('window_start', since, 'window_end', learning.utc_day(now()));
end
$$;

create or replace function public.get_board_insights(organization_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  org uuid := get_board_insights.organization_id;
  since date := learning.activity_window_start();
begin
  perform learning.require_org_admin(org);
  if not learning.is_owner(auth.uid(), org) then
    raise exception 'Figures per board are for the organization''s owner' using errcode = '42501';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'board_id', b.id,
             'name', b.name,
             'learners', learning.learner_total(b.id),
             'enrollments', coalesce(t.enrollments, 0),
             'completions', coalesce(t.completions, 0),
             'graded_attempts', coalesce(t.score_count, 0),
             'average_score', round(t.score_sum / nullif(t.score_count, 0), 1),
             'active_learners_7d', (select coalesce(sum(d.learners), 0)::int
                                      from public.board_activity_days d
                                     where d.board_id = b.id and d.day >= since)
           ) order by b.name, b.id)
      from public.boards b
      left join lateral (
        select sum(s.enrollments)::int as enrollments, sum(s.completions)::int as completions,
               sum(s.score_sum) as score_sum, sum(s.score_count)::int as score_count
          from public.board_course_stats s where s.board_id = b.id
      ) t on true
     where b.organization_id = org
  ), '[]'::jsonb);
end
$$;
