-- LE Adapt's jobs (issue 14, decision 0500): one row per upload or course prompt, one row per
-- stage with its status, timings, engine and stored output, the reviewer's section decisions
-- and approval, and a full-text archive. Clients read through REST under these policies;
-- every write goes through the adapt function, which calls the procedures below as the
-- caller, so the role checks live here and nowhere else.
--
-- Roles (decision 0500): Admin = the organization's owner or an organization-wide org_admin,
-- and a Personal-mode user for their own jobs; Educator = an active instructor or board admin
-- of the organization (creates jobs, works their own); Reviewer = an Educator reading a job
-- someone else made in the organization (reads, edits sections, approves).

create schema if not exists adapt;
revoke all on schema adapt from public;
grant usage on schema adapt to authenticated, service_role;

-- Source files: `<job id>/source.<ext>`, written by the server only (no client policies).
insert into storage.buckets (id, name, public, file_size_limit)
values ('adapt-sources', 'adapt-sources', false, 52428800)
on conflict (id) do nothing;

create table public.adapt_jobs (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null references auth.users (id) on delete cascade,
  organization_id uuid references public.organizations (id) on delete cascade,
  title text not null check (char_length(title) between 1 and 300),
  source_format text not null check (source_format in ('pdf', 'docx', 'txt', 'scorm', 'prompt')),
  source_name text check (source_name is null or char_length(source_name) <= 255),
  source_path text check (source_path is null or char_length(source_path) <= 1024),
  source_bytes bigint check (source_bytes is null or source_bytes >= 0),
  prompt text check (prompt is null or char_length(prompt) <= 4000),
  course_id uuid references public.courses (id) on delete set null,
  reading_level smallint not null default 8 check (reading_level between 3 and 14),
  learner_profile text not null default 'none'
    check (learner_profile in ('none', 'adhd', 'dyslexia', 'ell')),
  language text not null default 'en' check (language ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$'),
  status text not null default 'queued'
    check (status in ('queued', 'running', 'done', 'failed', 'cancelled')),
  approved_by uuid references auth.users (id) on delete set null,
  approved_at timestamptz,
  approval_note text check (approval_note is null or char_length(approval_note) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The archive's search: title, file name and the extracted text (PostgreSQL's tsvector holds
  -- at most 1 MB, so the worker indexes the first 300,000 characters).
  search tsvector not null default ''::tsvector,
  check ((approved_by is null) = (approved_at is null)),
  check ((source_format = 'prompt') = (prompt is not null))
);
create index adapt_jobs_owner_idx on public.adapt_jobs (owner_id, created_at desc);
create index adapt_jobs_org_idx on public.adapt_jobs (organization_id, created_at desc)
  where organization_id is not null;
create index adapt_jobs_search_idx on public.adapt_jobs using gin (search);

create table public.adapt_job_stages (
  job_id uuid not null references public.adapt_jobs (id) on delete cascade,
  stage smallint not null check (stage between 1 and 4),
  name text not null check (name in ('extract', 'structure', 'accessible', 'review')),
  status text not null default 'queued'
    check (status in ('queued', 'running', 'done', 'failed', 'cancelled')),
  error text check (error is null or char_length(error) <= 2000),
  attempts int not null default 0,
  started_at timestamptz,
  finished_at timestamptz,
  duration_ms int,
  engine text,
  model text,
  -- The stage's output (src/server/adapt/lesson.ts) and its report for the insights panel.
  output jsonb,
  report jsonb,
  primary key (job_id, stage),
  unique (job_id, name)
);

-- A reviewer's decision on one section of the final lesson: accepted as it is, or edited.
create table public.adapt_section_reviews (
  job_id uuid not null references public.adapt_jobs (id) on delete cascade,
  section_id text not null check (char_length(section_id) between 1 and 200),
  state text not null check (state in ('accepted', 'edited')),
  heading text check (heading is null or char_length(heading) <= 300),
  body text check (body is null or char_length(body) <= 200000),
  reviewed_by uuid references auth.users (id) on delete set null,
  reviewed_at timestamptz not null default now(),
  primary key (job_id, section_id),
  check ((state = 'edited') = (body is not null and heading is not null))
);

-- ----- Roles ------------------------------------------------------------------------------

-- Personal mode: no active membership anywhere and no organization of one's own.
create or replace function adapt.is_personal(uid uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select uid is not null
     and not exists (select 1 from public.memberships m where m.user_id = uid and m.active)
     and not exists (select 1 from public.organizations o where o.owner_id = uid)
$$;

-- Admin of an organization's jobs: the owner or an organization-wide org_admin.
create or replace function adapt.is_admin(uid uuid, org uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select org is not null and learning.is_org_admin(uid, org)
$$;

-- Educator (and, for others' jobs, Reviewer): an instructor or board admin, or an Admin.
create or replace function adapt.is_educator(uid uuid, org uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select org is not null
     and (learning.is_org_admin(uid, org)
          or learning.holds(uid, org, array['instructor', 'org_admin']))
$$;

-- Organizations whose jobs the user reads, as a set the read policy computes once.
create or replace function adapt.orgs_reviewed(uid uuid) returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select o.id from public.organizations o where o.owner_id = uid
  union
  select m.organization_id from public.memberships m
   where m.user_id = uid and m.active and m.role in ('instructor', 'org_admin')
$$;

create or replace function adapt.may_read(uid uuid, job public.adapt_jobs) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select (job.organization_id is null and job.owner_id = uid)
      or (job.organization_id is not null and adapt.is_educator(uid, job.organization_id))
$$;

-- Retry, cancel: the job's creator while an Educator (or Personal), or an Admin.
create or replace function adapt.may_work(uid uuid, job public.adapt_jobs) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select (job.organization_id is null and job.owner_id = uid)
      or (job.organization_id is not null
          and (adapt.is_admin(uid, job.organization_id)
               or (job.owner_id = uid and adapt.is_educator(uid, job.organization_id))))
$$;

-- Approve: an Admin, or a Reviewer (an Educator who did not make the job); a Personal-mode
-- user approves their own.
create or replace function adapt.may_approve(uid uuid, job public.adapt_jobs) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select (job.organization_id is null and job.owner_id = uid)
      or (job.organization_id is not null
          and (adapt.is_admin(uid, job.organization_id)
               or (job.owner_id <> uid and adapt.is_educator(uid, job.organization_id))))
$$;

revoke all on all functions in schema adapt from public;
grant execute on all functions in schema adapt to authenticated, service_role;

-- ----- Policies: reads only; writes go through the procedures ------------------------------

alter table public.adapt_jobs enable row level security;
alter table public.adapt_job_stages enable row level security;
alter table public.adapt_section_reviews enable row level security;

create policy adapt_jobs_read on public.adapt_jobs for select to authenticated
  using (
    (organization_id is null and owner_id = (select auth.uid()))
    or organization_id in (select adapt.orgs_reviewed((select auth.uid())))
  );
create policy adapt_job_stages_read on public.adapt_job_stages for select to authenticated
  using (job_id in (select j.id from public.adapt_jobs j));
create policy adapt_section_reviews_read on public.adapt_section_reviews for select
  to authenticated
  using (job_id in (select j.id from public.adapt_jobs j));

revoke all on public.adapt_jobs, public.adapt_job_stages, public.adapt_section_reviews
  from anon, authenticated;
grant select on public.adapt_jobs, public.adapt_job_stages, public.adapt_section_reviews
  to authenticated;

select audit.attach('public.adapt_jobs', 'providing the learning service', 'contract',
                    array['search']);
select audit.attach('public.adapt_section_reviews', 'providing the learning service', 'contract');

-- ----- Procedures, called as the caller by the adapt function -------------------------------

-- Creates a job and its stage rows; the server stores the file under the job's id and enqueues
-- the work. Refuses a caller who is neither an Educator of the organization nor in Personal
-- mode for a personal job.
create or replace function adapt.create_job(
  p_organization uuid, p_title text, p_format text, p_source_name text, p_source_bytes bigint,
  p_prompt text, p_course uuid, p_reading_level int, p_profile text, p_language text,
  p_stages text[]
) returns public.adapt_jobs
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  job public.adapt_jobs;
  stage_name text;
  n int := 0;
begin
  if uid is null then
    raise exception 'Sign in to adapt course material' using errcode = '42501';
  end if;
  if p_organization is null and not adapt.is_personal(uid) then
    raise exception 'Choose the organization the job belongs to: personal jobs are for Personal mode'
      using errcode = '42501';
  end if;
  if p_organization is not null and not adapt.is_educator(uid, p_organization) then
    raise exception 'Only instructors and admins of the organization can adapt material'
      using errcode = '42501';
  end if;
  if p_course is not null and not learning.can_read_course(uid, p_course) then
    raise exception 'You cannot read that course' using errcode = '42501';
  end if;
  insert into public.adapt_jobs
    (owner_id, organization_id, title, source_format, source_name, source_bytes, prompt,
     course_id, reading_level, learner_profile, language)
  values (uid, p_organization, p_title, p_format, p_source_name, p_source_bytes, p_prompt,
          p_course, p_reading_level, p_profile, p_language)
  returning * into job;
  foreach stage_name in array p_stages loop
    n := n + 1;
    insert into public.adapt_job_stages (job_id, stage, name) values (job.id, n, stage_name);
  end loop;
  return job;
end
$$;

-- Puts the first failed or cancelled stage and those after it back in the queue.
create or replace function adapt.retry_job(p_job uuid) returns public.adapt_jobs
language plpgsql security definer
set search_path = ''
as $$
declare
  job public.adapt_jobs;
  first_open int;
begin
  select * into job from public.adapt_jobs where id = p_job for update;
  if not found or not adapt.may_read(auth.uid(), job) then
    raise exception 'There is no such job' using errcode = 'P0002';
  end if;
  if not adapt.may_work(auth.uid(), job) then
    raise exception 'Only the job''s creator or an admin can retry it' using errcode = '42501';
  end if;
  if job.status not in ('failed', 'cancelled') then
    raise exception 'Only a failed or cancelled job can be retried; this one is %', job.status
      using errcode = '55000';
  end if;
  select min(stage) into first_open from public.adapt_job_stages
   where job_id = p_job and status <> 'done';
  update public.adapt_job_stages
     set status = 'queued', error = null, started_at = null, finished_at = null,
         duration_ms = null
   where job_id = p_job and stage >= coalesce(first_open, 1);
  update public.adapt_jobs set status = 'queued', updated_at = now() where id = p_job
  returning * into job;
  return job;
end
$$;

-- Cancels a queued or running job: the worker stops before its next stage.
create or replace function adapt.cancel_job(p_job uuid) returns public.adapt_jobs
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
  if not adapt.may_work(auth.uid(), job) then
    raise exception 'Only the job''s creator or an admin can cancel it' using errcode = '42501';
  end if;
  if job.status not in ('queued', 'running') then
    raise exception 'Only a queued or running job can be cancelled; this one is %', job.status
      using errcode = '55000';
  end if;
  update public.adapt_job_stages set status = 'cancelled', finished_at = now()
   where job_id = p_job and status in ('queued', 'running');
  update public.adapt_jobs set status = 'cancelled', updated_at = now() where id = p_job
  returning * into job;
  return job;
end
$$;

-- A reviewer accepts a section as it is, or saves an edit of it. An approved job is closed.
create or replace function adapt.review_section(
  p_job uuid, p_section text, p_state text, p_heading text, p_body text
) returns public.adapt_section_reviews
language plpgsql security definer
set search_path = ''
as $$
declare
  job public.adapt_jobs;
  saved public.adapt_section_reviews;
begin
  select * into job from public.adapt_jobs where id = p_job for update;
  if not found or not adapt.may_read(auth.uid(), job) then
    raise exception 'There is no such job' using errcode = 'P0002';
  end if;
  if job.status <> 'done' then
    raise exception 'Sections can be reviewed once every stage is done' using errcode = '55000';
  end if;
  if job.approved_at is not null then
    raise exception 'This job is approved; its sections can no longer change'
      using errcode = '55000';
  end if;
  insert into public.adapt_section_reviews
    (job_id, section_id, state, heading, body, reviewed_by, reviewed_at)
  values (p_job, p_section, p_state,
          case when p_state = 'edited' then p_heading end,
          case when p_state = 'edited' then p_body end, auth.uid(), now())
  on conflict (job_id, section_id) do update
    set state = excluded.state, heading = excluded.heading, body = excluded.body,
        reviewed_by = excluded.reviewed_by, reviewed_at = excluded.reviewed_at
  returning * into saved;
  return saved;
end
$$;

-- A Reviewer's (or Admin's) approval of a finished job, before export or publishing.
create or replace function adapt.approve_job(p_job uuid, p_note text) returns public.adapt_jobs
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
  if not adapt.may_approve(auth.uid(), job) then
    raise exception 'A reviewer other than the job''s creator, or an admin, approves it'
      using errcode = '42501';
  end if;
  if job.status <> 'done' then
    raise exception 'Only a job whose stages are all done can be approved' using errcode = '55000';
  end if;
  if job.approved_at is not null then
    raise exception 'This job is already approved' using errcode = '55000';
  end if;
  update public.adapt_jobs
     set approved_by = auth.uid(), approved_at = now(),
         approval_note = nullif(btrim(coalesce(p_note, '')), ''), updated_at = now()
   where id = p_job
  returning * into job;
  return job;
end
$$;

revoke all on all functions in schema adapt from public;
grant execute on all functions in schema adapt to authenticated, service_role;
