-- A deleted IEP document stays deleted (issue 16, decision 0438; amends 0436).
--
-- delete_iep_document removes the row and logs the deletion; the iep function then removes the
-- file. When that removal failed, the file stayed at `<organization>/<learner>/<document>`, and
-- store_iep_document (db/app 0771: a row only for the file stored for it) would record the
-- deleted document again for a direct REST call naming its id: a document the organization had
-- deleted back in every list. Now:
-- - a document whose deletion is on record (a granted `delete` row of the HIPAA access log,
--   kept seven years) is never recorded again: store_iep_document refuses it (22023, with the
--   date of the deletion), whether its file is still stored or not;
-- - deleting it again removes what was left: delete_iep_document, for a document deleted
--   earlier whose file is still stored, logs the deletion (the same right as the first one:
--   an admin of the learner's organization) and returns the path, so the iep function removes
--   the file; with nothing left, 'No such IEP document' (404) as before;
-- - a refused retry is filed under the deleted document's learner, as a refusal of a document
--   that still exists is;
-- - an erasure of the learner removes such a file too (privacy.storage_objects_of lists the
--   files left in the learner's folder of the bucket, not only the documents').

create index hipaa_audit_log_deletion_idx on public.hipaa_audit_log (document_id, id)
  where action = 'delete' and outcome = 'granted';

-- The first granted deletion of an IEP document on record (nulls when none).
create or replace function privacy.iep_deletion_of(document uuid) returns public.hipaa_audit_log
language sql stable security definer
set search_path = ''
as $$
  select h.* from public.hipaa_audit_log h
   where h.document_id = document and h.action = 'delete' and h.outcome = 'granted'
   order by h.id limit 1
$$;
revoke all on function privacy.iep_deletion_of(uuid) from public, anon, authenticated, service_role;

-- As db/app 0758, but a `delete` may name a document deleted earlier (a retry removing its file):
-- its learner and organization are the deletion's.
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
  deletion public.hipaa_audit_log;
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
    if found then
      if doc.learner_id is distinct from patient then
        raise exception 'This document is not about that learner' using errcode = '22023';
      end if;
      organization := doc.organization_id;
    else
      deletion := case when action = 'delete' then privacy.iep_deletion_of(document) end;
      if deletion.id is null then
        raise exception 'No such IEP document' using errcode = 'PT404';
      end if;
      if deletion.patient_id is distinct from patient then
        raise exception 'This document is not about that learner' using errcode = '22023';
      end if;
      organization := deletion.organization_id;
    end if;
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

-- As db/app 0753, and for a document deleted earlier whose file is still stored (its removal
-- failed): the deletion is logged again and the file's path returned for the iep function to
-- remove.
create or replace function public.delete_iep_document(document uuid, purpose text)
returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  doc public.iep_documents;
  deletion public.hipaa_audit_log;
  left_behind text;
begin
  select * into doc from public.iep_documents d where d.id = document;
  if not found then
    deletion := privacy.iep_deletion_of(document);
    left_behind := deletion.organization_id::text || '/' || deletion.patient_id::text || '/'
      || document::text;
    if deletion.id is null or not exists (
      select 1 from storage.objects o where o.bucket_id = 'iep-documents' and o.name = left_behind
    ) then
      raise exception 'No such IEP document' using errcode = 'PT404';
    end if;
    perform public.log_hipaa_access(deletion.patient_id, 'delete', purpose, document);
    return left_behind;
  end if;
  perform public.log_hipaa_access(doc.learner_id, 'delete', purpose, doc.id);
  delete from public.iep_documents d where d.id = doc.id;
  return doc.object_path;
end
$$;

-- As db/app 0771, refusing a document whose deletion is on record.
create or replace function public.store_iep_document(
  id uuid, learner uuid, organization uuid, title text, file_name text, content_type text,
  size_bytes int, object_path text, purpose text
) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  stored storage.objects;
  deletion public.hipaa_audit_log;
begin
  if not public.may_store_iep_document(learner, organization) then
    raise exception 'Only an admin of the learner''s organization stores IEP documents'
      using errcode = '42501';
  end if;
  if title is null or length(trim(title)) not between 1 and 200 then
    raise exception 'Give the document a title (at most 200 characters)' using errcode = '22023';
  end if;
  if store_iep_document.id is null or store_iep_document.object_path is distinct from
       organization::text || '/' || learner::text || '/' || store_iep_document.id::text then
    raise exception 'An IEP document''s file is stored at <organization>/<learner>/<document>, named by the document''s own ids'
      using errcode = '22023';
  end if;
  deletion := privacy.iep_deletion_of(store_iep_document.id);
  if deletion.id is not null then
    raise exception 'This IEP document was deleted on % and is not recorded again: upload its file as a new document',
      to_char(deletion."timestamp" at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"')
      using errcode = '22023';
  end if;
  select * into stored from storage.objects o
   where o.bucket_id = 'iep-documents' and o.name = store_iep_document.object_path;
  if not found then
    raise exception 'No file is stored for this IEP document: upload the document together with its file'
      using errcode = '22023';
  end if;
  insert into public.iep_documents
    (id, organization_id, learner_id, title, file_name, content_type, size_bytes, object_path, uploaded_by)
  values (store_iep_document.id, organization, learner, trim(title), left(file_name, 255),
    coalesce(stored.metadata ->> 'mimetype', content_type),
    coalesce((stored.metadata ->> 'size')::int, size_bytes),
    store_iep_document.object_path, auth.uid());
  perform public.log_hipaa_access(learner, 'upload', purpose, store_iep_document.id);
end
$$;

-- As db/app 0761, filing a refused retry of a deleted document under its learner.
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
  deletion public.hipaa_audit_log;
begin
  if action is null or refusal is null then
    raise exception 'a refused IEP access names what and why' using errcode = '22023';
  end if;
  if document is not null then
    select * into doc from public.iep_documents d where d.id = document;
    if found then
      patient := doc.learner_id;
      organization := doc.organization_id;
    else
      deletion := privacy.iep_deletion_of(document);
      if deletion.id is null then
        return null;
      end if;
      patient := deletion.patient_id;
      organization := deletion.organization_id;
    end if;
  end if;
  if patient is null or organization is null then
    return null;
  end if;
  entry.user_id := uid;
  entry.roles := case when uid is null then '{}'::text[]
                      else privacy.iep_roles(uid, patient, organization) end;
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

-- As db/app 0753, with the files left in the person's folder of the IEP bucket (a deleted
-- document's whose removal failed), so an erasure removes them too.
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
  union
  select o.bucket_id, o.name from storage.objects o
   where o.bucket_id = 'iep-documents' and split_part(o.name, '/', 2) = person::text
$$;

-- As db/app 0758, with an `export` row too for each such file the export delivers (no document
-- row names it: the document id is its path's last part).
create or replace function privacy.log_iep_export(export_id uuid, object_paths text[]) returns int
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  ex privacy.data_exports;
  delivered record;
  entry public.hipaa_audit_log;
  written int := 0;
  uuid_pattern constant text := '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
begin
  select * into ex from privacy.data_exports e where e.id = export_id;
  if not found then
    raise exception 'no export %', export_id using errcode = 'PT404';
  end if;
  for delivered in
    select d.id, d.organization_id, d.uploaded_at from public.iep_documents d
     where d.object_path = any (object_paths) and d.learner_id = ex.user_id
    union all
    select split_part(p, '/', 3)::uuid, split_part(p, '/', 1)::uuid, null::timestamptz
      from unnest(object_paths) p
     where p ~ ('^' || uuid_pattern || '/' || uuid_pattern || '/' || uuid_pattern || '$')
       and split_part(p, '/', 2) = ex.user_id::text
       and not exists (select 1 from public.iep_documents d where d.object_path = p)
     order by 3 nulls last, 1
  loop
    entry := null;
    entry.user_id := ex.user_id;
    entry.roles := array['patient'];
    entry.action := 'export';
    entry.phi_accessed := 'IEP document';
    entry.document_id := delivered.id;
    entry.patient_id := ex.user_id;
    entry.organization_id := delivered.organization_id;
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
