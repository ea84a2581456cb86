/*
 * A flashcard from a bank question (decision 0162): the front is the question (with its choices),
 * the back its answer and worked example. The back is the answer a quiz asks for, so the card is
 * made only when it cannot help the learner in a quiz still open to them: they answered the
 * question in a quiz and either got it right, or have no attempt left at any open quiz that
 * draws it. The learner reads neither `questions.answer` nor this rule's inputs directly; the
 * function does, as its owner, for the caller only.
 */
create function public.flashcard_from_question(question_id uuid, deck_id uuid default null)
returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  q public.questions;
  existing uuid;
  answer_text text;
  front_text text;
  back_text text;
  card_id uuid;
begin
  if uid is null then
    raise exception 'Sign in to make flashcards.' using errcode = '42501';
  end if;
  select * into q from public.questions where id = flashcard_from_question.question_id;
  if not found or not exists (
    select 1 from public.assessment_attempts a
     where a.user_id = uid and a.answers ? q.id::text
  ) then
    raise exception 'Answer this question in a quiz first: its card shows the answer.'
      using errcode = '42501';
  end if;

  select c.id into existing from public.flashcards c
   where c.user_id = uid and c.question_id = q.id limit 1;
  if existing is not null then
    return existing;
  end if;

  if not exists (
       select 1 from public.assessment_attempts a,
              jsonb_array_elements(a.verdicts) v
        where a.user_id = uid
          and v ->> 'question_id' = q.id::text
          and v ->> 'verdict' = 'correct')
     and exists (
       select 1
         from public.assessment_questions aq
         join public.assessments s on s.id = aq.assessment_id
        where aq.question_id = q.id
          and s.published
          and (s.due_at is null or s.due_at > now())
          and learning.enrolled(uid, s.course_id)
          and (select count(*) from public.assessment_attempts a
                where a.assessment_id = s.id and a.user_id = uid) < s.max_attempts)
  then
    raise exception 'You can still take a quiz with this question. Make its card once you have answered it correctly or used your last attempt.'
      using errcode = '42501';
  end if;

  answer_text := case q.type
    when 'multiple_choice' then
      (select c ->> 'text' from jsonb_array_elements(q.choices) c
        where c ->> 'id' = q.answer ->> 'choice')
    when 'numeric' then
      concat(q.answer ->> 'value',
             case when (q.answer ->> 'tolerance')::numeric > 0
                  then ' (± ' || (q.answer ->> 'tolerance') || ')' end,
             nullif(' ' || (q.answer ->> 'unit'), ' '))
    else q.answer ->> 'text'
  end;
  front_text := q.prompt || case when q.type = 'multiple_choice' then
    E'\n\n' || (select string_agg('- ' || (c ->> 'text'), E'\n' order by n)
                  from jsonb_array_elements(q.choices) with ordinality as e(c, n))
    else '' end;
  back_text := '**' || answer_text || E'**\n\n' || q.worked_example;

  insert into public.flashcards (user_id, deck_id, front, back, source, question_id)
  values (uid, flashcard_from_question.deck_id, left(front_text, 20000), left(back_text, 20000),
          'question', q.id)
  returning id into card_id;
  return card_id;
end
$$;
revoke all on function public.flashcard_from_question(uuid, uuid) from public;
grant execute on function public.flashcard_from_question(uuid, uuid) to authenticated;
