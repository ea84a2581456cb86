-- What the organization admin's analytics and reports read (issue 11, decision 0135). Each
-- procedure checks the caller first and answers from the counters of 0360, never by counting
-- enrolments or progress rows. "Active in the last 7 days": today (UTC) and the six days
-- before it.

create or replace function learning.require_org_admin(org uuid) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if auth.uid() is null or not learning.is_org_admin(auth.uid(), org) then
    raise exception 'Only an admin of this organization can see its analytics and reports'
      using errcode = '42501';
  end if;
end
$$;

create or replace function learning.require_owner_for_board(org uuid, board uuid) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if board is null then
    return;
  end if;
  if not learning.is_owner(auth.uid(), org) then
    raise exception 'Figures per board are for the organization''s owner'
      using errcode = '42501';
  end if;
  if not exists (select 1 from public.boards b where b.id = board and b.organization_id = org) then
    raise exception 'This board is not part of the organization' using errcode = '22023';
  end if;
end
$$;

-- The first day of the 7-day window.
create or replace function learning.activity_window_start() returns date
language sql stable
set search_path = ''
as $$ select learning.utc_day(now()) - 6 $$;

-- Totals for the organization, or for one board's learners (owner only).
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
             'learners', (select count(distinct m.user_id)::int from public.memberships m
                           where m.organization_id = org and m.active and m.role = 'learner'),
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
             'learners', (select count(*)::int from learning.board_learners b
                           where b.board_id = board),
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

-- One page of per-course figures, most enrolments first, searchable by title or subject. With a
-- board: the courses its learners take, and their figures for those learners (owner only;
-- active learners are kept per course and per board, not per board and course, so that column
-- is null there).
create or replace function public.get_course_insights(
  organization_id uuid,
  board_id uuid default null,
  search text default null,
  page_size int default 20,
  page int default 0
) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  org uuid := get_course_insights.organization_id;
  board uuid := get_course_insights.board_id;
  pattern text;
  since date := learning.activity_window_start();
  total int;
  listing jsonb;
begin
  perform learning.require_org_admin(org);
  perform learning.require_owner_for_board(org, board);
  if page_size is null or page_size not between 1 and 100 then
    raise exception 'page_size must be between 1 and 100' using errcode = '22023';
  end if;
  if page is null or page < 0 then
    raise exception 'page must be 0 or more' using errcode = '22023';
  end if;
  if length(coalesce(search, '')) > 200 then
    raise exception 'The search is limited to 200 characters' using errcode = '22023';
  end if;
  pattern := '%' || replace(replace(replace(coalesce(trim(search), ''), '\', '\\'), '%', '\%'),
                            '_', '\_') || '%';

  with listed as (
    select c.id, c.title, c.subject, c.published,
           coalesce(s.enrollments, 0) as enrollments, coalesce(s.completions, 0) as completions,
           s.score_sum, coalesce(s.score_count, 0) as score_count
      from public.courses c
      left join public.course_stats s on s.course_id = c.id
     where board is null and c.organization_id = org
       and (c.title ilike pattern or c.subject ilike pattern)
    union all
    select c.id, c.title, c.subject, c.published, s.enrollments, s.completions, s.score_sum,
           s.score_count
      from public.board_course_stats s
      join public.courses c on c.id = s.course_id
     where board is not null and s.board_id = board and s.enrollments > 0
       and (c.title ilike pattern or c.subject ilike pattern)
  ),
  counted as (select count(*)::int as n from listed),
  page_rows as (
    select * from listed
     order by enrollments desc, title, id
     limit page_size offset page * page_size
  )
  select (select n from counted),
         coalesce(jsonb_agg(jsonb_build_object(
           'course_id', p.id,
           'title', p.title,
           'subject', p.subject,
           'published', p.published,
           'enrollments', p.enrollments,
           'completions', p.completions,
           'completion_rate',
             case when p.enrollments > 0 then round(100.0 * p.completions / p.enrollments, 1) end,
           'graded_attempts', p.score_count,
           'average_score', round(p.score_sum / nullif(p.score_count, 0), 1),
           'active_learners_7d',
             case when board is null then (
               select coalesce(sum(d.learners), 0)::int from public.course_activity_days d
                where d.course_id = p.id and d.day >= since)
             end
         ) order by p.enrollments desc, p.title, p.id), '[]'::jsonb)
    into total, listing
    from page_rows p;
  return jsonb_build_object('total', total, 'courses', listing);
end
$$;

-- Every board of the organization with its learners' figures: the owner's breakdown.
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
             'learners', (select count(*)::int from learning.board_learners l where l.board_id = b.id),
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

-- The progress-and-results report: one row per enrolment, newest first, filtered by course,
-- board (its learners) and enrolment date (inclusive UTC days). Pages by keyset (the last
-- row's enrolled_at and id), so an export of many pages stays as fast as the first.
create or replace function public.get_organization_report(
  organization_id uuid,
  course_id uuid default null,
  board_id uuid default null,
  enrolled_from date default null,
  enrolled_to date default null,
  after_enrolled_at timestamptz default null,
  after_id uuid default null,
  page_size int default 100
) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  org uuid := get_organization_report.organization_id;
  course uuid := get_organization_report.course_id;
  board uuid := get_organization_report.board_id;
  listing jsonb;
begin
  perform learning.require_org_admin(org);
  if page_size is null or page_size not between 1 and 1000 then
    raise exception 'page_size must be between 1 and 1000' using errcode = '22023';
  end if;
  if enrolled_from is not null and enrolled_to is not null and enrolled_from > enrolled_to then
    raise exception 'The start date (%) is after the end date (%)', enrolled_from, enrolled_to
      using errcode = '22023';
  end if;
  if (after_enrolled_at is null) <> (after_id is null) then
    raise exception 'after_enrolled_at and after_id go together' using errcode = '22023';
  end if;
  if course is not null and not exists (
    select 1 from public.courses c where c.id = course and c.organization_id = org
  ) then
    raise exception 'This course is not part of the organization' using errcode = '22023';
  end if;
  if board is not null and not exists (
    select 1 from public.boards b where b.id = board and b.organization_id = org
  ) then
    raise exception 'This board is not part of the organization' using errcode = '22023';
  end if;

  with page_rows as (
    select e.id, e.user_id, e.course_id, e.status, e.progress_percent, e.enrolled_at,
           e.completed_at, c.title
      from public.enrollments e
      join public.courses c on c.id = e.course_id
     where c.organization_id = org
       and (course is null or e.course_id = course)
       and (board is null or exists (
             select 1 from learning.board_learners b where b.board_id = board and b.user_id = e.user_id))
       and (enrolled_from is null or e.enrolled_at >= enrolled_from::timestamp at time zone 'UTC')
       and (enrolled_to is null
            or e.enrolled_at < (enrolled_to + 1)::timestamp at time zone 'UTC')
       and (after_id is null or (e.enrolled_at, e.id) < (after_enrolled_at, after_id))
     order by e.enrolled_at desc, e.id desc
     limit page_size
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'enrollment_id', p.id,
           'user_id', p.user_id,
           'learner', coalesce(nullif(trim(pr.full_name), ''), nullif(trim(pr.display_name), ''), u.email),
           'email', u.email,
           'boards', (select string_agg(bd.name, '; ' order by bd.name)
                        from learning.board_learners bl join public.boards bd on bd.id = bl.board_id
                       where bl.user_id = p.user_id and bl.organization_id = org),
           'course_id', p.course_id,
           'course', p.title,
           'status', p.status,
           'progress_percent', p.progress_percent,
           'enrolled_at', p.enrolled_at,
           'completed_at', p.completed_at,
           'last_active_day', f.last_active_day,
           'graded_attempts', coalesce(f.score_count, 0),
           'average_score', round(f.score_sum / nullif(f.score_count, 0), 1)
         ) order by p.enrolled_at desc, p.id desc), '[]'::jsonb)
    into listing
    from page_rows p
    left join auth.users u on u.id = p.user_id
    left join public.profiles pr on pr.id = p.user_id
    left join learning.enrollment_facts f on f.course_id = p.course_id and f.user_id = p.user_id;
  return listing;
end
$$;

-- The report's newest-first walk over an organization's enrolments.
create index enrollments_enrolled_at_idx on public.enrollments (enrolled_at desc, id desc);

revoke all on function learning.require_org_admin(uuid), learning.require_owner_for_board(uuid, uuid),
  learning.activity_window_start() from public;
grant execute on function learning.require_org_admin(uuid), learning.require_owner_for_board(uuid, uuid),
  learning.activity_window_start() to authenticated, service_role;
revoke all on function public.get_organization_insights(uuid, uuid),
  public.get_course_insights(uuid, uuid, text, int, int), public.get_board_insights(uuid),
  public.get_organization_report(uuid, uuid, uuid, date, date, timestamptz, uuid, int)
  from public, anon;
grant execute on function public.get_organization_insights(uuid, uuid),
  public.get_course_insights(uuid, uuid, text, int, int), public.get_board_insights(uuid),
  public.get_organization_report(uuid, uuid, uuid, date, date, timestamptz, uuid, int)
  to authenticated, service_role;
