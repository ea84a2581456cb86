-- The HIPAA access log's two gaps (issue 16, decision 0426, amends 0422).
--
-- 1. A refused attempt left no row: the refusal is an exception, and it rolled back the
--    transaction the row would have been written in. PostgreSQL has no autonomous
--    transactions (and PGlite no dblink), so the iep function records the refusal in a second
--    transaction, as the platform, through privacy.log_refused_iep_access. No API role may run
--    that function: a refused caller cannot write a row of their choosing, only cause the row
--    that describes their own refused request (identity from their verified token).
-- 2. A learner's own export (an access or portability request) copies their IEP files into the
--    zip without a row: privacy.log_iep_export writes one per document, `export`, in the
--    transaction that makes the export downloadable.

alter table public.hipaa_audit_log
  add column outcome text not null default 'granted' check (outcome in ('granted', 'refused')),
  -- Why the database refused (its sentence), for a refused attempt.
  add column refusal text check (length(refusal) <= 500),
  add constraint hipaa_audit_log_outcome_refusal_check check ((outcome = 'refused') = (refusal is not null));
alter table public.hipaa_audit_log drop constraint hipaa_audit_log_action_check;
alter table public.hipaa_audit_log add constraint hipaa_audit_log_action_check
  check (action in ('upload', 'list', 'view', 'delete', 'export'));

-- As db/app 0753, plus the outcome of a refused attempt. A granted row hashes exactly as before,
-- so the twins of rows written before this migration still match.
create or replace function privacy.hipaa_entry(entry public.hipaa_audit_log) returns jsonb
language sql immutable
as $$
  select jsonb_build_object(
    'hipaa_log_id', entry.id,
    'timestamp_us', (extract(epoch from entry."timestamp") * 1000000)::bigint,
    'user_id', entry.user_id, 'roles', entry.roles, 'action', entry.action,
    'phi_accessed', entry.phi_accessed, 'document_id', entry.document_id,
    'patient_id', entry.patient_id, 'organization_id', entry.organization_id,
    'purpose', entry.purpose, 'ip_address', host(entry.ip_address),
    'user_agent', entry.user_agent, 'session_id', entry.session_id)
    || case when entry.outcome = 'refused'
         then jsonb_build_object('outcome', 'refused', 'refusal', entry.refusal)
         else '{}'::jsonb end
$$;
revoke all on function privacy.hipaa_entry(public.hipaa_audit_log) from public;

-- The audit action of a log row's twin: `hipaa.view`, or `hipaa.view.refused` for a refusal.
create or replace function privacy.hipaa_twin_action(entry public.hipaa_audit_log) returns text
language sql immutable
as $$
  select 'hipaa.' || entry.action || case when entry.outcome = 'refused' then '.refused' else '' end
$$;
revoke all on function privacy.hipaa_twin_action(public.hipaa_audit_log) from public;

-- Appends a filled-in row (its id, time and twin set here) and its twin in the audit log.
create or replace function privacy.append_hipaa_entry(entry public.hipaa_audit_log) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  entry.id := nextval(pg_get_serial_sequence('public.hipaa_audit_log', 'id'));
  entry."timestamp" := clock_timestamp();
  entry.outcome := coalesce(entry.outcome, 'granted');
  entry.audit_id := audit.append(
    entry.user_id, privacy.hipaa_twin_action(entry), 'public.iep_documents',
    coalesce(entry.document_id::text, entry.patient_id::text), null, privacy.hipaa_entry(entry),
    array['phi_accessed', 'purpose', 'roles']
      || case when entry.outcome = 'refused' then array['refusal'] else '{}'::text[] end,
    'special education records (HIPAA access log)', 'legal_obligation',
    entry.ip_address, entry.user_agent, entry.session_id, entry.patient_id, entry.organization_id);
  insert into public.hipaa_audit_log overriding system value select entry.*;
  return entry.id;
end
$$;
revoke all on function privacy.append_hipaa_entry(public.hipaa_audit_log) from public;

-- As db/app 0753 (the checks unchanged), appending through privacy.append_hipaa_entry: the row's
-- new outcome column is set there, where 0753's `select entry.*` would have written null.
create or replace function public.log_hipaa_access(
  patient uuid,
  action text,
  purpose text,
  document uuid default null,
  organization uuid default null
) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  entry public.hipaa_audit_log;
  doc public.iep_documents;
begin
  if uid is null then
    raise exception 'Sign in to access IEP documents' using errcode = '42501';
  end if;
  if action is null or action not in ('upload', 'list', 'view', 'delete') then
    raise exception 'The access is one of upload, list, view, delete' using errcode = '22023';
  end if;
  if purpose is null or length(trim(purpose)) not between 5 and 500 then
    raise exception 'State the purpose of this access (5 to 500 characters)' using errcode = '22023';
  end if;
  if document is not null then
    select * into doc from public.iep_documents d where d.id = document;
    if not found then
      raise exception 'No such IEP document' using errcode = 'PT404';
    end if;
    if doc.learner_id is distinct from patient then
      raise exception 'This document is not about that learner' using errcode = '22023';
    end if;
    organization := doc.organization_id;
  end if;
  if organization is null then
    raise exception 'Name the organization' using errcode = '22023';
  end if;
  entry.roles := privacy.iep_roles(uid, patient, organization);
  if cardinality(entry.roles) = 0
     or (action in ('upload', 'delete') and not 'org_admin' = any (entry.roles)) then
    raise exception 'You may not % this learner''s IEP documents', action using errcode = '42501';
  end if;

  entry.user_id := uid;
  entry.action := action;
  entry.phi_accessed := case when document is null then 'IEP document list' else 'IEP document' end;
  entry.document_id := document;
  entry.patient_id := patient;
  entry.organization_id := organization;
  entry.purpose := trim(purpose);
  begin
    entry.ip_address := nullif(current_setting('lyceum.client_address', true), '')::inet;
  exception when others then
    entry.ip_address := null;
  end;
  entry.user_agent := left(nullif(current_setting('lyceum.user_agent', true), ''), 512);
  entry.session_id := left(auth.jwt() ->> 'session_id', 100);
  entry.outcome := 'granted';
  return privacy.append_hipaa_entry(entry);
end
$$;
revoke all on function public.log_hipaa_access(uuid, text, text, uuid, uuid) from public, anon;
grant execute on function public.log_hipaa_access(uuid, text, text, uuid, uuid) to authenticated;

-- Records a refused attempt of `uid` to `action` a learner's IEP documents (a document, or the
-- list of a learner's in an organization), with the database's refusal. Only the platform runs
-- it (the iep function, after the caller's own transaction was refused), with the identity and
-- session of the caller's verified token. Returns null, logging nothing, when the attempt named
-- no learner the log could file it under (a document that does not exist).
create or replace function privacy.log_refused_iep_access(
  uid uuid, session_id text, action text, patient uuid, document uuid, organization uuid,
  purpose text, refusal text, ip_address inet, user_agent text
) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  entry public.hipaa_audit_log;
  doc public.iep_documents;
begin
  if uid is null or action is null or refusal is null then
    raise exception 'a refused IEP access names who, what and why' using errcode = '22023';
  end if;
  if document is not null then
    select * into doc from public.iep_documents d where d.id = document;
    if not found then
      return null;
    end if;
    patient := doc.learner_id;
    organization := doc.organization_id;
  end if;
  if patient is null or organization is null then
    return null;
  end if;
  entry.user_id := uid;
  entry.roles := privacy.iep_roles(uid, patient, organization);
  entry.action := action;
  entry.phi_accessed := case when document is null then 'IEP document list' else 'IEP document' end;
  entry.document_id := document;
  entry.patient_id := patient;
  entry.organization_id := organization;
  -- The attempt's own words when it gave a usable purpose; the log requires one.
  entry.purpose := case when length(trim(coalesce(purpose, ''))) between 5 and 500
                        then trim(purpose) else '(no purpose stated)' end;
  entry.ip_address := ip_address;
  entry.user_agent := left(user_agent, 512);
  entry.session_id := left(session_id, 100);
  entry.outcome := 'refused';
  entry.refusal := left(refusal, 500);
  return privacy.append_hipaa_entry(entry);
end
$$;
revoke all on function privacy.log_refused_iep_access(uuid, text, text, uuid, uuid, uuid, text, text, inet, text)
  from public, anon, authenticated, service_role;

-- Records that an export delivers a learner's IEP documents to them: one `export` row per
-- document whose file the export holds (named by the files' paths in the bucket), by the learner (their own right of access), with the request it
-- answers as the purpose. Run by the export job in the transaction that makes the zip
-- downloadable. Returns how many rows it wrote.
create or replace function privacy.log_iep_export(export_id uuid, object_paths text[]) returns int
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  ex privacy.data_exports;
  doc public.iep_documents;
  entry public.hipaa_audit_log;
  written int := 0;
begin
  select * into ex from privacy.data_exports e where e.id = export_id;
  if not found then
    raise exception 'no export %', export_id using errcode = 'PT404';
  end if;
  for doc in
    select * from public.iep_documents d
     where d.object_path = any (object_paths) and d.learner_id = ex.user_id
     order by d.uploaded_at, d.id
  loop
    entry := null;
    entry.user_id := ex.user_id;
    entry.roles := array['patient'];
    entry.action := 'export';
    entry.phi_accessed := 'IEP document';
    entry.document_id := doc.id;
    entry.patient_id := ex.user_id;
    entry.organization_id := doc.organization_id;
    entry.purpose := case when ex.request_id is null
      then 'The learner''s own data export ' || ex.id
      else 'The learner''s own data export ' || ex.id || ', answering data subject request '
           || ex.request_id end;
    entry.session_id := null;
    perform privacy.append_hipaa_entry(entry);
    written := written + 1;
  end loop;
  return written;
end
$$;
revoke all on function privacy.log_iep_export(uuid, text[]) from public, anon, authenticated, service_role;

-- As db/app 0753, with each row compared with its twin of the right action (refusals included).
create or replace function public.verify_hipaa_access_log()
returns table (ok boolean, checked bigint, first_broken_id bigint, problem text)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  n bigint;
  broken record;
begin
  if not (auth.role() is null or auth.role() = 'service_role' or audit.is_platform_admin()
    or cardinality(audit.readable_organizations()) > 0) then
    raise exception using errcode = '42501', message = 'only compliance officers verify the HIPAA access log';
  end if;
  select count(*) into n from public.hipaa_audit_log;
  select h.id, 'its fields were changed' as why into broken
    from public.hipaa_audit_log h
    left join public.audit_log a on a.id = h.audit_id and a.action = privacy.hipaa_twin_action(h)
   where (a.id is null and h.audit_id >= (select min(x.id) from public.audit_log x))
      or a.content_hash is distinct from audit.content_hash(null, privacy.hipaa_entry(h))
   order by h.id limit 1;
  if found then
    return query select false, n, broken.id::bigint, broken.why::text;
    return;
  end if;
  select (a.new_values ->> 'hipaa_log_id')::bigint as id, a.id as audit_id,
         'the entry was removed (audit entry ' || a.id || ' records it)' as why
    into broken
    from public.audit_log a
   where a.action like 'hipaa.%'
     -- Entries past the log's retention period are removed by the retention job.
     and a."timestamp" >= now() - make_interval(days => coalesce((select p.retention_period_days
           from public.data_retention_policies p
          where p.table_name = 'public.hipaa_audit_log' and p.is_active), 36500))
     and not exists (select 1 from public.hipaa_audit_log h where h.audit_id = a.id)
   order by a.id limit 1;
  if found then
    return query select false, n, broken.id::bigint, broken.why::text;
    return;
  end if;
  return query select true, n, null::bigint, null::text;
end
$$;
revoke all on function public.verify_hipaa_access_log() from public;
grant execute on function public.verify_hipaa_access_log() to authenticated, service_role;
