-- The console's search by record id (issue 16, decision 0427): a whole id or its first
-- characters, no longer any part of an action, a table or an id (7.1 s over 10,000,000 entries:
-- no index answers a substring).
--
-- Two things stood between a prefix and an index. A prefix is a range only in byte order, and
-- the plain index on record_id follows the database's collation: the new index uses
-- text_pattern_ops (byte order, and equality as before), and replaces it at the same size. And
-- under row-level security the planner may only use an index for a caller's condition whose
-- operator is leakproof, so that no row the policy hides is ever tested: LIKE is not, so
-- `record_id like 'a3f5%'` filtered every entry the officer may see. The byte-order comparisons
-- and starts_with are leakproof; REST has no operator for them, so the search is this function.

create index if not exists audit_log_record_prefix_idx
  on public.audit_log (record_id text_pattern_ops);
drop index if exists public.audit_log_record_idx;

-- The audit entries whose record id starts with `prefix` (4 characters or more), with the columns
-- the console reads. Security invoker: the log's RLS and column grants apply as for the table.
-- PL/pgSQL, so its query is planned with the prefix's value (the REST layer passes arguments
-- through a lateral join, where an inlined function's range would be a join condition the
-- planner may put behind a newest-first scan of the whole log). The console's other filters,
-- order and page, REST parameters on the call, then apply to the few entries it returns.
create or replace function public.audit_log_by_record_id(prefix text)
returns table (
  id bigint, "timestamp" timestamptz, user_id uuid, action text, table_name text,
  record_id text, changed_fields text[], purpose text, legal_basis text, ip_address inet,
  session_id text, subject_user_id uuid, organization_id uuid
)
language plpgsql stable
set search_path = ''
as $$
begin
  if prefix is null or length(prefix) < 4 then
    raise exception 'Search a record id by the whole id or its first 4 characters or more.'
      using errcode = '22023';
  end if;
  return query
    select l.id, l."timestamp", l.user_id, l.action, l.table_name, l.record_id, l.changed_fields,
           l.purpose, l.legal_basis, l.ip_address, l.session_id, l.subject_user_id,
           l.organization_id
      from public.audit_log l
     where l.record_id operator(pg_catalog.~>=~) prefix
       and l.record_id operator(pg_catalog.~<~) (prefix || chr(1114111))
       and starts_with(l.record_id, prefix);
end
$$;
revoke all on function public.audit_log_by_record_id(text) from public, anon;
grant execute on function public.audit_log_by_record_id(text) to authenticated, service_role;
