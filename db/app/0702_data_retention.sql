-- Retention (issue 16, decision 0402): how long each kind of record is kept, and the daily
-- job (`retention-cleanup` in src/server/jobs/registry.ts) that deletes or anonymises what is
-- older. Each run is kept in retention_runs and recorded in the audit log.

create table public.data_retention_policies (
  table_name text primary key check (table_name ~ '^[a-z_]+\.[a-z_]+$'),
  retention_period_days integer not null check (retention_period_days between 1 and 36500),
  legal_basis text not null check (public.validate_legal_basis('data retention', legal_basis)),
  is_active boolean not null default true,
  -- delete the row, or clear the columns that identify a person and keep the rest.
  action text not null default 'delete' check (action in ('delete', 'anonymise')),
  -- The column whose age counts.
  date_column text not null check (date_column ~ '^[a-z_]+$'),
  anonymise_columns text[] not null default '{}',
  description text not null,
  updated_at timestamptz not null default now(),
  check (action = 'delete' or cardinality(anonymise_columns) > 0)
);

insert into public.data_retention_policies
  (table_name, retention_period_days, legal_basis, action, date_column, anonymise_columns, description)
values
  ('public.audit_log', 2555, 'legal_obligation', 'delete', 'timestamp', '{}',
   'Audit entries are kept seven years, then removed oldest first (the chain keeps an anchor).'),
  ('auth.failed_sign_ins', 30, 'legitimate_interests', 'anonymise', 'created_at',
   '{email,ip,user_agent}',
   'Failed sign-ins lose their address, browser and email after 30 days; the count stays.'),
  ('data_room.pin_attempts', 90, 'legitimate_interests', 'delete', 'attempted_at', '{}',
   'Data-room PIN attempts (client addresses) are deleted after 90 days.'),
  ('data_room.access_events', 730, 'legitimate_interests', 'delete', 'occurred_at', '{}',
   'Data-room document views are kept two years.'),
  ('auth.dev_mailbox', 7, 'legitimate_interests', 'delete', 'created_at', '{}',
   'Mail held by the built-in development mailbox is deleted after a week.')
on conflict (table_name) do nothing;

create table public.retention_runs (
  id bigint generated always as identity primary key,
  started_at timestamptz not null default now(),
  table_name text not null,
  action text not null,
  retention_period_days integer not null,
  rows_affected bigint not null,
  error text
);
create index retention_runs_started_idx on public.retention_runs (started_at desc);

-- Removes audit entries older than the cutoff, oldest first and without gaps, and leaves the
-- chain an anchor: the hash of the last removed entry, which the first kept one refers to.
create or replace function audit.delete_expired(cutoff timestamptz) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  last_id bigint;
  last_hash bytea;
  removed bigint;
begin
  perform pg_advisory_xact_lock(hashtext('lyceum.audit_log.chain'));
  select l.id, l.row_hash into last_id, last_hash
    from public.audit_log l
   where l.id = (select max(x.id) from public.audit_log x where x."timestamp" < cutoff);
  if last_id is null then return 0; end if;
  perform set_config('lyceum.audit_retention', 'on', true);
  delete from public.audit_log l where l.id <= last_id;
  get diagnostics removed = row_count;
  perform set_config('lyceum.audit_retention', 'off', true);
  insert into audit.chain_anchors (first_kept_id, prev_hash, deleted_rows)
  values ((select min(l.id) from public.audit_log l), last_hash, removed);
  return removed;
end
$$;

-- One pass over the active policies. Each table is its own step: a failure is kept in its
-- run's row and the other tables still go ahead.
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
revoke all on function audit.delete_expired(timestamptz) from public;

alter table public.data_retention_policies enable row level security;
alter table public.retention_runs enable row level security;

-- Compliance officers and platform admins read the policies and the runs; only platform
-- admins change a policy's period or switch it off (new policies come with migrations).
create policy retention_policies_read on public.data_retention_policies for select to authenticated
  using (cardinality((select audit.readable_organizations())) > 0 or (select audit.is_platform_admin()));
create policy retention_policies_admin on public.data_retention_policies for update to authenticated
  using ((select audit.is_platform_admin())) with check ((select audit.is_platform_admin()));
create policy retention_runs_read on public.retention_runs for select to authenticated
  using (cardinality((select audit.readable_organizations())) > 0 or (select audit.is_platform_admin()));

revoke all on public.data_retention_policies, public.retention_runs from public, anon, authenticated;
grant select on public.data_retention_policies, public.retention_runs to authenticated, service_role;
grant update (retention_period_days, is_active) on public.data_retention_policies to authenticated;
