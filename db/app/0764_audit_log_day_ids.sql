-- A console page over a period far back (issue 16, decision 0431): newest first, the planner
-- walked an action's entries from the newest until it reached the period (a week a year ago:
-- 163,454 entries skipped, 880 ms at p99 over 10,000,000), since it costs a LIMIT as if matches
-- were spread evenly over ids. audit.day_ids keeps, per UTC day, the lowest and highest id of
-- the entries of that day, maintained by the same statement trigger as the daily counts; the
-- console asks for the ids of its period and adds them to its filters, so the scan starts at the
-- period's last id. The bounds are exact (every entry of a day lies between them), so the
-- time filter still decides and nothing is missed.

create table audit.day_ids (
  day date primary key,
  first_id bigint not null,
  last_id bigint not null
);
alter table audit.day_ids enable row level security;
revoke all on audit.day_ids from public, anon, authenticated, service_role;

create or replace function audit.count_appended() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into audit.access_daily as d (organization_id, day, user_id, table_name, action, entries)
  select a.organization_id, (a."timestamp" at time zone 'UTC')::date, a.user_id,
         coalesce(a.table_name, ''), a.action, count(*)
    from appended a
   group by 1, 2, 3, 4, 5
  on conflict (organization_id, day, user_id, table_name, action)
  do update set entries = d.entries + excluded.entries;
  insert into audit.day_ids as i (day, first_id, last_id)
  select (a."timestamp" at time zone 'UTC')::date, min(a.id), max(a.id)
    from appended a
   group by 1
  on conflict (day) do update
    set first_id = least(i.first_id, excluded.first_id),
        last_id = greatest(i.last_id, excluded.last_id);
  return null;
end
$$;

lock table public.audit_log in share row exclusive mode;
insert into audit.day_ids (day, first_id, last_id)
select ("timestamp" at time zone 'UTC')::date, min(id), max(id)
  from public.audit_log
 group by 1;

-- The ids between which every entry of the UTC days `since` to `until` lies (either may be
-- null: open), for the console's reviewers; nulls when no entry was written then.
create or replace function public.audit_log_ids_between(since date, until date)
returns table (first_id bigint, last_id bigint)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform audit.reviewed_organizations(null);
  return query
    select min(i.first_id), max(i.last_id)
      from audit.day_ids i
     where (since is null or i.day >= since) and (until is null or i.day <= until);
end
$$;
revoke all on function public.audit_log_ids_between(date, date) from public, anon;
grant execute on function public.audit_log_ids_between(date, date) to authenticated;
