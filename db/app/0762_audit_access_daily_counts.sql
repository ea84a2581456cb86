-- Data-access patterns from counts kept as the log is written (issue 16, decision 0431).
--
-- audit_access_patterns counted the raw log: every entry of the period for the officer's
-- organization, grouped by day, person, table and action, then sorted to keep the first 2,000
-- groups (1.4 s at p99 over 10,000,000 entries). audit.access_daily holds those counts per
-- organization and UTC day, kept up to date by a statement trigger on the log itself, so every
-- way an entry arrives (the commit-time move of staged entries, audit.append, retention's
-- deletion) keeps them exact. The trigger runs inside the statement that appends, which holds
-- the chain lock already: the counts' row locks add no waiting of their own.

create table audit.access_daily (
  organization_id uuid,
  day date not null,
  user_id uuid,
  -- The log's table_name, '' for events that name none (as the console shows them).
  table_name text not null,
  action text not null,
  entries bigint not null check (entries > 0)
) with (fillfactor = 90);

-- One row per organization, day, person, table and action (no organization or no person is a
-- value of its own); an officer's days, newest first, in index order.
create unique index access_daily_key on audit.access_daily
  (organization_id, day, user_id, table_name, action) nulls not distinct;
-- A platform admin's days across organizations, grouped in index order.
create index access_daily_day_idx on audit.access_daily (day, user_id, table_name, action);

alter table audit.access_daily enable row level security;
-- As the log's own policy (0700): officers of the organization, platform admins.
create policy access_daily_officers on audit.access_daily for select to authenticated
  using (
    organization_id = any ((select audit.readable_organizations())::uuid[])
    or (select audit.is_platform_admin())
  );
revoke all on audit.access_daily from public, anon, authenticated, service_role;
grant select on audit.access_daily to authenticated;

-- Entries appended by one statement, counted into their days.
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
  return null;
end
$$;

-- Entries removed (only retention removes any, oldest first): the days they were in are
-- counted again from what is left of them.
create or replace function audit.recount_removed() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  days date[];
begin
  select array_agg(distinct (r."timestamp" at time zone 'UTC')::date) into days from removed r;
  if days is null then return null; end if;
  delete from audit.access_daily d where d.day = any (days);
  insert into audit.access_daily (organization_id, day, user_id, table_name, action, entries)
  select l.organization_id, (l."timestamp" at time zone 'UTC')::date, l.user_id,
         coalesce(l.table_name, ''), l.action, count(*)
    from public.audit_log l
   where l."timestamp" >= ((select min(x) from unnest(days) x)::timestamp at time zone 'UTC')
     and l."timestamp" < (((select max(x) from unnest(days) x) + 1)::timestamp at time zone 'UTC')
     and (l."timestamp" at time zone 'UTC')::date = any (days)
   group by 1, 2, 3, 4, 5;
  return null;
end
$$;

lock table public.audit_log in share row exclusive mode;
create trigger audit_log_counted after insert on public.audit_log
  referencing new table as appended
  for each statement execute function audit.count_appended();
create trigger audit_log_recounted after delete on public.audit_log
  referencing old table as removed
  for each statement execute function audit.recount_removed();

insert into audit.access_daily (organization_id, day, user_id, table_name, action, entries)
select l.organization_id, (l."timestamp" at time zone 'UTC')::date, l.user_id,
       coalesce(l.table_name, ''), l.action, count(*)
  from public.audit_log l
 group by 1, 2, 3, 4, 5;

-- The counts name the people who acted; they follow the log's entries (kept for the audit
-- period, removed with them by retention).
insert into privacy.personal_data
  (table_name, subject_column, match, json_key, export, erasure, anonymise_columns, description, reason)
values
  ('audit.access_daily', 'user_id', 'id', null, false, 'keep', '{}',
   'how many audit entries this person made per day, table and action',
   'counts derived from public.audit_log, whose entries are exported and kept for the audit period; they change only as entries are appended or removed by retention');

-- Counts per day, person, table and action over the last `since_days` whole UTC days and today,
-- read from audit.access_daily. Runs as the caller: the counts' row-level security (as the
-- log's) and audit.reviewed_organizations decide what is counted.
create or replace function public.audit_access_patterns(
  since_days integer default 30, organization uuid default null
) returns table (day date, user_id uuid, table_name text, action text, entries bigint)
language plpgsql stable
set search_path = ''
as $$
declare
  scope uuid[] := audit.reviewed_organizations(organization);
  since date;
begin
  if since_days is null or since_days not between 1 and 366 then
    raise exception using errcode = '22023', message = 'since_days must be between 1 and 366';
  end if;
  since := (now() at time zone 'UTC')::date - since_days;
  if cardinality(scope) = 1 then
    -- One organization: its rows are the groups, read newest day first from the key.
    return query
      select d.day, d.user_id, d.table_name, d.action, d.entries
        from audit.access_daily d
       where d.organization_id = scope[1] and d.day >= since
       order by d.day desc, d.entries desc, d.user_id, d.table_name, d.action
       limit 2000;
  else
    return query
      select d.day, d.user_id, d.table_name, d.action, sum(d.entries)::bigint
        from audit.access_daily d
       where d.day >= since and (scope is null or d.organization_id = any (scope))
       group by d.day, d.user_id, d.table_name, d.action
       order by 1 desc, 5 desc, 2, 3, 4
       limit 2000;
  end if;
end
$$;
revoke all on function public.audit_access_patterns(integer, uuid) from public;
grant execute on function public.audit_access_patterns(integer, uuid) to authenticated;
