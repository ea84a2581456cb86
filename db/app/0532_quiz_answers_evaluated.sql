-- Short-text quiz answers graded by the answer evaluator (issue 13, decision 0223): the server
-- submits the attempt as before (short answers pending), runs the evaluator on each pending
-- answer and records its verdict with its reason here. An instructor may then override an
-- evaluator's verdict; the override is final and an evaluation never replaces it.
--
-- A verdict entry of assessment_attempts.verdicts now reads
--   { question_id, verdict: correct | partially_correct | incorrect | pending, feedback,
--     graded_by?: evaluator | instructor, evaluation?: { verdict, missing, feedback, engine } }
-- where `feedback` is what the learner sees and `evaluation` keeps the evaluator's own record
-- after an override. A partially correct answer earns half a question's credit.

-- The percentage an attempt scores, or null while an answer is pending.
create or replace function learning.attempt_score(verdicts jsonb) returns numeric
language sql immutable
set search_path = ''
as $$
  select case
    when jsonb_array_length(verdicts) = 0
      or exists (select 1 from jsonb_array_elements(verdicts) v where v ->> 'verdict' = 'pending')
    then null
    else round(100.0 * (select count(*) filter (where v ->> 'verdict' = 'correct')
                             + 0.5 * count(*) filter (where v ->> 'verdict' = 'partially_correct')
                          from jsonb_array_elements(verdicts) v)
               / jsonb_array_length(verdicts), 2)
  end
$$;

-- Records the evaluator's verdicts ({ "<question id>": { verdict, missing, feedback, engine } })
-- on an attempt's pending short-text answers. Answers already graded (by the evaluator before,
-- or by an instructor) keep their verdict, so a late or repeated evaluation never overrides a
-- person. Only the server calls this: clients could otherwise grade themselves.
create or replace function learning.record_answer_evaluations(attempt_id uuid, evaluations jsonb)
returns public.assessment_attempts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  attempt public.assessment_attempts;
  wrong text;
  graded jsonb;
  result public.assessment_attempts;
begin
  select * into attempt from public.assessment_attempts t
   where t.id = record_answer_evaluations.attempt_id for update;
  if not found then
    raise exception 'No quiz attempt has this id' using errcode = 'PT404', detail = 'not_found';
  end if;
  if jsonb_typeof(evaluations) is distinct from 'object' then
    raise exception 'evaluations must be an object keyed by question id' using errcode = '22023';
  end if;
  select string_agg(k.key, ', ') into wrong
    from jsonb_each(evaluations) k
   where jsonb_typeof(k.value) is distinct from 'object'
      or k.value ->> 'verdict' is null
      or k.value ->> 'verdict' not in ('correct', 'partially_correct', 'incorrect')
      or jsonb_typeof(k.value -> 'feedback') is distinct from 'string'
      or jsonb_typeof(k.value -> 'missing') is distinct from 'array'
      or not exists (
        select 1 from jsonb_array_elements(attempt.verdicts) v
          join public.questions q on q.id::text = v ->> 'question_id'
         where v ->> 'question_id' = k.key and q.type = 'short_text'
      );
  if wrong is not null then
    raise exception 'These evaluations name no short-text answer of this attempt or lack a verdict, missing points and feedback: %',
      wrong using errcode = '22023';
  end if;

  select jsonb_agg(
           case when v ->> 'verdict' = 'pending' and evaluations ? (v ->> 'question_id')
             then v || jsonb_build_object(
                    'verdict', evaluations -> (v ->> 'question_id') ->> 'verdict',
                    'feedback', evaluations -> (v ->> 'question_id') ->> 'feedback',
                    'graded_by', 'evaluator',
                    'evaluation', evaluations -> (v ->> 'question_id'))
             else v end
           order by n)
    into graded
    from jsonb_array_elements(attempt.verdicts) with ordinality as e(v, n);

  update public.assessment_attempts t
     set verdicts = graded,
         status = case when learning.attempt_score(graded) is null
           then 'awaiting_grading' else 'graded' end,
         score = learning.attempt_score(graded),
         graded_at = case when learning.attempt_score(graded) is null then t.graded_at else now() end
   where t.id = attempt.id
  returning * into result;
  return result;
end
$$;

revoke all on function learning.record_answer_evaluations(uuid, jsonb) from public;
grant execute on function learning.record_answer_evaluations(uuid, jsonb) to service_role;
grant execute on function learning.attempt_score(jsonb) to authenticated, service_role;

-- 0341's procedure: an instructor grades pending short answers and may override the
-- evaluator's verdicts, even on an attempt that is already graded, with true, false or a
-- verdict ('correct', 'partially_correct', 'incorrect'). What an instructor graded stays: a
-- second grading of the same answer is refused (409), as 0341 refused it.
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
  if jsonb_typeof(verdicts) is distinct from 'object' then
    raise exception 'verdicts must be an object of question id to true, false or a verdict'
      using errcode = '22023';
  end if;
  if feedback is not null and length(feedback) > 10000 then
    raise exception 'Feedback is limited to 10,000 characters' using errcode = '22023';
  end if;
  -- Nothing a person may grade is left: every answer was graded on submission or by hand.
  if attempt.status = 'graded' and not exists (
       select 1 from jsonb_array_elements(attempt.verdicts) v
        where v ->> 'graded_by' = 'evaluator') then
    raise exception 'This attempt has already been graded'
      using errcode = 'PT409', detail = 'already_graded';
  end if;
  -- Only short answers are graded by hand; the others were graded on submission.
  select string_agg(k.key, ', ') into wrong
    from jsonb_each(verdicts) k
   where not (jsonb_typeof(k.value) = 'boolean'
              or (jsonb_typeof(k.value) = 'string'
                  and k.value #>> '{}' in ('correct', 'partially_correct', 'incorrect')))
      or not exists (
        select 1 from jsonb_array_elements(attempt.verdicts) v
          join public.questions q on q.id::text = v ->> 'question_id'
         where v ->> 'question_id' = k.key and q.type = 'short_text'
      );
  if wrong is not null then
    raise exception 'Only short-text questions of this attempt can be graded, with true, false, "correct", "partially_correct" or "incorrect": %',
      wrong using errcode = '22023';
  end if;
  select string_agg(k.key, ', ') into wrong
    from jsonb_each(verdicts) k
   where not exists (
     select 1 from jsonb_array_elements(attempt.verdicts) v
      where v ->> 'question_id' = k.key
        and (v ->> 'verdict' = 'pending' or v ->> 'graded_by' = 'evaluator')
   );
  if wrong is not null then
    raise exception 'These questions have already been graded: %', wrong
      using errcode = 'PT409', detail = 'already_graded';
  end if;

  select jsonb_agg(
           case when verdicts ? (v ->> 'question_id')
             then v || jsonb_build_object(
                    'verdict', case jsonb_typeof(verdicts -> (v ->> 'question_id'))
                      when 'boolean' then
                        case when (verdicts ->> (v ->> 'question_id'))::boolean
                          then 'correct' else 'incorrect' end
                      else verdicts ->> (v ->> 'question_id') end,
                    -- The evaluator's reason would contradict the person who overrode it; it
                    -- stays in `evaluation` for the record.
                    'feedback', null,
                    'graded_by', 'instructor')
             else v end
           order by n)
    into graded
    from jsonb_array_elements(attempt.verdicts) with ordinality as e(v, n);

  update public.assessment_attempts t
     set verdicts = graded,
         feedback = coalesce(grade_assessment_attempt.feedback, t.feedback),
         graded_by = uid,
         status = case when learning.attempt_score(graded) is null
           then 'awaiting_grading' else 'graded' end,
         score = learning.attempt_score(graded),
         graded_at = now()
   where t.id = attempt.id
  returning * into result;
  return result;
end
$$;

-- 0341's attempt for its grader, with who graded each answer and the evaluator's record.
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
                      'feedback', v ->> 'feedback',
                      'graded_by', v ->> 'graded_by',
                      'evaluation', v -> 'evaluation')
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

-- 0341's grading queue, with `evaluated`: false (the default) lists attempts awaiting a person's
-- verdict, oldest first, as before; true lists attempts whose short answers the evaluator graded
-- and no instructor has looked at since, newest first, with `pending` counting those answers,
-- so an instructor can review and override them.
drop function public.grading_queue(uuid, int, int);
create function public.grading_queue(
  organization uuid default null,
  row_limit int default 25,
  row_offset int default 0,
  evaluated boolean default false
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
  if grading_queue.evaluated is null then
    raise exception 'evaluated must be true or false' using errcode = '22023';
  end if;
  return query
    select a.id, a.course_id, c.title, a.assessment_id, s.title, a.user_id,
           coalesce(nullif(trim(p.full_name), ''), nullif(trim(p.display_name), ''),
                    split_part(u.email, '@', 1)),
           u.email::text, a.attempt_number::int, a.submitted_at,
           (select count(*)::int from jsonb_array_elements(a.verdicts) v
             where case when grading_queue.evaluated then v ->> 'graded_by' = 'evaluator'
                        else v ->> 'verdict' = 'pending' end),
           (count(*) over ())::int
      from public.assessment_attempts a
      join public.courses c on c.id = a.course_id
      join public.assessments s on s.id = a.assessment_id
      join auth.users u on u.id = a.user_id
      left join public.profiles p on p.id = a.user_id
     where a.course_id in (select learning.courses_taught(auth.uid()))
       and c.organization_id is not distinct from grading_queue.organization
       and case when grading_queue.evaluated
             then a.status = 'graded' and a.graded_by is null
                  and exists (select 1 from jsonb_array_elements(a.verdicts) v
                               where v ->> 'graded_by' = 'evaluator')
             else a.status = 'awaiting_grading' end
     order by case when grading_queue.evaluated then a.submitted_at end desc,
              a.submitted_at, a.id
     limit grading_queue.row_limit offset grading_queue.row_offset;
end
$$;

revoke all on function public.grading_queue(uuid, int, int, boolean) from public;
grant execute on function public.grading_queue(uuid, int, int, boolean)
  to authenticated, service_role;
