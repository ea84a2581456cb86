-- Procedures for what must be checked or atomic (decision 0100). Each states its checks at the
-- top and fails with a message a person can act on. SECURITY DEFINER only where the caller
-- may not touch the rows directly (the bank's answers, attempts, a board admin's enrolments).

-- ----- the public catalogue ----------------------------------------------------------------

-- What a public course page needs, and nothing that names a person: published public courses
-- with their outline. Anonymous visitors read this view, never the courses table.
create view public.public_courses with (security_barrier) as
select c.id, c.slug, c.title, c.subject, c.description, o.name as organization_name,
       coalesce((
         select jsonb_agg(jsonb_build_object(
                  'title', m.title,
                  'summary', m.summary,
                  'lessons', (select count(*)::int from public.lessons l where l.module_id = m.id),
                  'estimated_minutes',
                    (select coalesce(sum(l.estimated_minutes), 0)::int
                       from public.lessons l where l.module_id = m.id)
                ) order by m.position)
           from public.modules m where m.course_id = c.id
       ), '[]'::jsonb) as outline,
       c.updated_at
  from public.courses c
  left join public.organizations o on o.id = c.organization_id
 where c.published and c.visibility = 'public';
revoke all on public.public_courses from public;
grant select on public.public_courses to anon, authenticated, service_role;

-- ----- quizzes -----------------------------------------------------------------------------

-- A quiz's questions as a learner sees them: no answers, hints or feedback.
create or replace function public.get_assessment_questions(assessment_id uuid)
returns table (question_id uuid, "position" int, type text, prompt text, choices jsonb)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  quiz public.assessments;
begin
  select * into quiz from public.assessments a where a.id = get_assessment_questions.assessment_id;
  if not found
     or not (learning.teaches(auth.uid(), quiz.course_id)
             or (quiz.published and learning.enrolled(auth.uid(), quiz.course_id))) then
    raise exception 'This quiz is not in a course you are enrolled in'
      using errcode = '42501';
  end if;
  return query
    select q.id, aq.position, q.type, q.prompt,
           (select jsonb_agg(jsonb_build_object('id', c ->> 'id', 'text', c ->> 'text'))
              from jsonb_array_elements(q.choices) c)
      from public.assessment_questions aq
      join public.questions q on q.id = aq.question_id
     where aq.assessment_id = quiz.id
     order by aq.position;
end
$$;

-- Submits the caller's answers ({ "<question id>": { choice } | { value } | { text } }) and
-- grades them at once: multiple choice by the choice, numeric within the tolerance; short
-- text waits for an instructor. A wrong choice that matches a known misconception gets that
-- misconception's feedback.
create or replace function public.submit_assessment_attempt(assessment_id uuid, answers jsonb)
returns public.assessment_attempts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  quiz public.assessments;
  used int;
  unknown text;
  q record;
  given jsonb;
  verdict text;
  feedback text;
  verdicts jsonb := '[]'::jsonb;
  correct int := 0;
  pending int := 0;
  total int := 0;
  result public.assessment_attempts;
begin
  if uid is null then
    raise exception 'Sign in to submit a quiz' using errcode = '42501';
  end if;
  select * into quiz from public.assessments a where a.id = submit_assessment_attempt.assessment_id;
  if not found or not quiz.published or not learning.enrolled(uid, quiz.course_id) then
    raise exception 'You can submit only quizzes of courses you are enrolled in'
      using errcode = '42501';
  end if;
  if quiz.due_at is not null and now() > quiz.due_at then
    raise exception 'This quiz closed at %; answers are no longer accepted',
      to_char(quiz.due_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"')
      using errcode = 'PT409', detail = 'closed';
  end if;
  if jsonb_typeof(answers) is distinct from 'object' then
    raise exception 'answers must be an object keyed by question id' using errcode = '22023';
  end if;
  select string_agg(k, ', ') into unknown
    from jsonb_object_keys(answers) k
   where not exists (
     select 1 from public.assessment_questions aq
      where aq.assessment_id = quiz.id and aq.question_id::text = k
   );
  if unknown is not null then
    raise exception 'These answers name no question of this quiz: %', unknown
      using errcode = '22023';
  end if;

  -- One submission at a time per learner and course, so two clicks cannot both pass the
  -- attempt count.
  perform 1 from public.enrollments e
   where e.course_id = quiz.course_id and e.user_id = uid for update;
  select count(*) into used from public.assessment_attempts t
   where t.assessment_id = quiz.id and t.user_id = uid;
  if used >= quiz.max_attempts then
    raise exception '%', case when quiz.max_attempts = 1
        then 'This quiz has already been submitted'
        else format('All %s attempts at this quiz have been used', quiz.max_attempts) end
      using errcode = 'PT409', detail = 'already_submitted';
  end if;

  for q in
    select qq.id, qq.type, qq.answer, qq.misconceptions
      from public.assessment_questions aq
      join public.questions qq on qq.id = aq.question_id
     where aq.assessment_id = quiz.id
     order by aq.position
  loop
    total := total + 1;
    given := answers -> q.id::text;
    feedback := null;
    if given is not null and jsonb_typeof(given) <> 'object' then
      raise exception 'The answer to question % must be an object', q.id using errcode = '22023';
    end if;
    if q.type = 'multiple_choice' then
      if given is not null and jsonb_typeof(given -> 'choice') is distinct from 'string' then
        raise exception 'The answer to question % must name a choice: { "choice": id }', q.id
          using errcode = '22023';
      end if;
      verdict := case when given ->> 'choice' = q.answer ->> 'choice' then 'correct' else 'incorrect' end;
      if verdict = 'incorrect' then
        select m ->> 'feedback' into feedback
          from jsonb_array_elements(q.misconceptions) m
         where m ->> 'choice' = given ->> 'choice'
         limit 1;
      end if;
    elsif q.type = 'numeric' then
      if given is not null and jsonb_typeof(given -> 'value') is distinct from 'number' then
        raise exception 'The answer to question % must be a number: { "value": n }', q.id
          using errcode = '22023';
      end if;
      verdict := case
        when given is not null
         and abs((given ->> 'value')::numeric - (q.answer ->> 'value')::numeric)
             <= (q.answer ->> 'tolerance')::numeric
        then 'correct' else 'incorrect' end;
    else
      if given is not null and jsonb_typeof(given -> 'text') is distinct from 'string' then
        raise exception 'The answer to question % must be text: { "text": "…" }', q.id
          using errcode = '22023';
      end if;
      verdict := case when length(trim(coalesce(given ->> 'text', ''))) > 0
        then 'pending' else 'incorrect' end;
    end if;
    if verdict = 'correct' then correct := correct + 1; end if;
    if verdict = 'pending' then pending := pending + 1; end if;
    verdicts := verdicts || jsonb_build_array(jsonb_build_object(
      'question_id', q.id, 'verdict', verdict, 'feedback', feedback));
  end loop;
  if total = 0 then
    raise exception 'This quiz has no questions yet' using errcode = 'PT409', detail = 'empty';
  end if;

  insert into public.assessment_attempts
    (assessment_id, course_id, user_id, attempt_number, answers, verdicts, status, score,
     graded_at)
  values
    (quiz.id, quiz.course_id, uid, used + 1, answers, verdicts,
     case when pending = 0 then 'graded' else 'awaiting_grading' end,
     case when pending = 0 then round(100.0 * correct / total, 2) end,
     case when pending = 0 then now() end)
  returning * into result;
  return result;
end
$$;

-- An instructor grades the short answers of an attempt ({ "<question id>": true | false })
-- and may leave feedback; the score follows once nothing is pending.
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
  if not found or not learning.teaches(uid, attempt.course_id) then
    raise exception 'Only an instructor of this course can grade this attempt'
      using errcode = '42501';
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

-- ----- enrolments and ordering -------------------------------------------------------------

-- Enrols every active learner of a board in a course distributed to that board; returns how
-- many were newly enrolled (a dropped enrolment becomes active again). All or nothing.
create or replace function public.enroll_board(course_id uuid, board_id uuid) returns int
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  added int;
begin
  if not learning.administers_board(uid, enroll_board.board_id) then
    raise exception 'Only an admin of this board can enrol it' using errcode = '42501';
  end if;
  if not exists (
    select 1 from public.course_boards cb
     where cb.course_id = enroll_board.course_id and cb.board_id = enroll_board.board_id
  ) then
    raise exception 'This course is not distributed to this board'
      using errcode = 'PT409', hint = 'The organization''s owner distributes courses to boards.';
  end if;
  with learners as (
    select distinct m.user_id from public.memberships m
     where m.board_id = enroll_board.board_id and m.role = 'learner' and m.active
  ), written as (
    insert into public.enrollments (user_id, course_id, enrolled_by)
    select l.user_id, enroll_board.course_id, uid from learners l
    on conflict on constraint enrollments_user_id_course_id_key do update
      set status = 'active', enrolled_by = excluded.enrolled_by
      where public.enrollments.status = 'dropped'
    returning 1
  )
  select count(*) into added from written;
  return added;
end
$$;

-- Puts a course's modules in the given order. The list must hold each of its modules once.
create or replace function public.reorder_modules(course_id uuid, module_ids uuid[]) returns void
language plpgsql volatile
set search_path = ''
as $$
begin
  if not learning.teaches(auth.uid(), reorder_modules.course_id) then
    raise exception 'Only an instructor of this course can reorder its modules'
      using errcode = '42501';
  end if;
  if module_ids is null
     or cardinality(module_ids) <> (select count(distinct x) from unnest(module_ids) x)
     or (select array_agg(m.id order by m.id) from public.modules m
          where m.course_id = reorder_modules.course_id)
        is distinct from (select array_agg(x order by x) from unnest(module_ids) x) then
    raise exception 'module_ids must list each module of the course exactly once'
      using errcode = '22023';
  end if;
  update public.modules m
     set position = o.ord
    from unnest(module_ids) with ordinality as o(id, ord)
   where m.id = o.id and m.position is distinct from o.ord;
end
$$;

-- Puts a module's lessons in the given order. The list holds each of the module's lessons
-- once, and may bring in lessons of other modules of the same course (moving them here).
create or replace function public.reorder_lessons(module_id uuid, lesson_ids uuid[]) returns void
language plpgsql volatile
set search_path = ''
as $$
declare
  course uuid;
begin
  select m.course_id into course from public.modules m where m.id = reorder_lessons.module_id;
  if course is null or not learning.teaches(auth.uid(), course) then
    raise exception 'Only an instructor of this course can reorder its lessons'
      using errcode = '42501';
  end if;
  if lesson_ids is null
     or cardinality(lesson_ids) <> (select count(distinct x) from unnest(lesson_ids) x)
     or exists (select 1 from public.lessons l
                 where l.module_id = reorder_lessons.module_id and l.id <> all (lesson_ids))
     or (select count(*) from public.lessons l
          where l.id = any (lesson_ids) and l.course_id = course) <> cardinality(lesson_ids) then
    raise exception 'lesson_ids must list each lesson of the module exactly once, and only lessons of this course'
      using errcode = '22023';
  end if;
  -- Lessons that move in leave gaps behind in their old module; positions only need order.
  update public.lessons l
     set module_id = reorder_lessons.module_id,
         position = o.ord
    from unnest(lesson_ids) with ordinality as o(id, ord)
   where l.id = o.id;
end
$$;

revoke all on function public.get_assessment_questions(uuid),
  public.submit_assessment_attempt(uuid, jsonb),
  public.grade_assessment_attempt(uuid, jsonb, text),
  public.enroll_board(uuid, uuid),
  public.reorder_modules(uuid, uuid[]),
  public.reorder_lessons(uuid, uuid[])
  from public;
grant execute on function public.get_assessment_questions(uuid),
  public.submit_assessment_attempt(uuid, jsonb),
  public.grade_assessment_attempt(uuid, jsonb, text),
  public.enroll_board(uuid, uuid),
  public.reorder_modules(uuid, uuid[]),
  public.reorder_lessons(uuid, uuid[])
  to authenticated, service_role;
