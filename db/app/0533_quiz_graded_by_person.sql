-- A per-quiz "always graded by a person" option (issue 13, decision 0226): an instructor sets
-- it on a quiz, and its short-text answers then go straight to the grading queue, never to the
-- answer evaluator. The server reads the option before it evaluates (submit-quiz), and
-- record_answer_evaluations refuses to record an evaluator's verdict on such a quiz's attempt,
-- so no path around the server's check grades one automatically.
alter table public.assessments
  add column graded_by_person boolean not null default false;

comment on column public.assessments.graded_by_person is
  'Short-text answers of this quiz are graded by an instructor, never by the answer evaluator.';

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
  -- Checked here as well as by the server before it evaluates, so an instructor who sets the
  -- option while an attempt is being evaluated still gets every answer in the queue.
  if exists (
    select 1 from public.assessments a
     where a.id = attempt.assessment_id and a.graded_by_person
  ) then
    raise exception 'This quiz''s short answers are graded by a person, not by the evaluator'
      using errcode = '22023', detail = 'graded_by_person';
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
