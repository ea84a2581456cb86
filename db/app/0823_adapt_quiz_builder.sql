-- LE Adapt's quiz builder (issue 14, decision 0517): a reviewer's edited quiz of a finished
-- job, replacing the generated one in the review screen, the exports and the published bank
-- questions. One row per job holding the whole quiz in its order, with a version that grows
-- on every save so two reviewers cannot overwrite each other unseen. Read under RLS by whoever
-- reads the job; written only through adapt.save_quiz and adapt.reset_quiz, which the adapt
-- function calls as the caller after checking every question with zod
-- (src/common/adapt-quiz.ts). Audited like the section reviews (0800).

create table public.adapt_quiz_reviews (
  job_id uuid primary key references public.adapt_jobs (id) on delete cascade,
  questions jsonb not null
    check (jsonb_typeof(questions) = 'array' and jsonb_array_length(questions) between 1 and 30
           and octet_length(questions::text) <= 400000),
  version int not null check (version >= 1),
  edited_by uuid references auth.users (id) on delete set null,
  edited_at timestamptz not null default now()
);

alter table public.adapt_quiz_reviews enable row level security;
create policy adapt_quiz_reviews_read on public.adapt_quiz_reviews for select to authenticated
  using (job_id in (select j.id from public.adapt_jobs j));
revoke all on public.adapt_quiz_reviews from anon, authenticated;
grant select on public.adapt_quiz_reviews to authenticated;

select audit.attach('public.adapt_quiz_reviews', 'providing the learning service', 'contract');

insert into privacy.personal_data
  (table_name, subject_column, match, json_key, export, erasure, anonymise_columns, description, reason)
values
  ('public.adapt_quiz_reviews', 'edited_by', 'id', null, false, 'anonymise', '{}',
   'LE Adapt quizzes this person edited',
   'the quiz belongs to the job''s owner; only who edited it is cleared');

-- The job a quiz edit is for, locked, when the caller may edit its quiz: the section reviewers'
-- rights (anyone who reads the job), once every stage is done and until it is approved.
create or replace function adapt.quiz_job_for_edit(p_job uuid) returns public.adapt_jobs
language plpgsql security definer
set search_path = ''
as $$
declare
  job public.adapt_jobs;
begin
  select * into job from public.adapt_jobs where id = p_job for update;
  if not found or not adapt.may_read(auth.uid(), job) then
    raise exception 'There is no such job' using errcode = 'P0002';
  end if;
  if job.status <> 'done' then
    raise exception 'The quiz can be edited once every stage is done' using errcode = '55000';
  end if;
  if job.approved_at is not null then
    raise exception 'This job is approved; its quiz can no longer change' using errcode = '55000';
  end if;
  return job;
end
$$;

-- Saves the whole quiz in its order. p_version is the version the reviewer edited (0 for the
-- generated quiz); when someone saved since, the save is refused and nothing changes.
create or replace function adapt.save_quiz(p_job uuid, p_version int, p_questions jsonb)
returns public.adapt_quiz_reviews
language plpgsql security definer
set search_path = ''
as $$
declare
  current_version int;
  saved public.adapt_quiz_reviews;
begin
  perform adapt.quiz_job_for_edit(p_job);
  select r.version into current_version from public.adapt_quiz_reviews r where r.job_id = p_job;
  if coalesce(current_version, 0) <> p_version then
    raise exception 'Someone saved this quiz since you opened it (version % now, yours was %): reload to see their changes, then edit again',
      coalesce(current_version, 0), p_version using errcode = '55000';
  end if;
  insert into public.adapt_quiz_reviews (job_id, questions, version, edited_by, edited_at)
  values (p_job, p_questions, 1, auth.uid(), now())
  on conflict (job_id) do update
    set questions = excluded.questions, version = public.adapt_quiz_reviews.version + 1,
        edited_by = excluded.edited_by, edited_at = excluded.edited_at
  returning * into saved;
  return saved;
end
$$;

-- Goes back to the generated quiz (the edits are in the audit log).
create or replace function adapt.reset_quiz(p_job uuid, p_version int) returns boolean
language plpgsql security definer
set search_path = ''
as $$
declare
  current_version int;
begin
  perform adapt.quiz_job_for_edit(p_job);
  select r.version into current_version from public.adapt_quiz_reviews r where r.job_id = p_job;
  if current_version is null then
    raise exception 'The quiz is already the generated one' using errcode = '55000';
  end if;
  if current_version <> p_version then
    raise exception 'Someone saved this quiz since you opened it (version % now, yours was %): reload to see their changes',
      current_version, p_version using errcode = '55000';
  end if;
  delete from public.adapt_quiz_reviews r where r.job_id = p_job;
  return true;
end
$$;

revoke all on function adapt.quiz_job_for_edit(uuid) from public;
revoke all on function adapt.save_quiz(uuid, int, jsonb) from public;
revoke all on function adapt.reset_quiz(uuid, int) from public;
grant execute on function adapt.save_quiz(uuid, int, jsonb) to authenticated;
grant execute on function adapt.reset_quiz(uuid, int) to authenticated;
