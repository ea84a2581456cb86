-- A board's figures are its learners' in the board's courses (decision 0135, amended): the
-- active learner members of the board, in the courses distributed to it. 0361 counted the
-- board's learners in any course of the organization, while the board's course list, the
-- library, the dashboard and the board page narrow to the courses distributed to the board, so
-- a board's headline figures did not add up to the courses it listed. The maintained
-- per-(board, course) counters stay as they are; the reads now keep only distributed courses,
-- so distributing or withdrawing a course changes the board's figures at once.

-- The board's active learners in its courses are read from the enrolment facts by course and
-- day: a range scan of the recently active per distributed course, not of every enrolment.
create index enrollment_facts_course_day_idx
  on learning.enrollment_facts (course_id, last_active_day);

-- Distinct learners of the board whose latest activity in one of the board's courses (or in
-- the one course given) falls in the window.
create or replace function learning.board_active_learners(board uuid, since date, course uuid default null)
returns int
language sql stable security definer
set search_path = ''
as $$
  select count(distinct f.user_id)::int
    from public.course_boards cb
    join learning.enrollment_facts f
      on f.course_id = cb.course_id and f.last_active_day >= since
    join learning.board_learners bl on bl.board_id = cb.board_id and bl.user_id = f.user_id
   where cb.board_id = board and (course is null or cb.course_id = course)
$$;
revoke all on function learning.board_active_learners(uuid, date, uuid) from public, anon, authenticated;

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
             'active_learners_7d', learning.board_active_learners(board, since))
      into result
      from public.course_boards cb
      left join public.board_course_stats s on s.board_id = cb.board_id and s.course_id = cb.course_id
     where cb.board_id = board;
  end if;
  return result || jsonb_build_object('window_start', since, 'window_end', learning.utc_day(now()));
end
$$;

-- One page of per-course figures, most enrolments first, searchable by title or subject. With a
-- board: the courses distributed to it, with their figures for the board's learners.
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
    select c.id, c.title, c.subject, c.published,
           coalesce(s.enrollments, 0), coalesce(s.completions, 0), s.score_sum,
           coalesce(s.score_count, 0)
      from public.course_boards cb
      join public.courses c on c.id = cb.course_id
      left join public.board_course_stats s on s.board_id = cb.board_id and s.course_id = cb.course_id
     where board is not null and cb.board_id = board
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
             else learning.board_active_learners(board, since, p.id)
             end
         ) order by p.enrollments desc, p.title, p.id), '[]'::jsonb)
    into total, listing
    from page_rows p;
  return jsonb_build_object('total', total, 'courses', listing);
end
$$;

-- Every board of the organization with its learners' figures in its courses: the owner's
-- breakdown.
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
             'courses', coalesce(t.courses, 0),
             'enrollments', coalesce(t.enrollments, 0),
             'completions', coalesce(t.completions, 0),
             'graded_attempts', coalesce(t.score_count, 0),
             'average_score', round(t.score_sum / nullif(t.score_count, 0), 1),
             'active_learners_7d', learning.board_active_learners(b.id, since)
           ) order by b.name, b.id)
      from public.boards b
      left join lateral (
        select count(*)::int as courses,
               sum(s.enrollments)::int as enrollments, sum(s.completions)::int as completions,
               sum(s.score_sum) as score_sum, sum(s.score_count)::int as score_count
          from public.course_boards cb
          left join public.board_course_stats s
            on s.board_id = cb.board_id and s.course_id = cb.course_id
         where cb.board_id = b.id
      ) t on true
     where b.organization_id = org
  ), '[]'::jsonb);
end
$$;

-- The progress-and-results report: one row per enrolment, newest first, filtered by course,
-- board (its learners' enrolments in the courses distributed to it) and enrolment date
-- (inclusive UTC days). Pages by keyset (the last row's enrolled_at and id).
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
       and (board is null or (
             exists (select 1 from learning.board_learners b
                      where b.board_id = board and b.user_id = e.user_id)
             and exists (select 1 from public.course_boards cb
                          where cb.board_id = board and cb.course_id = e.course_id)))
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

