-- LE Adapt's webhook settings and delivery log as screens (issue 14, decision 0516): the events
-- an endpoint takes, its secret shown once (never read back), a test delivery through the SSRF
-- guard, the time of the next retry, and redelivery from the log.

-- The events an endpoint takes: lesson.exported when a lesson's exports are ready (and when
-- someone sends them), lesson.approved when a Reviewer approves, lesson.published when it is
-- published into a course.
alter table public.adapt_webhook_endpoints
  add column events text[] not null default array['lesson.exported']
    check (
      cardinality(events) between 1 and 3
      and events <@ array['lesson.exported', 'lesson.approved', 'lesson.published']
    );

-- The secret is shown once, when it is made; afterwards nobody reads it through the API, not
-- even an Admin (the delivery job reads it as the platform). Writes go only through
-- adapt.save_endpoint and adapt.delete_endpoint, which the adapt-outputs function calls after
-- its SSRF guard has checked the URL, so a REST write cannot skip that check.
revoke select, insert, update, delete on public.adapt_webhook_endpoints from authenticated;
grant select (organization_id, url, active, events, updated_by, created_at, updated_at)
  on public.adapt_webhook_endpoints to authenticated;

-- Adds or changes the organization's endpoint (its Admins only). The secret changes only when
-- one is given (a new endpoint, or a rotation); the caller already holds it to show it once.
create or replace function adapt.save_endpoint(
  p_org uuid, p_url text, p_active boolean, p_events text[], p_secret text
) returns table (organization_id uuid, url text, active boolean, events text[], created boolean)
language plpgsql security definer
set search_path = ''
as $$
declare
  made boolean;
begin
  if not learning.is_org_admin(auth.uid(), p_org) then
    raise exception 'Only the organization''s Admins set its webhook' using errcode = '42501';
  end if;
  update public.adapt_webhook_endpoints e
     set url = p_url, active = p_active, events = p_events, updated_by = auth.uid(),
         updated_at = now(), secret = coalesce(p_secret, e.secret)
   where e.organization_id = p_org;
  made := not found;
  if made then
    if p_secret is null then
      raise exception 'A new endpoint needs a secret' using errcode = '22023';
    end if;
    insert into public.adapt_webhook_endpoints (organization_id, url, active, events, secret, updated_by)
    values (p_org, p_url, p_active, p_events, p_secret, auth.uid());
  end if;
  return query
    select e.organization_id, e.url, e.active, e.events, made
      from public.adapt_webhook_endpoints e where e.organization_id = p_org;
end
$$;
revoke all on function adapt.save_endpoint(uuid, text, boolean, text[], text) from public;
grant execute on function adapt.save_endpoint(uuid, text, boolean, text[], text) to authenticated;

create or replace function adapt.delete_endpoint(p_org uuid) returns boolean
language plpgsql security definer
set search_path = ''
as $$
begin
  if not learning.is_org_admin(auth.uid(), p_org) then
    raise exception 'Only the organization''s Admins delete its webhook' using errcode = '42501';
  end if;
  delete from public.adapt_webhook_endpoints e where e.organization_id = p_org;
  if not found then
    raise exception 'The organization has no webhook endpoint to delete' using errcode = 'P0002';
  end if;
  return true;
end
$$;
revoke all on function adapt.delete_endpoint(uuid) from public;
grant execute on function adapt.delete_endpoint(uuid) to authenticated;

-- A test delivery belongs to no job; every event an endpoint may take can be logged.
alter table public.adapt_webhook_deliveries alter column job_id drop not null;
alter table public.adapt_webhook_deliveries drop constraint adapt_webhook_deliveries_event_check;
alter table public.adapt_webhook_deliveries add constraint adapt_webhook_deliveries_event_check
  check (event in ('lesson.exported', 'lesson.approved', 'lesson.published', 'webhook.test'));
alter table public.adapt_webhook_deliveries add constraint adapt_webhook_deliveries_job_check
  check ((event = 'webhook.test') = (job_id is null));
-- While a delivery is retrying: the earliest time the queue tries again (it adds up to as much
-- again at random, decision 0514).
alter table public.adapt_webhook_deliveries add column next_attempt_at timestamptz;

-- Sending by hand (the job page's "Send to learning system") stays possible whatever events the
-- endpoint takes: a person chose to send it.
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
    raise exception 'The organization has no active webhook endpoint; an Admin sets one up in LE Adapt''s webhook settings'
      using errcode = '55000';
  end if;
  insert into public.adapt_webhook_deliveries (organization_id, job_id, event, url, payload, requested_by)
  values (job.organization_id, job.id, 'lesson.exported', endpoint.url, p_payload, auth.uid())
  returning * into delivery;
  return delivery;
end
$$;

-- An event of a job for its organization's endpoint, when the endpoint is active and takes that
-- event; null otherwise. Called by the server as the platform after the caller's own action
-- (approval, publication, a finished export) succeeded, so it checks no caller.
create or replace function adapt.queue_event(
  p_job uuid, p_event text, p_payload jsonb, p_requested_by uuid
) returns public.adapt_webhook_deliveries
language plpgsql security definer
set search_path = ''
as $$
declare
  job public.adapt_jobs;
  endpoint public.adapt_webhook_endpoints;
  delivery public.adapt_webhook_deliveries;
begin
  select * into job from public.adapt_jobs j where j.id = p_job;
  if not found or job.organization_id is null then
    return null;
  end if;
  select * into endpoint from public.adapt_webhook_endpoints e
   where e.organization_id = job.organization_id and e.active and p_event = any (e.events);
  if not found then
    return null;
  end if;
  insert into public.adapt_webhook_deliveries (organization_id, job_id, event, url, payload, requested_by)
  values (job.organization_id, job.id, p_event, endpoint.url, p_payload, p_requested_by)
  returning * into delivery;
  return delivery;
end
$$;
revoke all on function adapt.queue_event(uuid, text, jsonb, uuid) from public;

-- A test delivery to the organization's endpoint (active or not), asked for by one of its Admins.
create or replace function adapt.send_test(p_org uuid) returns public.adapt_webhook_deliveries
language plpgsql security definer
set search_path = ''
as $$
declare
  endpoint public.adapt_webhook_endpoints;
  org_name text;
  delivery public.adapt_webhook_deliveries;
begin
  if not learning.is_org_admin(auth.uid(), p_org) then
    raise exception 'Only the organization''s Admins test its webhook' using errcode = '42501';
  end if;
  select * into endpoint from public.adapt_webhook_endpoints e where e.organization_id = p_org;
  if not found then
    raise exception 'Save an endpoint before sending a test' using errcode = '55000';
  end if;
  select o.name into org_name from public.organizations o where o.id = p_org;
  insert into public.adapt_webhook_deliveries (organization_id, job_id, event, url, payload, requested_by)
  values (
    p_org, null, 'webhook.test', endpoint.url,
    jsonb_build_object(
      'event', 'webhook.test',
      'organization', jsonb_build_object('id', p_org, 'name', org_name),
      'sentAt', now()
    ),
    auth.uid()
  )
  returning * into delivery;
  return delivery;
end
$$;
revoke all on function adapt.send_test(uuid) from public;
grant execute on function adapt.send_test(uuid) to authenticated;

-- Sends a logged delivery again, to the endpoint's current URL, as a new delivery with the same
-- event and payload (the server then renews a package's links). For the organization's Admins.
create or replace function adapt.redeliver(p_delivery uuid) returns public.adapt_webhook_deliveries
language plpgsql security definer
set search_path = ''
as $$
declare
  old public.adapt_webhook_deliveries;
  endpoint public.adapt_webhook_endpoints;
  delivery public.adapt_webhook_deliveries;
begin
  select * into old from public.adapt_webhook_deliveries d where d.id = p_delivery;
  if not found or not (
    learning.is_org_admin(auth.uid(), old.organization_id) or old.requested_by = auth.uid()
  ) then
    raise exception 'No such delivery' using errcode = 'P0002';
  end if;
  if not learning.is_org_admin(auth.uid(), old.organization_id) then
    raise exception 'Only the organization''s Admins redeliver' using errcode = '42501';
  end if;
  if old.status in ('pending', 'retrying') then
    raise exception 'This delivery is still being tried' using errcode = '55000';
  end if;
  select * into endpoint from public.adapt_webhook_endpoints e
   where e.organization_id = old.organization_id and (e.active or old.event = 'webhook.test');
  if not found then
    raise exception 'The organization has no active webhook endpoint' using errcode = '55000';
  end if;
  insert into public.adapt_webhook_deliveries (organization_id, job_id, event, url, payload, requested_by)
  values (old.organization_id, old.job_id, old.event, endpoint.url, old.payload, auth.uid())
  returning * into delivery;
  return delivery;
end
$$;
revoke all on function adapt.redeliver(uuid) from public;
grant execute on function adapt.redeliver(uuid) to authenticated;
