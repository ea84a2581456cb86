-- The console's queries over a big log (issue 16, decision 0425; bench/compliance-console-bench.ts
-- at 10,000,000 entries).
--
-- The table filter: an officer's newest-first page of a rarely written table (IEP documents)
-- walked their organization's entries newest first until 51 matched, reading all of them
-- (5.4 s at p50). This index answers it directly, as audit_log_org_action_idx does for actions.
create index if not exists audit_log_org_table_idx
  on public.audit_log (organization_id, table_name, id desc);

-- Data-access patterns (who touched which table how often, by day) read every entry of the
-- period from the heap (0.58 s at p50 for 30 days); with the columns they count in the index,
-- they are an index-only scan. It replaces the organization + time index it extends.
create index if not exists audit_log_org_time_cover_idx
  on public.audit_log (organization_id, "timestamp") include (user_id, table_name, action);
drop index if exists public.audit_log_org_time_idx;
