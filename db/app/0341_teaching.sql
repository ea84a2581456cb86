-- The instructor's teaching screens (issue 11, decision 0125): the courses one teaches, a
-- course's progress table, the grading queue and one attempt opened for grading; and
-- grade_assessment_attempt again, now refusing a second grading and naming a missing attempt.
--
-- These read learners' e-mail addresses, which only auth.users holds and no client role may
-- read, so they are SECURITY DEFINER and check first, with learning.teaches() or the set of
-- taught courses, that the caller teaches what they ask about. Every value is a parameter;
-- the progress table's ORDER BY is chosen from a fixed list, never built from the input.

-- ----- the courses one teaches -------------------------------------------------------------

-- The caller's taught courses in one organization (null: their personal courses), with how
-- many learners are enrolled and how many attempts await grading.
create or replace function public.teaching_courses(organization uuid default null)
returns table (
  course_id uuid,
  title text,
  subject text,
  published boolean,
  learners int,
  awaiting_grading int
)
language sql stable security definer
set search_path = ''
as $$
  select c.id, c.title, c.subject, c.published,
         (select count(*)::int from public.enrollments e
           where e.course_id = c.id and e.status <> 'dropped'),
         (select count(*)::int from public.assessment_attempts a
           where a.course_id = c.id and a.status = 'awaiting_grading')
    from public.courses c
   where c.id in (select learning.courses_taught(auth.uid()))
     and c.organization_id is not distinct from teaching_courses.organization
   order by lower(c.title), c.id
$$;

-- ----- a course's progress table -----------------------------------------------------------

-- What "struggling" means in the table: started, not completed, and either an average quiz
-- score under 60 % or nothing done for 14 days.
create or replace function learning.progress_status(
  lessons_completed int, lessons_total int, enrollment_status text, started boolean,
  average_score numeric, last_activity timestamptz
) returns text
language sql stable
set search_path = ''
as $$
  select case
    when enrollment_status = 'completed'
      or (lessons_total > 0 and lessons_completed >= lessons_total) then 'completed'
    when not started then 'not_started'
    when average_score < 60 or last_activity < now() - interval '14 days' then 'struggling'
    else 'in_progress'
  end
$$;

-- One row per learner enrolled in the course (dropped enrolments left out): name, e-mail,
-- progress status, lessons completed of the course's total, percent, time spent, last
-- activity, average score of graded attempts, attempts awaiting grading. Filtered by a search
-- in name or e-mail and by status, sorted by any column, and paged; `row_limit` null returns
-- every filtered row (the CSV export). `total_count` is the number of filtered rows.
--
-- Each table is read once through its course index (enrollments (course_id),
-- lesson_progress (course_id, user_id), assessment_attempts (course_id, status)) and grouped
-- by learner; there is no per-learner subquery.
create or replace function public.course_progress(
  course_id uuid,
  search text default null,
  status text default null,
  sort text default 'name',
  descending boolean default false,
  row_limit int default 25,
  row_offset int default 0
)
returns table (
  user_id uuid,
  full_name text,
  email text,
  progress_status text,
  lessons_completed int,
  lessons_total int,
  percent int,
  time_spent_seconds bigint,
  last_activity timestamptz,
  average_score numeric,
  awaiting_grading int,
  total_count int
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  sort_expression text;
  needle text := nullif(lower(trim(coalesce(course_progress.search, ''))), '');
begin
  if not learning.teaches(auth.uid(), course_progress.course_id) then
    raise exception 'Only an instructor of this course can see its progress'
      using errcode = '42501';
  end if;
  if length(needle) > 200 then
    raise exception 'search is limited to 200 characters' using errcode = '22023';
  end if;
  if course_progress.status is not null and course_progress.status
     not in ('not_started', 'in_progress', 'completed', 'struggling') then
    raise exception 'status must be one of not_started, in_progress, completed, struggling'
      using errcode = '22023';
  end if;
  sort_expression := case course_progress.sort
    when 'name' then 'lower(r.full_name)'
    when 'email' then 'lower(r.email)'
    when 'status' then
      'array_position(array[''not_started'', ''struggling'', ''in_progress'', ''completed''], r.progress_status)'
    when 'lessons_completed' then 'r.lessons_completed'
    when 'percent' then 'r.percent'
    when 'time_spent' then 'r.time_spent_seconds'
    when 'last_activity' then 'r.last_activity'
    when 'average_score' then 'r.average_score'
    when 'awaiting_grading' then 'r.awaiting_grading'
  end;
  if sort_expression is null then
    raise exception 'sort must be one of name, email, status, lessons_completed, percent, time_spent, last_activity, average_score, awaiting_grading'
      using errcode = '22023';
  end if;
  if course_progress.row_limit is not null and course_progress.row_limit not between 1 and 500 then
    raise exception 'row_limit must be between 1 and 500, or null for every row'
      using errcode = '22023';
  end if;
  if course_progress.row_offset is null or course_progress.row_offset < 0 then
    raise exception 'row_offset must be 0 or more' using errcode = '22023';
  end if;

  return query execute format($sql$
    with enrolled as (
      select e.user_id, e.status from public.enrollments e
       where e.course_id = $1 and e.status <> 'dropped'
    ), lessons as (
      select count(*)::int as total from public.lessons l where l.course_id = $1
    ), progress as (
      select lp.user_id,
             count(*) filter (where lp.status = 'completed')::int as completed,
             bool_or(lp.status <> 'not_started') as started,
             sum(lp.time_spent_seconds)::bigint as seconds,
             max(lp.updated_at) as last_at
        from public.lesson_progress lp
       where lp.course_id = $1
       group by lp.user_id
    ), attempts as (
      select a.user_id,
             round(avg(a.score) filter (where a.status = 'graded'), 2) as average,
             count(*) filter (where a.status = 'awaiting_grading')::int as awaiting,
             max(a.submitted_at) as last_at
        from public.assessment_attempts a
       where a.course_id = $1
       group by a.user_id
    ), rows as (
      select e.user_id,
             coalesce(nullif(trim(p.full_name), ''), nullif(trim(p.display_name), ''),
                      split_part(u.email, '@', 1)) as full_name,
             u.email::text as email,
             learning.progress_status(coalesce(pr.completed, 0), l.total, e.status,
               coalesce(pr.started, false) or att.user_id is not null, att.average,
               greatest(pr.last_at, att.last_at)) as progress_status,
             coalesce(pr.completed, 0) as lessons_completed,
             l.total as lessons_total,
             case when l.total = 0 then 0
                  else least(100, 100 * coalesce(pr.completed, 0) / l.total) end as percent,
             coalesce(pr.seconds, 0) as time_spent_seconds,
             greatest(pr.last_at, att.last_at) as last_activity,
             att.average as average_score,
             coalesce(att.awaiting, 0) as awaiting_grading
        from enrolled e
        cross join lessons l
        join auth.users u on u.id = e.user_id
        left join public.profiles p on p.id = e.user_id
        left join progress pr on pr.user_id = e.user_id
        left join attempts att on att.user_id = e.user_id
    )
    select r.user_id, r.full_name, r.email, r.progress_status, r.lessons_completed,
           r.lessons_total, r.percent, r.time_spent_seconds, r.last_activity, r.average_score,
           r.awaiting_grading, (count(*) over ())::int
      from rows r
     where ($2::text is null
            or position($2 in lower(r.full_name)) > 0
            or position($2 in lower(r.email)) > 0)
       and ($3::text is null or r.progress_status = $3)
     order by %s %s nulls last, lower(r.full_name), r.user_id
     limit $4 offset $5
    $sql$, sort_expression, case when course_progress.descending then 'desc' else 'asc' end)
  using course_progress.course_id, needle, course_progress.status, course_progress.row_limit,
        course_progress.row_offset;
end
$$;

-- ----- grading -----------------------------------------------------------------------------

-- Attempts awaiting grading in the courses the caller teaches in one organization (null:
-- their personal courses), oldest first, with the learner and how many answers are pending.
create or replace function public.grading_queue(
  organization uuid default null,
  row_limit int default 25,
  row_offset int default 0
)
returns table (
  attempt_id uuid,
  course_id uuid,
  course_title text,
  assessment_id uuid,
  assessment_title text,
  user_id uuid,
  full_name text,
  email text,
  attempt_number int,
  submitted_at timestamptz,
  pending int,
  total_count int
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Sign in to see the grading queue' using errcode = '42501';
  end if;
  if grading_queue.row_limit is null or grading_queue.row_limit not between 1 and 100 then
    raise exception 'row_limit must be between 1 and 100' using errcode = '22023';
  end if;
  if grading_queue.row_offset is null or grading_queue.row_offset < 0 then
    raise exception 'row_offset must be 0 or more' using errcode = '22023';
  end if;
  return query
    select a.id, a.course_id, c.title, a.assessment_id, s.title, a.user_id,
           coalesce(nullif(trim(p.full_name), ''), nullif(trim(p.display_name), ''),
                    split_part(u.email, '@', 1)),
           u.email::text, a.attempt_number::int, a.submitted_at,
           (select count(*)::int from jsonb_array_elements(a.verdicts) v
             where v ->> 'verdict' = 'pending'),
           (count(*) over ())::int
      from public.assessment_attempts a
      join public.courses c on c.id = a.course_id
      join public.assessments s on s.id = a.assessment_id
      join auth.users u on u.id = a.user_id
      left join public.profiles p on p.id = a.user_id
     where a.status = 'awaiting_grading'
       and a.course_id in (select learning.courses_taught(auth.uid()))
       and c.organization_id is not distinct from grading_queue.organization
     order by a.submitted_at, a.id
     limit grading_queue.row_limit offset grading_queue.row_offset;
end
$$;

-- One attempt as its grader sees it: the learner, the quiz, and per question the prompt, the
-- reference answer, the key points, the learner's answer and the verdict so far.
create or replace function public.get_attempt_for_grading(attempt_id uuid)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  attempt public.assessment_attempts;
  result jsonb;
begin
  select * into attempt from public.assessment_attempts t
   where t.id = get_attempt_for_grading.attempt_id;
  if not found then
    raise exception 'No quiz attempt has this id' using errcode = 'PT404', detail = 'not_found';
  end if;
  if not learning.teaches(auth.uid(), attempt.course_id) then
    raise exception 'Only an instructor of this course can grade this attempt'
      using errcode = '42501';
  end if;
  select jsonb_build_object(
           'id', attempt.id,
           'status', attempt.status,
           'attempt_number', attempt.attempt_number,
           'submitted_at', attempt.submitted_at,
           'score', attempt.score,
           'feedback', attempt.feedback,
           'graded_at', attempt.graded_at,
           'course', jsonb_build_object('id', c.id, 'title', c.title),
           'assessment', jsonb_build_object('id', s.id, 'title', s.title),
           'learner', jsonb_build_object(
             'id', u.id,
             'full_name', coalesce(nullif(trim(p.full_name), ''), nullif(trim(p.display_name), ''),
                                   split_part(u.email, '@', 1)),
             'email', u.email),
           'questions', coalesce((
             select jsonb_agg(jsonb_build_object(
                      'id', v ->> 'question_id',
                      'type', q.type,
                      'prompt', q.prompt,
                      'choices', q.choices,
                      'answer', q.answer,
                      'key_points', q.key_points,
                      'given', attempt.answers -> (v ->> 'question_id'),
                      'verdict', v ->> 'verdict',
                      'feedback', v ->> 'feedback')
                    order by n)
               from jsonb_array_elements(attempt.verdicts) with ordinality as e(v, n)
               left join public.questions q on q.id::text = v ->> 'question_id'
           ), '[]'::jsonb))
    into result
    from public.courses c
    join public.assessments s on s.id = attempt.assessment_id
    join auth.users u on u.id = attempt.user_id
    left join public.profiles p on p.id = attempt.user_id
   where c.id = attempt.course_id;
  return result;
end
$$;

-- 0323's procedure, with two refusals added before anything is written: an attempt that does
-- not exist (404) and an attempt, or a question, that has already been graded (409).
create or replace function public.grade_assessment_attempt(
  attempt_id uuid, verdicts jsonb default '{}'::jsonb, feedback text default null
)
returns public.assessment_attempts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  attempt public.assessment_attempts;
  wrong text;
  graded jsonb;
  result public.assessment_attempts;
begin
  select * into attempt from public.assessment_attempts t
   where t.id = grade_assessment_attempt.attempt_id for update;
  if not found then
    raise exception 'No quiz attempt has this id' using errcode = 'PT404', detail = 'not_found';
  end if;
  if not learning.teaches(uid, attempt.course_id) then
    raise exception 'Only an instructor of this course can grade this attempt'
      using errcode = '42501';
  end if;
  if attempt.status = 'graded' then
    raise exception 'This attempt has already been graded'
      using errcode = 'PT409', detail = 'already_graded';
  end if;
  if jsonb_typeof(verdicts) is distinct from 'object' then
    raise exception 'verdicts must be an object of question id to true or false'
      using errcode = '22023';
  end if;
  if feedback is not null and length(feedback) > 10000 then
    raise exception 'Feedback is limited to 10,000 characters' using errcode = '22023';
  end if;
  -- Only short answers are graded by hand; the others were graded on submission.
  select string_agg(k.key, ', ') into wrong
    from jsonb_each(verdicts) k
   where jsonb_typeof(k.value) <> 'boolean'
      or not exists (
        select 1 from jsonb_array_elements(attempt.verdicts) v
          join public.questions q on q.id::text = v ->> 'question_id'
         where v ->> 'question_id' = k.key and q.type = 'short_text'
      );
  if wrong is not null then
    raise exception 'Only short-text questions of this attempt can be graded, with true or false: %',
      wrong using errcode = '22023';
  end if;
  select string_agg(k.key, ', ') into wrong
    from jsonb_each(verdicts) k
   where not exists (
     select 1 from jsonb_array_elements(attempt.verdicts) v
      where v ->> 'question_id' = k.key and v ->> 'verdict' = 'pending'
   );
  if wrong is not null then
    raise exception 'These questions have already been graded: %', wrong
      using errcode = 'PT409', detail = 'already_graded';
  end if;

  select jsonb_agg(
           case when verdicts ? (v ->> 'question_id')
             then v || jsonb_build_object('verdict',
                  case when (verdicts ->> (v ->> 'question_id'))::boolean
                    then 'correct' else 'incorrect' end)
             else v end
           order by n)
    into graded
    from jsonb_array_elements(attempt.verdicts) with ordinality as e(v, n);

  update public.assessment_attempts t
     set verdicts = graded,
         feedback = coalesce(grade_assessment_attempt.feedback, t.feedback),
         graded_by = uid,
         status = case when exists (
             select 1 from jsonb_array_elements(graded) v where v ->> 'verdict' = 'pending')
           then 'awaiting_grading' else 'graded' end,
         score = case when exists (
             select 1 from jsonb_array_elements(graded) v where v ->> 'verdict' = 'pending')
           then null
           else round(100.0 * (select count(*) from jsonb_array_elements(graded) v
                                where v ->> 'verdict' = 'correct')
                      / jsonb_array_length(graded), 2) end,
         graded_at = now()
   where t.id = attempt.id
  returning * into result;
  return result;
end
$$;

revoke all on function public.teaching_courses(uuid),
  public.course_progress(uuid, text, text, text, boolean, int, int),
  public.grading_queue(uuid, int, int),
  public.get_attempt_for_grading(uuid)
  from public;
grant execute on function public.teaching_courses(uuid),
  public.course_progress(uuid, text, text, text, boolean, int, int),
  public.grading_queue(uuid, int, int),
  public.get_attempt_for_grading(uuid)
  to authenticated, service_role;
revoke all on function learning.progress_status(int, int, text, boolean, numeric, timestamptz)
  from public;
grant execute on function learning.progress_status(int, int, text, boolean, numeric, timestamptz)
  to authenticated, service_role;
