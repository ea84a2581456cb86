-- The console's filters over 10,000,000 entries, as the officer and the platform admin send them
-- (issue 16, decision 0431; bench/compliance-console-bench.ts).
--
-- A platform admin's filter names no organization, so an index led by the organization served
-- it only by reading all of it: a page of a rare table read the log newest first until 51
-- matched (245 ms at p99; 521,239 entries skipped). Leading with the action or table and then
-- the organization answers both: the officer's (value, organization) range is still in id order,
-- and the admin's value alone is one range, sorted when it is rare and left to the newest-first
-- scan when it is common. A person with an action read the organization's whole bitmap of that
-- action (85,160 entries) to AND it with the person's; the person indexes now carry the action.
-- Each new index replaces one: as many indexes as before, so an append writes as many entries.

create index if not exists audit_log_action_org_idx
  on public.audit_log (action, organization_id, id desc);
drop index if exists public.audit_log_org_action_idx;

create index if not exists audit_log_table_org_idx
  on public.audit_log (table_name, organization_id, id desc);
drop index if exists public.audit_log_org_table_idx;

create index if not exists audit_log_user_action_idx
  on public.audit_log (user_id, action, id desc);
drop index if exists public.audit_log_user_idx;

create index if not exists audit_log_subject_action_idx
  on public.audit_log (subject_user_id, action, id desc);
drop index if exists public.audit_log_subject_idx;
