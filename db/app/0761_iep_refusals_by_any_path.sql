-- Refused IEP accesses by any path (decision 0430). The REST layer now files a refused call of
-- an IEP procedure (/rest/v1/rpc/list_iep_documents, open_iep_document, delete_iep_document,
-- store_iep_document, log_hipaa_access) as the iep function does (0758), after the caller's
-- transaction rolled back, as the platform. An anonymous caller is refused too (anon may not
-- execute them), and has no user: the refusal is filed without one (user_id and session null,
-- no roles). As 0758 otherwise; still no API role may execute it.
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
  if action is null or refusal is null then
    raise exception 'a refused IEP access names what and why' using errcode = '22023';
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
revoke all on function privacy.log_refused_iep_access(uuid, text, text, uuid, uuid, uuid, text, text, inet, text)
  from public, anon, authenticated, service_role;
