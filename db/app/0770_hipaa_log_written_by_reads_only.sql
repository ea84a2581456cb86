-- The HIPAA access log is written only by the reads it records (issue 16, decision 0435,
-- amends 0422, 0426 and 0430). public.log_hipaa_access was executable by `authenticated`: a
-- person allowed to see a learner's IEP documents could call it through REST and file
-- `granted` rows about themselves for reads that never happened. Now no API role may execute
-- it: it runs only inside the IEP procedures (list_iep_documents, open_iep_document,
-- store_iep_document, delete_iep_document), which are security definer and call it as their
-- owner, with the caller's identity (auth.uid(), the token's session) still the caller's. The
-- platform's own writers (privacy.log_refused_iep_access, privacy.log_iep_export) were never
-- executable by an API role. A direct call is refused by the database (42501, permission
-- denied) and, being no attempt to reach a learner's records, leaves no row.
revoke all on function public.log_hipaa_access(uuid, text, text, uuid, uuid)
  from public, anon, authenticated, service_role;
