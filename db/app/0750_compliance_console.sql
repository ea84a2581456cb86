-- The compliance officer's console (issue 16, decision 0420): the reads it needs beyond what
-- row-level security already gives officers (the audit log's identifiers, incidents,
-- retention). Each answers identifiers, kinds and counts, never the content of a personal
-- record, and only for the organizations whose compliance officer the caller is (a platform
-- admin: every organization, or the one named).

-- Who the caller may review: the named organization when they may, else all they may.
create or replace function audit.reviewed_organizations(organization uuid) returns uuid[]
language plpgsql stable security definer
set search_path = ''
as $$
declare
  mine uuid[] := audit.readable_organizations();
begin
  if audit.is_platform_admin() then
    return case when organization is null then null else array[organization] end;
  end if;
  if cardinality(mine) = 0 then
    raise exception using errcode = '42501',
      message = 'only compliance officers and platform admins use the compliance console';
  end if;
  if organization is null then return mine; end if;
  if not organization = any (mine) then
    raise exception using errcode = '42501',
      message = 'you are not a compliance officer of that organization';
  end if;
  return array[organization];
end
$$;
revoke all on function audit.reviewed_organizations(uuid) from public;
grant execute on function audit.reviewed_organizations(uuid) to authenticated;

-- Data-access patterns: who touched how many records of which kind, by day (UTC). Runs as the
-- caller, so the audit log's own row-level security and column grants decide what is counted.
create or replace function public.audit_access_patterns(
  since_days integer default 30, organization uuid default null
) returns table (day date, user_id uuid, table_name text, action text, entries bigint)
language plpgsql stable
set search_path = ''
as $$
declare
  scope uuid[] := audit.reviewed_organizations(organization);
begin
  if since_days is null or since_days not between 1 and 366 then
    raise exception using errcode = '22023', message = 'since_days must be between 1 and 366';
  end if;
  return query
    select (l."timestamp" at time zone 'UTC')::date, l.user_id, coalesce(l.table_name, ''),
           l.action, count(*)
      from public.audit_log l
     where l."timestamp" >= now() - make_interval(days => since_days)
       and (scope is null or l.organization_id = any (scope))
     group by 1, 2, 3, 4
     order by 1 desc, 5 desc
     limit 2000;
end
$$;
revoke all on function public.audit_access_patterns(integer, uuid) from public;
grant execute on function public.audit_access_patterns(integer, uuid) to authenticated;

-- Data subject requests of the reviewed organizations' members: status and dates, never the
-- details the person wrote or the handler's reply (those stay with the person and the admins
-- who work the request).
create or replace function public.compliance_request_overview(organization uuid default null)
returns table (
  id uuid, user_id uuid, request_type text, status text, created_at timestamptz,
  due_at timestamptz, completed_at timestamptz
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  scope uuid[] := audit.reviewed_organizations(organization);
begin
  return query
    select r.id, r.user_id, r.request_type, r.status, r.created_at, r.due_at, r.completed_at
      from public.data_subject_requests r
     where scope is null
        or exists (select 1 from public.memberships m
                    where m.user_id = r.user_id and m.organization_id = any (scope))
     order by (r.status in ('pending', 'in_progress')) desc, r.due_at
     limit 500;
end
$$;
revoke all on function public.compliance_request_overview(uuid) from public;
grant execute on function public.compliance_request_overview(uuid) to authenticated;

-- Consent of the reviewed organizations' members: how many granted or refused each category
-- under each policy version, and the latest changes (who, which category, when, where made).
create or replace function public.compliance_consent_overview(organization uuid default null)
returns table (category text, policy_version text, granted bigint, refused bigint,
  last_decided_at timestamptz)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  scope uuid[] := audit.reviewed_organizations(organization);
begin
  return query
    select c.category, c.policy_version, count(*) filter (where c.granted),
           count(*) filter (where not c.granted), max(c.decided_at)
      from public.user_consent c
     where scope is null
        or exists (select 1 from public.memberships m
                    where m.user_id = c.user_id and m.organization_id = any (scope))
     group by 1, 2
     order by 1, 2;
end
$$;

create or replace function public.compliance_consent_changes(organization uuid default null)
returns table (user_id uuid, category text, granted boolean, policy_version text, source text,
  recorded_at timestamptz)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  scope uuid[] := audit.reviewed_organizations(organization);
begin
  return query
    select h.user_id, h.category, h.granted, h.policy_version, h.source, h.recorded_at
      from public.user_consent_history h
     where scope is null
        or exists (select 1 from public.memberships m
                    where m.user_id = h.user_id and m.organization_id = any (scope))
     order by h.recorded_at desc, h.id desc
     limit 200;
end
$$;
revoke all on function public.compliance_consent_overview(uuid),
  public.compliance_consent_changes(uuid) from public;
grant execute on function public.compliance_consent_overview(uuid),
  public.compliance_consent_changes(uuid) to authenticated;

-- The console filters the log by action and table and searches record ids.
create index if not exists audit_log_org_action_idx on public.audit_log (organization_id, action, id desc);
create index if not exists audit_log_record_idx on public.audit_log (record_id);
