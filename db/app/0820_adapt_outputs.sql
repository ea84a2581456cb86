-- LE Adapt's outputs (issue 14, decisions 0514 and 0515): a webhook endpoint per organization,
-- the log of deliveries to it and of each attempt, and publishing an approved lesson into a
-- course of the learning app as a lesson and bank questions.

-- ----- Exports ----------------------------------------------------------------------------

-- The files of an approved job (`<job id>/<file>`), written by the exports job only; people
-- download them through short-lived signed URLs the adapt-outputs function makes.
insert into storage.buckets (id, name, public, file_size_limit)
values ('adapt-exports', 'adapt-exports', false, 209715200)
on conflict (id) do nothing;

-- The latest export run of a job: queued when asked for, then running, done with its files, or
-- failed with the reason.
create table public.adapt_exports (
  job_id uuid primary key references public.adapt_jobs (id) on delete cascade,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  -- [{ name, format, bytes, contentType }]
  files jsonb not null default '[]'::jsonb check (jsonb_typeof(files) = 'array'),
  error text check (error is null or length(error) <= 2000),
  audio_seconds numeric,
  requested_by uuid references auth.users (id) on delete set null,
  requested_at timestamptz not null default now(),
  finished_at timestamptz
);
alter table public.adapt_exports enable row level security;
create policy adapt_exports_read on public.adapt_exports for select to authenticated
  using (job_id in (select j.id from public.adapt_jobs j));
revoke all on public.adapt_exports from anon, authenticated;
grant select on public.adapt_exports to authenticated;

-- Asks for a job's exports (again); the adapt-outputs function then enqueues the exports job.
create or replace function adapt.request_exports(p_job uuid) returns public.adapt_exports
language plpgsql security definer
set search_path = ''
as $$
declare
  job public.adapt_jobs;
  run public.adapt_exports;
begin
  select * into job from public.adapt_jobs j where j.id = p_job;
  if not found or not adapt.may_read(auth.uid(), job) then
    raise exception 'No such job' using errcode = 'P0002';
  end if;
  if job.approved_at is null then
    raise exception 'A Reviewer approves the lesson before it is exported' using errcode = '55000';
  end if;
  insert into public.adapt_exports (job_id, requested_by)
  values (p_job, auth.uid())
  on conflict (job_id) do update
    set status = 'queued', files = '[]'::jsonb, error = null, audio_seconds = null,
        requested_by = auth.uid(), requested_at = now(), finished_at = null
    where public.adapt_exports.status in ('done', 'failed')
  returning * into run;
  if run is null then
    select * into run from public.adapt_exports e where e.job_id = p_job;
  end if;
  return run;
end
$$;
revoke all on function adapt.request_exports(uuid) from public;
grant execute on function adapt.request_exports(uuid) to authenticated;

-- ----- Webhook endpoints ------------------------------------------------------------------

-- One endpoint per organization, kept by its Admins (the owner or an organization-wide
-- org_admin). The secret signs every delivery (X-Lyceum-Signature); only Admins read it.
create table public.adapt_webhook_endpoints (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  url text not null check (url ~ '^https?://[^\s]+$' and length(url) <= 2048),
  secret text not null check (length(secret) between 24 and 200),
  active boolean not null default true,
  updated_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- One delivery of one job's outputs; the job's worker updates it after each attempt.
create table public.adapt_webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  job_id uuid not null references public.adapt_jobs (id) on delete cascade,
  event text not null default 'lesson.exported' check (event in ('lesson.exported')),
  url text not null check (length(url) <= 2048),
  payload jsonb not null check (jsonb_typeof(payload) = 'object'),
  status text not null default 'pending'
    check (status in ('pending', 'retrying', 'delivered', 'failed', 'refused')),
  attempts int not null default 0 check (attempts >= 0),
  response_code int check (response_code is null or response_code between 100 and 599),
  error text check (error is null or length(error) <= 2000),
  requested_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  delivered_at timestamptz,
  check ((status = 'delivered') = (delivered_at is not null))
);
create index adapt_webhook_deliveries_org_idx
  on public.adapt_webhook_deliveries (organization_id, created_at desc);
create index adapt_webhook_deliveries_job_idx on public.adapt_webhook_deliveries (job_id);

create table public.adapt_webhook_attempts (
  delivery_id uuid not null references public.adapt_webhook_deliveries (id) on delete cascade,
  attempt int not null check (attempt >= 1),
  attempted_at timestamptz not null default now(),
  response_code int check (response_code is null or response_code between 100 and 599),
  error text check (error is null or length(error) <= 2000),
  duration_ms int not null check (duration_ms >= 0),
  primary key (delivery_id, attempt)
);

alter table public.adapt_webhook_endpoints enable row level security;
alter table public.adapt_webhook_deliveries enable row level security;
alter table public.adapt_webhook_attempts enable row level security;

create policy adapt_webhook_endpoints_admin on public.adapt_webhook_endpoints
  for all to authenticated
  using (learning.is_org_admin((select auth.uid()), organization_id))
  with check (learning.is_org_admin((select auth.uid()), organization_id));
-- The log: the organization's Admins, and whoever asked for the delivery.
create policy adapt_webhook_deliveries_read on public.adapt_webhook_deliveries
  for select to authenticated
  using (
    learning.is_org_admin((select auth.uid()), organization_id)
    or requested_by = (select auth.uid())
  );
create policy adapt_webhook_attempts_read on public.adapt_webhook_attempts
  for select to authenticated
  using (delivery_id in (select d.id from public.adapt_webhook_deliveries d));

revoke all on public.adapt_webhook_endpoints, public.adapt_webhook_deliveries,
  public.adapt_webhook_attempts from anon, authenticated;
grant select, insert, update, delete on public.adapt_webhook_endpoints to authenticated;
grant select on public.adapt_webhook_deliveries, public.adapt_webhook_attempts to authenticated;

select audit.attach('public.adapt_webhook_endpoints', 'providing the learning service',
                    'contract', array['secret']);

-- Asks for a delivery of an approved job to its organization's endpoint; called as the caller
-- (anyone who may read the job) by the adapt-outputs function, which builds the payload and
-- enqueues the delivery job. Refuses a job that is personal, unapproved or whose organization
-- has no active endpoint.
create or replace function adapt.request_delivery(p_job uuid, p_payload jsonb)
returns public.adapt_webhook_deliveries
language plpgsql security definer
set search_path = ''
as $$
declare
  job public.adapt_jobs;
  endpoint public.adapt_webhook_endpoints;
  delivery public.adapt_webhook_deliveries;
begin
  select * into job from public.adapt_jobs j where j.id = p_job;
  if not found or not adapt.may_read(auth.uid(), job) then
    raise exception 'No such job' using errcode = 'P0002';
  end if;
  if job.approved_at is null then
    raise exception 'A Reviewer approves the lesson before it is sent' using errcode = '55000';
  end if;
  if job.organization_id is null then
    raise exception 'Webhooks deliver to an organization''s learning system; this job is personal'
      using errcode = '55000';
  end if;
  select * into endpoint from public.adapt_webhook_endpoints e
   where e.organization_id = job.organization_id and e.active;
  if not found then
    raise exception 'The organization has no active webhook endpoint; an Admin sets one up in LE Adapt''s settings'
      using errcode = '55000';
  end if;
  insert into public.adapt_webhook_deliveries (organization_id, job_id, url, payload, requested_by)
  values (job.organization_id, job.id, endpoint.url, p_payload, auth.uid())
  returning * into delivery;
  return delivery;
end
$$;
revoke all on function adapt.request_delivery(uuid, jsonb) from public;
grant execute on function adapt.request_delivery(uuid, jsonb) to authenticated;

-- ----- Publishing to the learning app -----------------------------------------------------

-- Where each approved job was published: the lesson it became.
create table public.adapt_publications (
  id uuid primary key default gen_random_uuid(),
  job_id uuid not null references public.adapt_jobs (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  lesson_id uuid not null references public.lessons (id) on delete cascade,
  questions int not null check (questions >= 0),
  published_by uuid references auth.users (id) on delete set null default auth.uid(),
  published_at timestamptz not null default now()
);
create index adapt_publications_job_idx on public.adapt_publications (job_id, published_at desc);
alter table public.adapt_publications enable row level security;
create policy adapt_publications_read on public.adapt_publications for select to authenticated
  using (job_id in (select j.id from public.adapt_jobs j));
-- Written by adapt.publish_lesson as the caller: only for a lesson of a course they may edit.
create policy adapt_publications_insert on public.adapt_publications for insert to authenticated
  with check (
    job_id in (select j.id from public.adapt_jobs j)
    and learning.teaches((select auth.uid()), course_id)
    and exists (
      select 1 from public.lessons l
       where l.id = adapt_publications.lesson_id and l.course_id = adapt_publications.course_id
    )
    and published_by = (select auth.uid())
  );
revoke all on public.adapt_publications from anon, authenticated;
grant select, insert on public.adapt_publications to authenticated;

-- Publishes an approved job's lesson into a course the caller may edit: a Markdown lesson at the
-- end of the course's "Adapted with LE Adapt" module (made when missing) and its quiz as bank
-- questions. SECURITY INVOKER: the learning app's own policies decide whether the caller may
-- write this course's modules, lessons and questions, as for the course editor.
create or replace function adapt.publish_lesson(
  p_job uuid, p_course uuid, p_title text, p_body text, p_minutes int, p_questions jsonb
) returns public.adapt_publications
language plpgsql security invoker
set search_path = ''
as $$
declare
  job public.adapt_jobs;
  v_module uuid;
  v_lesson uuid;
  question jsonb;
  v_base text;
  v_slug text;
  n int := 0;
  publication public.adapt_publications;
begin
  select * into job from public.adapt_jobs j where j.id = p_job;
  if not found then
    raise exception 'No such job' using errcode = 'P0002';
  end if;
  if job.approved_at is null then
    raise exception 'A Reviewer approves the lesson before it is published' using errcode = '55000';
  end if;
  if not learning.teaches(auth.uid(), p_course) then
    raise exception 'You may only publish into a course you can edit' using errcode = '42501';
  end if;
  if jsonb_typeof(p_questions) is distinct from 'array' then
    raise exception 'questions must be an array' using errcode = '22023';
  end if;

  select m.id into v_module from public.modules m
   where m.course_id = p_course and m.slug = 'le-adapt';
  if v_module is null then
    insert into public.modules (course_id, position, slug, title, summary)
    values (p_course,
            coalesce((select max(m.position) from public.modules m where m.course_id = p_course), 0) + 1,
            'le-adapt', 'Adapted with LE Adapt',
            'Lessons adapted for accessibility and published from LE Adapt.')
    returning id into v_module;
  end if;

  insert into public.lessons (module_id, course_id, position, title, kind, body, estimated_minutes)
  values (v_module, p_course,
          coalesce((select max(l.position) from public.lessons l where l.module_id = v_module), 0) + 1,
          left(p_title, 200), 'markdown', p_body, greatest(1, least(600, p_minutes)))
  returning id into v_lesson;

  for question in select * from jsonb_array_elements(p_questions) loop
    v_base := left(question ->> 'id', 70);
    v_slug := v_base;
    while exists (select 1 from public.questions q where q.course_id = p_course and q.slug = v_slug) loop
      v_slug := v_base || '-' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 6);
    end loop;
    insert into public.questions (
      course_id, module_id, slug, type, prompt, choices, answer, key_points, hints,
      worked_example, misconceptions, difficulty, prerequisite
    ) values (
      p_course, v_module, v_slug, question ->> 'type', question ->> 'prompt',
      case when question -> 'choices' = 'null'::jsonb then null else question -> 'choices' end,
      question -> 'answer', question -> 'key_points', question -> 'hints',
      question ->> 'worked_example', question -> 'misconceptions',
      (question ->> 'difficulty')::smallint, question -> 'prerequisite'
    );
    n := n + 1;
  end loop;

  insert into public.adapt_publications (job_id, course_id, lesson_id, questions)
  values (p_job, p_course, v_lesson, n)
  returning * into publication;
  return publication;
end
$$;
revoke all on function adapt.publish_lesson(uuid, uuid, text, text, int, jsonb) from public;
grant execute on function adapt.publish_lesson(uuid, uuid, text, text, int, jsonb) to authenticated;
