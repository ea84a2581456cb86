-- An IEP document row exists only with its stored file (issue 16, decision 0436, amends 0422).
-- store_iep_document is executable by `authenticated` because the iep function runs it as the
-- caller, after it has written the file; called directly through REST, it let an organization
-- admin create a document whose file was never stored (an entry anyone listing the learner's
-- documents would see and fail to open). Now the row is recorded only for the file the iep
-- function stored for it: an object of the private `iep-documents` bucket (which no API role
-- writes: it has no storage policy) named `<organization>/<learner>/<document>` by the
-- document's own ids; its size and type are the stored file's, not the caller's word.
-- Otherwise 22023 with a sentence saying what is missing, and nothing is kept (no row, no log).
create or replace function public.store_iep_document(
  id uuid, learner uuid, organization uuid, title text, file_name text, content_type text,
  size_bytes int, object_path text, purpose text
) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  stored storage.objects;
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
