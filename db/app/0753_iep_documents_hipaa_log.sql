-- IEP documents and the HIPAA access log (issue 16, decision 0422). A learner's individual
-- education plan can reveal health information (PHI), so:
-- - the files live in the private `iep-documents` bucket with no storage policy: nobody reads
--   or writes them through the storage API, only the iep function after the database agreed
--   and logged the access;
-- - an organization's admins store, list, open and delete a learner's documents; the
--   instructors who teach the learner (a course of the organization the learner is enrolled
--   in) list and open them; nobody else does, not the learner through here, not a compliance
--   officer, not a platform admin;
-- - every access (upload, list, view, delete) needs a stated purpose and writes one row of
--   public.hipaa_audit_log through public.log_hipaa_access: who, which roles let them, whose
--   PHI, which document, why, from which address, browser and session;
-- - the log is append-only, read by the organization's compliance officers and platform
--   admins, and each row has a twin entry in the hash-chained audit log (decision 0401) whose
--   content hash covers the row's fields, so a row changed or removed by the database owner
--   shows in public.verify_hipaa_access_log().

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('iep-documents', 'iep-documents', false, 20971520,
        array['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
              'text/plain', 'image/png', 'image/jpeg'])
on conflict (id) do nothing;

create table public.iep_documents (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  learner_id uuid not null references auth.users (id) on delete cascade,
  title text not null check (length(trim(title)) between 1 and 200),
  file_name text not null check (length(file_name) between 1 and 255),
  content_type text not null check (length(content_type) between 1 and 200),
  size_bytes int not null check (size_bytes > 0),
  -- `<organization>/<learner>/<document>`: chosen by the server, never by the caller.
  object_path text not null unique check (length(object_path) <= 300),
  uploaded_by uuid references auth.users (id) on delete set null,
  uploaded_at timestamptz not null default now()
);
create index iep_documents_learner_idx on public.iep_documents (organization_id, learner_id, uploaded_at desc);

create table public.hipaa_audit_log (
  id bigint generated always as identity primary key,
  "timestamp" timestamptz not null default clock_timestamp(),
  -- Who accessed, and the roles that allowed it at that moment.
  user_id uuid,
  roles text[] not null,
  action text not null check (action in ('upload', 'list', 'view', 'delete')),
  -- What kind of PHI: the document (null for a list of a learner's documents).
  phi_accessed text not null,
  document_id uuid,
  -- Whose PHI it is (HIPAA's "patient": the learner).
  patient_id uuid not null,
  organization_id uuid not null,
  purpose text not null check (length(trim(purpose)) between 5 and 500),
  ip_address inet,
  user_agent text check (length(user_agent) <= 512),
  session_id text check (length(session_id) <= 100),
  -- The twin entry in public.audit_log (its content hash covers this row's fields).
  audit_id bigint not null
);
create index hipaa_audit_log_org_idx on public.hipaa_audit_log (organization_id, id desc);
create index hipaa_audit_log_patient_idx on public.hipaa_audit_log (patient_id, id desc);
create index hipaa_audit_log_audit_idx on public.hipaa_audit_log (audit_id);

-- ----- who may ------------------------------------------------------------------------------

-- The roles that give `uid` access to `learner`'s IEP documents in `org`: 'org_admin' (the
-- owner and organization-wide admins) and 'instructor' (teaches a course of the organization
-- the learner is enrolled in). Empty: no access. Only a learner of the organization has any.
create or replace function privacy.iep_roles(uid uuid, learner uuid, org uuid) returns text[]
language sql stable security definer
set search_path = ''
as $$
  select case
    when uid is null or not learning.holds(learner, org, array['learner']) then '{}'::text[]
    else array_remove(array[
      case when learning.is_org_admin(uid, org) then 'org_admin' end,
      case when learning.holds(uid, org, array['instructor', 'org_admin']) and exists (
        select 1 from public.enrollments e
          join public.courses c on c.id = e.course_id and c.organization_id = org
          join public.course_instructors ci on ci.course_id = c.id and ci.user_id = uid
         where e.user_id = learner) then 'instructor' end
    ], null)
  end
$$;
revoke all on function privacy.iep_roles(uuid, uuid, uuid) from public;

-- The content hash of a HIPAA log row's fields, as its audit twin records them.
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
$$;
revoke all on function privacy.hipaa_entry(public.hipaa_audit_log) from public;

-- ----- the log ------------------------------------------------------------------------------

-- Records one access to a learner's PHI by the caller, after checking the caller may access it
-- (42501 otherwise) and that they said why (22023). The address and browser come from the
-- platform (transaction settings the iep function sets), never from the caller. Returns the
-- log row's id. The product's IEP procedures call it for every access; a direct call records
-- an access the caller made some other way.
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

  entry.id := nextval(pg_get_serial_sequence('public.hipaa_audit_log', 'id'));
  entry."timestamp" := clock_timestamp();
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
  entry.audit_id := audit.append(
    uid, 'hipaa.' || action, 'public.iep_documents', coalesce(document::text, patient::text),
    null, privacy.hipaa_entry(entry), array['phi_accessed', 'purpose', 'roles'],
    'special education records (HIPAA access log)', 'legal_obligation',
    entry.ip_address, entry.user_agent, entry.session_id, patient, organization);
  insert into public.hipaa_audit_log overriding system value select entry.*;
  return entry.id;
end
$$;
revoke all on function public.log_hipaa_access(uuid, text, text, uuid, uuid) from public, anon;
grant execute on function public.log_hipaa_access(uuid, text, text, uuid, uuid) to authenticated;

-- Nothing changes or removes a row, not even the owner, except the retention job (decision
-- 0402 sets lyceum.audit_retention); the twin audit entries show it when the trigger is off.
create or replace function privacy.hipaa_log_refuse_change() returns trigger
language plpgsql
as $$
begin
  if tg_op = 'DELETE' and current_setting('lyceum.audit_retention', true) = 'on' then
    return old;
  end if;
  raise exception using errcode = '42501', message = 'the HIPAA access log is append-only';
end
$$;
create trigger hipaa_audit_log_append_only before update or delete on public.hipaa_audit_log
  for each row execute function privacy.hipaa_log_refuse_change();
create trigger hipaa_audit_log_no_truncate before truncate on public.hipaa_audit_log
  for each statement execute function privacy.hipaa_log_refuse_change();

-- The first HIPAA log row that differs from its audit twin (changed), a twin without its row
-- (removed), or a row without its twin; no problem when the log is whole. The twins' content
-- hashes are covered by the audit chain (verify_audit_chain), so together they show tampering.
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
    left join public.audit_log a on a.id = h.audit_id and a.action = 'hipaa.' || h.action
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

-- ----- the procedures the iep function runs as the caller --------------------------------------

-- May the caller store documents about this learner (checked before the file is written).
create or replace function public.may_store_iep_document(learner uuid, organization uuid)
returns boolean
language sql stable security definer
set search_path = ''
as $$
  select 'org_admin' = any (privacy.iep_roles(auth.uid(), learner, organization))
$$;

-- Records a stored file and its upload in the log (the caller's right and purpose checked
-- there: refused, nothing is kept).
create or replace function public.store_iep_document(
  id uuid, learner uuid, organization uuid, title text, file_name text, content_type text,
  size_bytes int, object_path text, purpose text
) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if not public.may_store_iep_document(learner, organization) then
    raise exception 'Only an admin of the learner''s organization stores IEP documents'
      using errcode = '42501';
  end if;
  if title is null or length(trim(title)) not between 1 and 200 then
    raise exception 'Give the document a title (at most 200 characters)' using errcode = '22023';
  end if;
  insert into public.iep_documents
    (id, organization_id, learner_id, title, file_name, content_type, size_bytes, object_path, uploaded_by)
  values (store_iep_document.id, organization, learner, trim(title), left(file_name, 255),
    content_type, size_bytes, object_path, auth.uid());
  perform public.log_hipaa_access(learner, 'upload', purpose, store_iep_document.id);
end
$$;

-- A learner's documents, newest first; the list itself is an access to PHI (their titles).
create or replace function public.list_iep_documents(learner uuid, organization uuid, purpose text)
returns table (id uuid, title text, file_name text, content_type text, size_bytes int,
  uploaded_at timestamptz, uploaded_by uuid)
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform public.log_hipaa_access(learner, 'list', purpose, null, organization);
  return query
    select d.id, d.title, d.file_name, d.content_type, d.size_bytes, d.uploaded_at, d.uploaded_by
      from public.iep_documents d
     where d.learner_id = learner and d.organization_id = organization
     order by d.uploaded_at desc, d.id;
end
$$;

-- Opening a document: logged, then the iep function sends the file at object_path.
create or replace function public.open_iep_document(document uuid, purpose text)
returns table (object_path text, file_name text, content_type text)
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  doc public.iep_documents;
begin
  select * into doc from public.iep_documents d where d.id = document;
  if not found then
    raise exception 'No such IEP document' using errcode = 'PT404';
  end if;
  perform public.log_hipaa_access(doc.learner_id, 'view', purpose, doc.id);
  return query select doc.object_path, doc.file_name, doc.content_type;
end
$$;

-- Deleting a document (org admins): logged, then the iep function removes the file.
create or replace function public.delete_iep_document(document uuid, purpose text)
returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  doc public.iep_documents;
begin
  select * into doc from public.iep_documents d where d.id = document;
  if not found then
    raise exception 'No such IEP document' using errcode = 'PT404';
  end if;
  perform public.log_hipaa_access(doc.learner_id, 'delete', purpose, doc.id);
  delete from public.iep_documents d where d.id = doc.id;
  return doc.object_path;
end
$$;

-- The learners whose documents the caller may handle in an organization (names and addresses
-- only, as the teaching and people screens show them), and how.
create or replace function public.iep_learners(organization uuid)
returns table (user_id uuid, display_name text, email text, may_store boolean)
language sql stable security definer
set search_path = ''
as $$
  select m.user_id, coalesce(p.full_name, p.display_name, ''), u.email::text,
         'org_admin' = any (r.roles)
    from public.memberships m
    join auth.users u on u.id = m.user_id
    left join public.profiles p on p.id = m.user_id
    cross join lateral (select privacy.iep_roles(auth.uid(), m.user_id, organization) as roles) r
   where m.organization_id = organization and m.active and m.role = 'learner'
     and cardinality(r.roles) > 0
   group by m.user_id, p.full_name, p.display_name, u.email, r.roles
   order by 2, 3
$$;

revoke all on function public.may_store_iep_document(uuid, uuid),
  public.store_iep_document(uuid, uuid, uuid, text, text, text, int, text, text),
  public.list_iep_documents(uuid, uuid, text), public.open_iep_document(uuid, text),
  public.delete_iep_document(uuid, text), public.iep_learners(uuid) from public, anon;
grant execute on function public.may_store_iep_document(uuid, uuid),
  public.store_iep_document(uuid, uuid, uuid, text, text, text, int, text, text),
  public.list_iep_documents(uuid, uuid, text), public.open_iep_document(uuid, text),
  public.delete_iep_document(uuid, text), public.iep_learners(uuid) to authenticated;

-- ----- who reads what -----------------------------------------------------------------------

-- No API role reads the documents' rows directly: every read goes through a logged procedure.
alter table public.iep_documents enable row level security;
revoke all on public.iep_documents from public, anon, authenticated;
grant all on public.iep_documents to service_role;
select audit.attach('public.iep_documents', 'special education records (IEP)', 'legal_obligation');

-- The organization's compliance officers and platform admins read the access log; nobody
-- writes it but log_hipaa_access.
alter table public.hipaa_audit_log enable row level security;
create policy hipaa_audit_log_officers on public.hipaa_audit_log for select to authenticated
  using (
    organization_id = any ((select audit.readable_organizations())::uuid[])
    or (select audit.is_platform_admin())
  );
revoke all on public.hipaa_audit_log from public, anon, authenticated, service_role;
grant select on public.hipaa_audit_log to authenticated, service_role;

-- ----- the personal-data registry ----------------------------------------------------------

insert into privacy.personal_data
  (table_name, subject_column, match, json_key, export, erasure, anonymise_columns, description, reason)
values
  ('public.iep_documents', 'learner_id', 'id', null, true, 'delete', '{}',
   'individual education plans (IEP documents); the files are in the export', null),
  ('public.iep_documents', 'uploaded_by', 'id', null, false, 'anonymise', '{}',
   'IEP documents this person stored for learners',
   'the document is the learner''s record; only who stored it is cleared'),
  ('public.hipaa_audit_log', 'patient_id', 'id', null, true, 'keep', '{}',
   'HIPAA access log entries about this person''s IEP documents',
   'HIPAA requires access records to be kept for six years (45 CFR 164.316(b)(2)); the log is append-only'),
  ('public.hipaa_audit_log', 'user_id', 'id', null, true, 'keep', '{}',
   'HIPAA access log entries of IEP documents this person accessed',
   'HIPAA requires access records to be kept for six years (45 CFR 164.316(b)(2)); the log is append-only');

-- An erased learner's IEP files go with the account; an access export includes them.
create or replace function privacy.storage_objects_of(person uuid)
returns table (bucket_id text, name text)
language sql stable security definer
set search_path = ''
as $$
  select o.bucket_id, o.name from storage.objects o where o.owner = person
  union
  select 'privacy-exports', e.object_path from privacy.data_exports e
   where e.user_id = person and e.object_path is not null
  union
  select 'iep-documents', d.object_path from public.iep_documents d where d.learner_id = person
$$;
revoke all on function privacy.storage_objects_of(uuid) from public;

-- ----- retention ------------------------------------------------------------------------------

insert into public.data_retention_policies
  (table_name, retention_period_days, legal_basis, action, date_column, anonymise_columns, description)
values
  ('public.hipaa_audit_log', 2555, 'legal_obligation', 'delete', 'timestamp', '{}',
   'HIPAA access records are kept seven years (HIPAA asks for six), then removed oldest first.');

-- As db/app 0702, with the HIPAA access log deleted under the same switch as the audit log
-- (its append-only trigger lets only retention remove rows).
create or replace function public.cleanup_expired_data()
returns table (table_name text, action text, rows_affected bigint, error text)
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  policy public.data_retention_policies;
  cutoff timestamptz;
  affected bigint;
  failure text;
begin
  for policy in
    select * from public.data_retention_policies p where p.is_active order by p.table_name
  loop
    cutoff := now() - make_interval(days => policy.retention_period_days);
    affected := 0;
    failure := null;
    begin
      if policy.table_name = 'public.audit_log' then
        affected := audit.delete_expired(cutoff);
      elsif policy.table_name = 'public.hipaa_audit_log' then
        perform set_config('lyceum.audit_retention', 'on', true);
        delete from public.hipaa_audit_log h where h."timestamp" < cutoff;
        get diagnostics affected = row_count;
        perform set_config('lyceum.audit_retention', 'off', true);
      elsif policy.action = 'delete' then
        execute format('delete from %s where %I < $1', policy.table_name::regclass, policy.date_column)
          using cutoff;
        get diagnostics affected = row_count;
      else
        execute format(
          'update %s set %s where %I < $1 and (%s)',
          policy.table_name::regclass,
          (select string_agg(format('%I = null', c), ', ') from unnest(policy.anonymise_columns) c),
          policy.date_column,
          (select string_agg(format('%I is not null', c), ' or ') from unnest(policy.anonymise_columns) c))
          using cutoff;
        get diagnostics affected = row_count;
      end if;
    exception when others then
      failure := sqlerrm;
    end;
    insert into public.retention_runs (table_name, action, retention_period_days, rows_affected, error)
    values (policy.table_name, policy.action, policy.retention_period_days, affected, failure);
    perform audit.append(
      null, 'retention.cleanup', policy.table_name, null, null,
      jsonb_build_object('action', policy.action, 'rows', affected,
        'retention_period_days', policy.retention_period_days, 'failed', failure is not null),
      array['action', 'rows', 'retention_period_days'],
      'data retention', policy.legal_basis, null, null, null, null, null);
    table_name := policy.table_name;
    action := policy.action;
    rows_affected := affected;
    error := failure;
    return next;
  end loop;
end
$$;
revoke all on function public.cleanup_expired_data() from public;
grant execute on function public.cleanup_expired_data() to service_role;
