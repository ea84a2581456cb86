-- The instructor's course editor (issue 11, decision 0120): the list of courses the caller
-- teaches, and a quiz's questions replaced in one step.

-- The courses the caller teaches (exactly learning.teaches: their own personal courses, the
-- courses they are an instructor of while they hold an instructor or admin membership, every
-- course of an organization they administer), optionally those whose title or subject holds
-- `search` (compared literally, without case). Invoker: the courses' read policy applies too.
-- Clients filter (organization), order and page the result like a table.
create or replace function public.taught_courses(search text default '')
returns setof public.courses
language sql stable
set search_path = ''
as $$
  select c.*
    from public.courses c
   where c.id in (select learning.courses_taught((select auth.uid())))
     and (
       coalesce(search, '') = ''
       or strpos(lower(c.title || ' ' || c.subject), lower(search)) > 0
     )
$$;

-- Sets which bank questions a quiz draws, in this order, replacing the previous list in one
-- statement, so a failure never leaves a quiz half-edited. The questions must belong to the
-- quiz's course (the foreign keys say so too; this says it in words).
create or replace function public.set_assessment_questions(assessment_id uuid, question_ids uuid[])
returns void
language plpgsql volatile
set search_path = ''
as $$
declare
  course uuid;
begin
  select a.course_id into course from public.assessments a
   where a.id = set_assessment_questions.assessment_id;
  if course is null or not learning.teaches(auth.uid(), course) then
    raise exception 'Only an instructor of this course can choose its quiz questions'
      using errcode = '42501';
  end if;
  if question_ids is null
     or cardinality(question_ids) <> (select count(distinct x) from unnest(question_ids) x) then
    raise exception 'question_ids must name each question at most once' using errcode = '22023';
  end if;
  if cardinality(question_ids) > 100 then
    raise exception 'A quiz draws at most 100 questions' using errcode = '22023';
  end if;
  if (select count(*) from public.questions q
       where q.id = any (question_ids) and q.course_id = course) <> cardinality(question_ids) then
    raise exception 'question_ids must name questions of this quiz''s course'
      using errcode = '22023';
  end if;
  delete from public.assessment_questions aq
   where aq.assessment_id = set_assessment_questions.assessment_id;
  insert into public.assessment_questions (assessment_id, question_id, course_id, position)
  select set_assessment_questions.assessment_id, o.id, course, o.ord::int
    from unnest(question_ids) with ordinality as o(id, ord);
end
$$;

revoke all on function public.taught_courses(text),
  public.set_assessment_questions(uuid, uuid[])
  from public;
grant execute on function public.taught_courses(text),
  public.set_assessment_questions(uuid, uuid[])
  to authenticated, service_role;
