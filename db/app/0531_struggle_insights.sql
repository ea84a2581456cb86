-- Struggle insights for those who teach a course (issue 13, decision 0222): which bank
-- questions and which prerequisite concepts learners struggle with in the study coach, from
-- the teaching-history log (its judged answers and the refreshers it offered), as counts of
-- learners only. A learner struggled with a question when the coach offered them its refresher
-- or judged at least the organization's struggle threshold of their answers to it wrong or
-- partly right. Groups of fewer than five learners are never returned, so no row can be traced
-- to a person; transcripts stay the learner's own (0520).

create or replace function public.course_struggle_insights(course uuid)
returns table (
  kind text,
  question_id uuid,
  label text,
  module_title text,
  learners int,
  struggling int,
  refresher_offers int,
  refreshers_taken int,
  wrong_answers int,
  threshold int,
  hidden_groups int
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  limit_misses int;
  smallest constant int := 5;
begin
  if course is null then
    raise exception 'course is required' using errcode = '22023';
  end if;
  if not coalesce(learning.teaches(auth.uid(), course), false) then
    raise exception 'Only those who teach this course see its struggle insights.'
      using errcode = '42501';
  end if;
  select coalesce(o.struggle_threshold, 3) into limit_misses
    from public.courses c left join public.organizations o on o.id = c.organization_id
   where c.id = course;
  limit_misses := coalesce(limit_misses, 3);

  return query
  with per_learner as (
    select t.user_id, t.question_id,
           count(*) filter (where t.verdict in ('incorrect', 'partially_correct')) as misses,
           count(*) filter (where t.approach = 'refresher_offer') as offers,
           count(*) filter (where t.approach = 'refresher') as taken
      from public.coach_teaching_log t
     where t.course_id = course and t.question_id is not null
     group by t.user_id, t.question_id
  ),
  judged as (
    select p.*, (p.offers > 0 or p.misses >= limit_misses) as struggled,
           q.prompt, q.prerequisite ->> 'concept' as concept, m.title as module
      from per_learner p
      join public.questions q on q.id = p.question_id and q.course_id = course
      join public.modules m on m.id = q.module_id
  ),
  groups as (
    select 'question'::text as kind, j.question_id, min(j.prompt) as label, min(j.module) as module,
           count(distinct j.user_id)::int as learners,
           count(distinct j.user_id) filter (where j.struggled)::int as struggling,
           sum(j.offers)::int as offers, sum(j.taken)::int as taken, sum(j.misses)::int as misses
      from judged j
     group by j.question_id
    union all
    select 'concept', null, j.concept, null,
           count(distinct j.user_id)::int,
           count(distinct j.user_id) filter (where j.struggled)::int,
           sum(j.offers)::int, sum(j.taken)::int, sum(j.misses)::int
      from judged j
     where coalesce(j.concept, '') <> ''
     group by j.concept
  ),
  hidden as (
    select count(*)::int as n from groups g where g.learners < smallest
  )
  select g.kind, g.question_id, g.label, g.module, g.learners, g.struggling, g.offers, g.taken,
         g.misses, limit_misses, h.n
    from groups g, hidden h
   where g.learners >= smallest
   order by g.kind desc, g.struggling::float / g.learners desc, g.learners desc, g.label;
end
$$;
revoke all on function public.course_struggle_insights(uuid) from public, anon;
grant execute on function public.course_struggle_insights(uuid) to authenticated, service_role;
