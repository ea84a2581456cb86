-- Security incidents (issue 16, decision 0403): raised by detect_security_incident() from
-- real signals (run every five minutes by the job queue) or reported by a compliance officer,
-- worked through open → investigating → contained → resolved → closed, with the GDPR 72-hour
-- and HIPAA 60-day notification deadlines.

create table public.security_incidents (
  id uuid primary key default gen_random_uuid(),
  title text not null check (length(trim(title)) between 3 and 200),
  description text not null default '' check (length(description) <= 5000),
  severity text not null check (severity in ('low', 'medium', 'high', 'critical')),
  status text not null default 'open'
    check (status in ('open', 'investigating', 'contained', 'resolved', 'closed')),
  category text not null check (category in
    ('failed_sign_ins', 'refresh_token_reuse', 'pin_brute_force', 'mass_export', 'reported')),
  -- null: a platform-wide incident (an address attacking sign-in), shown to every officer.
  organization_id uuid references public.organizations (id) on delete set null,
  -- Identifiers and counts (an address, an account id), never record content.
  details jsonb not null default '{}'::jsonb,
  personal_data_involved boolean not null default false,
  phi_involved boolean not null default false,
  detected_at timestamptz not null default now(),
  -- GDPR Art. 33: the supervisory authority within 72 hours of becoming aware. HIPAA
  -- 45 CFR 164.404: individuals without unreasonable delay, at most 60 days. Set by trigger.
  gdpr_notify_by timestamptz,
  hipaa_notify_by timestamptz,
  authority_notified_at timestamptz,
  status_changed_at timestamptz not null default now(),
  closed_at timestamptz,
  -- One incident per signal and window, so a detector run twice raises it once.
  signal_key text unique,
  reported_by uuid references auth.users (id) on delete set null
);
create index security_incidents_org_idx on public.security_incidents (organization_id, detected_at desc);

create table public.incident_response_actions (
  id uuid primary key default gen_random_uuid(),
  incident_id uuid not null references public.security_incidents (id) on delete cascade,
  action_type text not null check (action_type in ('containment', 'notification', 'assessment')),
  title text not null,
  status text not null default 'pending' check (status in ('pending', 'done')),
  due_at timestamptz not null,
  completed_at timestamptz,
  completed_by uuid references auth.users (id) on delete set null
);
create index incident_actions_incident_idx on public.incident_response_actions (incident_id);

-- ----- the status machine ------------------------------------------------------------------

create or replace function audit.incident_transition() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  steps text[] := array['open', 'investigating', 'contained', 'resolved', 'closed'];
begin
  if new.status is distinct from old.status then
    if array_position(steps, new.status) is distinct from array_position(steps, old.status) + 1 then
      raise exception using errcode = '22023',
        message = format('an incident moves open → investigating → contained → resolved → closed; %s → %s is not the next step',
          old.status, new.status);
    end if;
    new.status_changed_at := now();
    if new.status = 'closed' then new.closed_at := now(); end if;
  end if;
  return new;
end
$$;
create trigger security_incidents_transition before update on public.security_incidents
  for each row execute function audit.incident_transition();

create or replace function audit.incident_clocks() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.gdpr_notify_by := case when new.personal_data_involved
    then new.detected_at + interval '72 hours' end;
  new.hipaa_notify_by := case when new.phi_involved then new.detected_at + interval '1440 hours' end;
  return new;
end
$$;
create trigger security_incidents_clocks before insert or update of detected_at,
  personal_data_involved, phi_involved on public.security_incidents
  for each row execute function audit.incident_clocks();

-- A critical incident starts with its three duties.
create or replace function audit.incident_first_actions() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.severity = 'critical' then
    insert into public.incident_response_actions (incident_id, action_type, title, due_at) values
      (new.id, 'containment', 'Contain: stop the access (revoke sessions, block the address, rotate keys)',
        new.detected_at + interval '1 hour'),
      (new.id, 'assessment', 'Assess: which records and people are affected, and the risk to them',
        new.detected_at + interval '24 hours'),
      (new.id, 'notification', 'Notify the supervisory authority (and the people affected if the risk is high)',
        new.detected_at + interval '72 hours');
  end if;
  return null;
end
$$;
create trigger security_incidents_first_actions after insert on public.security_incidents
  for each row execute function audit.incident_first_actions();

create or replace function audit.action_completed() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status = 'done' and old.status = 'pending' then
    new.completed_at := now();
    new.completed_by := auth.uid();
  elsif new.status is distinct from old.status then
    raise exception using errcode = '22023', message = 'a completed action stays completed';
  end if;
  return new;
end
$$;
create trigger incident_actions_completed before update on public.incident_response_actions
  for each row execute function audit.action_completed();

select audit.attach('public.security_incidents', 'security incident response', 'legal_obligation');
select audit.attach('public.incident_response_actions', 'security incident response', 'legal_obligation');

-- ----- detection ---------------------------------------------------------------------------

-- Raises an incident for each signal above its threshold in its window, once per window;
-- returns how many it raised. Thresholds: 20 failed sign-ins from one address or 10 for one
-- account in 15 minutes; any refresh-token reuse; 10 wrong data-room PINs from one address in
-- 15 minutes; 5 exports by one person in an hour.
create or replace function public.detect_security_incident() returns integer
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  window_key text := to_char(date_trunc('hour', now()), 'YYYY-MM-DD"T"HH24');
  raised integer := 0;
  n integer;
begin
  insert into public.security_incidents
    (title, severity, category, details, signal_key, organization_id, personal_data_involved)
  select format('%s failed sign-ins from %s in 15 minutes', count(*), f.ip), 'high', 'failed_sign_ins',
         jsonb_build_object('ip', f.ip, 'failures', count(*), 'accounts', count(distinct f.email)),
         'failed_sign_ins:ip:' || f.ip || ':' || window_key, null, false
    from auth.failed_sign_ins f
   where f.created_at > now() - interval '15 minutes' and f.ip is not null
   group by f.ip having count(*) >= 20
  on conflict (signal_key) do nothing;
  get diagnostics n = row_count;
  raised := raised + n;

  insert into public.security_incidents
    (title, severity, category, details, signal_key, organization_id, personal_data_involved)
  select format('%s failed sign-ins for one account in 15 minutes', count(*)), 'medium', 'failed_sign_ins',
         jsonb_build_object('user_id', u.id, 'failures', count(*), 'addresses', count(distinct f.ip)),
         'failed_sign_ins:account:' || lower(f.email) || ':' || window_key,
         audit.organization_of('{}'::jsonb, u.id), false
    from auth.failed_sign_ins f
    left join auth.users u on lower(u.email) = lower(f.email)
   where f.created_at > now() - interval '15 minutes' and f.email is not null
   group by lower(f.email), u.id having count(*) >= 10
  on conflict (signal_key) do nothing;
  get diagnostics n = row_count;
  raised := raised + n;

  insert into public.security_incidents
    (title, severity, category, details, signal_key, organization_id, personal_data_involved)
  select 'A refresh token was used twice: the session was revoked', 'high', 'refresh_token_reuse',
         jsonb_build_object('user_id', l.user_id, 'session_id', l.record_id, 'audit_id', l.id),
         'refresh_token_reuse:' || l.id, l.organization_id, true
    from public.audit_log l
   where l.action = 'auth.refresh_token_reused' and l."timestamp" > now() - interval '1 hour'
  on conflict (signal_key) do nothing;
  get diagnostics n = row_count;
  raised := raised + n;

  insert into public.security_incidents
    (title, severity, category, details, signal_key, organization_id, personal_data_involved)
  select format('%s wrong data-room PINs from %s in 15 minutes', count(*), p.client_address), 'high',
         'pin_brute_force',
         jsonb_build_object('ip', p.client_address, 'attempts', count(*)),
         'pin_brute_force:' || p.client_address || ':' || window_key, null, false
    from data_room.pin_attempts p
   where p.attempted_at > now() - interval '15 minutes' and not p.succeeded
   group by p.client_address having count(*) >= 10
  on conflict (signal_key) do nothing;
  get diagnostics n = row_count;
  raised := raised + n;

  insert into public.security_incidents
    (title, severity, category, details, signal_key, organization_id, personal_data_involved)
  select format('%s exports by one person in an hour', count(*)), 'critical', 'mass_export',
         jsonb_build_object('user_id', l.user_id, 'exports', count(*)),
         'mass_export:' || l.user_id || ':' || window_key,
         min(l.organization_id::text)::uuid, true
    from public.audit_log l
   where l.action like '%export%' and l."timestamp" > now() - interval '1 hour'
     and l.user_id is not null
   group by l.user_id having count(*) >= 5
  on conflict (signal_key) do nothing;
  get diagnostics n = row_count;
  raised := raised + n;

  return raised;
end
$$;
revoke all on function public.detect_security_incident() from public;
grant execute on function public.detect_security_incident() to service_role;

-- An officer reports an incident they learnt of some other way.
create or replace function public.report_security_incident(
  title text, severity text, description text default '',
  personal_data_involved boolean default false, phi_involved boolean default false,
  organization_id uuid default null
) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  created uuid;
begin
  if not ((select audit.is_platform_admin())
     or (organization_id is not null and organization_id = any (audit.readable_organizations()))) then
    raise exception using errcode = '42501',
      message = 'only a compliance officer of the organization or a platform admin reports incidents';
  end if;
  insert into public.security_incidents (title, severity, description, category,
    personal_data_involved, phi_involved, organization_id, reported_by)
  values (title, severity, coalesce(description, ''), 'reported', personal_data_involved,
    phi_involved, organization_id, auth.uid())
  returning id into created;
  return created;
end
$$;
revoke all on function public.report_security_incident(text, text, text, boolean, boolean, uuid) from public;
grant execute on function public.report_security_incident(text, text, text, boolean, boolean, uuid)
  to authenticated;

-- ----- who sees and works them -------------------------------------------------------------

create or replace function audit.sees_incident(org uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select audit.is_platform_admin()
      or (org is null and cardinality(audit.readable_organizations()) > 0)
      or org = any (audit.readable_organizations())
$$;
grant execute on function audit.sees_incident(uuid) to authenticated;

alter table public.security_incidents enable row level security;
alter table public.incident_response_actions enable row level security;
create policy security_incidents_read on public.security_incidents for select to authenticated
  using (audit.sees_incident(organization_id));
create policy security_incidents_work on public.security_incidents for update to authenticated
  using (audit.sees_incident(organization_id)) with check (audit.sees_incident(organization_id));
create policy incident_actions_read on public.incident_response_actions for select to authenticated
  using (exists (select 1 from public.security_incidents i
                  where i.id = incident_id and audit.sees_incident(i.organization_id)));
create policy incident_actions_work on public.incident_response_actions for update to authenticated
  using (exists (select 1 from public.security_incidents i
                  where i.id = incident_id and audit.sees_incident(i.organization_id)));

revoke all on public.security_incidents, public.incident_response_actions from public, anon, authenticated;
grant select on public.security_incidents, public.incident_response_actions to authenticated, service_role;
grant update (status, authority_notified_at) on public.security_incidents to authenticated;
grant update (status) on public.incident_response_actions to authenticated;
grant all on public.security_incidents, public.incident_response_actions to service_role;
