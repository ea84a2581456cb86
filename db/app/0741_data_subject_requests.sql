-- Data subject requests (issue 16, decision 0411): a user files one of the six GDPR requests
-- about themself; the organization admins of an organization they belong to, and platform
-- admins, work them. Due 30 days after filing (the visible service level); overdue is an open
-- request past its due time. Filing is rate limited so a loop cannot flood the queue.

create table public.data_subject_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade default auth.uid(),
  request_type text not null check (request_type in
    ('access', 'rectification', 'erasure', 'portability', 'restriction', 'objection')),
  details text not null default '' check (char_length(details) <= 2000),
  status text not null default 'pending'
    check (status in ('pending', 'in_progress', 'completed', 'rejected')),
  created_at timestamptz not null default now(),
  due_at timestamptz not null default now() + interval '30 days',
  completed_at timestamptz,
  handled_by uuid references auth.users (id) on delete set null,
  resolution text check (resolution is null or char_length(resolution) <= 2000),
  check ((status in ('completed', 'rejected')) = (completed_at is not null))
);
create index data_subject_requests_user_idx on public.data_subject_requests (user_id, created_at);
create index data_subject_requests_open_idx on public.data_subject_requests (due_at)
  where status in ('pending', 'in_progress');

-- Who works a person's requests: a platform admin, or an organization-wide admin (or owner)
-- of an organization the person belongs to.
create or replace function privacy.handles_requests_of(uid uuid, person uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select public.has_role(uid, 'admin')
      or exists (
        select 1 from public.memberships m
         where m.user_id = person and learning.is_org_admin(uid, m.organization_id)
      )
$$;
revoke all on function privacy.handles_requests_of(uuid, uuid) from public;
grant execute on function privacy.handles_requests_of(uuid, uuid) to authenticated, service_role;

alter table public.data_subject_requests enable row level security;
create policy data_subject_requests_select on public.data_subject_requests for select
  to authenticated
  using (user_id = (select auth.uid()) or privacy.handles_requests_of((select auth.uid()), user_id));
revoke all on public.data_subject_requests from anon, authenticated;
grant select on public.data_subject_requests to authenticated;

select audit.attach('public.data_subject_requests', 'data subject rights', 'legal_obligation');
select audit.attach('public.user_consent', 'consent records', 'legal_obligation');

-- Files a request about the caller. At most one open request of each type, and at most five
-- filed in 24 hours: more is refused with 429 and a sentence saying when to try again.
create or replace function public.create_data_subject_request(type text, details text default '')
returns public.data_subject_requests
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  recent int;
  oldest timestamptz;
  created public.data_subject_requests;
begin
  if uid is null then
    raise exception 'Sign in to file a data request' using errcode = '42501';
  end if;
  if create_data_subject_request.type is null or create_data_subject_request.type not in
     ('access', 'rectification', 'erasure', 'portability', 'restriction', 'objection') then
    raise exception 'type must be one of access, rectification, erasure, portability, restriction, objection'
      using errcode = '22023';
  end if;
  if char_length(coalesce(create_data_subject_request.details, '')) > 2000 then
    raise exception 'details must be at most 2,000 characters' using errcode = '22023';
  end if;
  if create_data_subject_request.type = 'rectification'
     and btrim(coalesce(create_data_subject_request.details, '')) = '' then
    raise exception 'Say what is wrong and what it should be: a rectification request needs details'
      using errcode = '22023';
  end if;
  -- One filing at a time per user, so two concurrent calls cannot both pass the limits.
  perform pg_advisory_xact_lock(hashtextextended('dsar:' || uid::text, 0));
  if exists (
    select 1 from public.data_subject_requests r
     where r.user_id = uid and r.request_type = create_data_subject_request.type
       and r.status in ('pending', 'in_progress')
  ) then
    raise exception 'You already have an open % request; it is being worked on', create_data_subject_request.type
      using errcode = 'PT409';
  end if;
  select count(*)::int, min(r.created_at) into recent, oldest
    from public.data_subject_requests r
   where r.user_id = uid and r.created_at > now() - interval '24 hours';
  if recent >= 5 then
    raise exception 'Too many requests: at most 5 in 24 hours. Try again after %',
      to_char(oldest + interval '24 hours', 'YYYY-MM-DD HH24:MI "UTC"')
      using errcode = 'PT429';
  end if;
  insert into public.data_subject_requests (user_id, request_type, details)
  values (uid, create_data_subject_request.type, coalesce(btrim(create_data_subject_request.details), ''))
  returning * into created;
  return created;
end
$$;

-- Moves a request along: pending → in_progress → completed or rejected (pending may go
-- straight to either). A rejection says why. Only those who handle the person's requests.
create or replace function public.update_data_subject_request(
  request_id uuid, status text, resolution text default null
) returns public.data_subject_requests
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  request public.data_subject_requests;
begin
  select * into request from public.data_subject_requests r
   where r.id = update_data_subject_request.request_id for update;
  if not found or uid is null or not privacy.handles_requests_of(uid, request.user_id) then
    raise exception 'No such request among those you handle' using errcode = 'PT404';
  end if;
  if update_data_subject_request.status is null
     or update_data_subject_request.status not in ('in_progress', 'completed', 'rejected') then
    raise exception 'status must be in_progress, completed or rejected' using errcode = '22023';
  end if;
  if request.status in ('completed', 'rejected') then
    raise exception 'This request is already %', replace(request.status, '_', ' ')
      using errcode = 'PT409';
  end if;
  if request.status = update_data_subject_request.status then
    raise exception 'This request is already in progress' using errcode = 'PT409';
  end if;
  if update_data_subject_request.status = 'rejected'
     and btrim(coalesce(update_data_subject_request.resolution, '')) = '' then
    raise exception 'Say why the request is rejected: the person is told' using errcode = '22023';
  end if;
  if char_length(coalesce(update_data_subject_request.resolution, '')) > 2000 then
    raise exception 'resolution must be at most 2,000 characters' using errcode = '22023';
  end if;
  update public.data_subject_requests r
     set status = update_data_subject_request.status,
         handled_by = uid,
         resolution = coalesce(nullif(btrim(update_data_subject_request.resolution), ''), r.resolution),
         completed_at = case when update_data_subject_request.status in ('completed', 'rejected')
                             then now() end
   where r.id = request.id
  returning * into request;
  return request;
end
$$;

revoke all on function public.create_data_subject_request(text, text),
  public.update_data_subject_request(uuid, text, text) from public, anon;
grant execute on function public.create_data_subject_request(text, text),
  public.update_data_subject_request(uuid, text, text) to authenticated;
