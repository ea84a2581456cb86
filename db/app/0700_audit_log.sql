-- The audit log (issue 16, decision 0401): who did what to which personal record, why and on
-- which legal basis. Written by a trigger on every table with personal data (audit.attach)
-- and by public.record_audit_event for reads and actions no trigger sees. Append-only: no role
-- but the platform (the database owner) may change it, and every row carries the hash of the
-- one before, so a change made by the owner itself shows in public.verify_audit_chain().

create schema if not exists audit;
revoke all on schema audit from public;
grant usage on schema audit to authenticated, service_role;

create table public.audit_log (
  id bigint generated always as identity primary key,
  "timestamp" timestamptz not null default clock_timestamp(),
  -- The person who acted (null: the platform itself, a job or an anonymous caller).
  user_id uuid,
  action text not null check (length(action) between 1 and 100),
  table_name text check (length(table_name) <= 200),
  record_id text check (length(record_id) <= 200),
  -- Changed columns only (UPDATE), the whole row (INSERT/DELETE), details of an event; never
  -- passwords, tokens or secrets. Readable by the platform only (column grants below).
  old_values jsonb,
  new_values jsonb,
  -- Names of the columns the entry concerns: what the console shows instead of the values.
  changed_fields text[] not null default '{}',
  purpose text not null,
  legal_basis text not null,
  ip_address inet,
  user_agent text check (length(user_agent) <= 512),
  session_id text check (length(session_id) <= 100),
  -- Whose record it is, and the organization whose compliance officers see the entry.
  subject_user_id uuid,
  organization_id uuid,
  -- sha256 of the values (kept when the values are redacted) and the chain.
  content_hash bytea not null,
  prev_hash bytea not null,
  row_hash bytea not null
);
create index audit_log_org_idx on public.audit_log (organization_id, id desc);
create index audit_log_org_time_idx on public.audit_log (organization_id, "timestamp");
create index audit_log_user_idx on public.audit_log (user_id, id desc);
create index audit_log_subject_idx on public.audit_log (subject_user_id, id desc);
create index audit_log_time_idx on public.audit_log ("timestamp");

-- Where the chain restarts after retention removed its oldest entries: the first kept row's
-- prev_hash must equal the last anchor's.
create table audit.chain_anchors (
  id bigint generated always as identity primary key,
  first_kept_id bigint,
  prev_hash bytea not null,
  deleted_rows bigint not null,
  created_at timestamptz not null default now()
);

-- ----- legal basis -------------------------------------------------------------------------

-- GDPR Article 6(1): the six lawful bases, and a stated purpose.
create or replace function public.validate_legal_basis(purpose text, legal_basis text)
returns boolean
language sql immutable
set search_path = ''
as $$
  select coalesce(length(trim(purpose)) between 3 and 200, false)
     and coalesce(legal_basis in ('consent', 'contract', 'legal_obligation', 'vital_interests',
       'public_task', 'legitimate_interests'), false)
$$;
grant execute on function public.validate_legal_basis(text, text) to anon, authenticated, service_role;

create or replace function audit.require_legal_basis(purpose text, legal_basis text)
returns void
language plpgsql immutable
set search_path = ''
as $$
begin
  if not public.validate_legal_basis(purpose, legal_basis) then
    raise exception using
      errcode = '22023',
      message = format('invalid purpose or legal basis (%s, %s)', coalesce(purpose, 'null'),
        coalesce(legal_basis, 'null')),
      hint = 'The purpose is 3 to 200 characters; the legal basis is one of consent, contract, '
        || 'legal_obligation, vital_interests, public_task, legitimate_interests.';
  end if;
end
$$;

-- ----- the chain ---------------------------------------------------------------------------

create or replace function audit.genesis() returns bytea
language sql immutable
as $$ select decode(repeat('00', 32), 'hex') $$;

create or replace function audit.content_hash(old_values jsonb, new_values jsonb) returns bytea
language sql immutable
as $$
  select sha256(convert_to(jsonb_build_array(old_values, new_values)::text, 'UTF8'))
$$;

-- Every field but the values themselves (their hash stands for them), in a fixed text form:
-- the time as epoch microseconds, so the session's time zone does not change the hash.
create or replace function audit.row_hash(entry public.audit_log) returns bytea
language sql immutable
as $$
  select sha256(entry.prev_hash || convert_to(jsonb_build_array(
    entry.id,
    (extract(epoch from entry."timestamp") * 1000000)::bigint,
    entry.user_id, entry.action, entry.table_name, entry.record_id, entry.changed_fields,
    entry.purpose, entry.legal_basis, host(entry.ip_address), entry.user_agent,
    entry.session_id, entry.subject_user_id, entry.organization_id,
    encode(entry.content_hash, 'hex')
  )::text, 'UTF8'))
$$;

-- The organization an entry belongs to: the record's own, else its subject's first active
-- membership, else the organization they own (a person in several is listed under the oldest).
create or replace function audit.organization_of(record jsonb, subject uuid) returns uuid
language sql stable security definer
set search_path = ''
as $$
  select coalesce(
    case when record ? 'organization_id' and (record ->> 'organization_id') is not null
      then (record ->> 'organization_id')::uuid end,
    (select m.organization_id from public.memberships m
      where m.user_id = subject and m.active order by m.created_at limit 1),
    (select o.id from public.organizations o where o.owner_id = subject order by o.created_at limit 1)
  )
$$;

-- Appends one entry. Appends are serialised (a transaction-scoped advisory lock held until
-- commit), so ids are taken in commit order and each row's prev_hash is the row before it.
create or replace function audit.append(
  p_user_id uuid, p_action text, p_table_name text, p_record_id text,
  p_old_values jsonb, p_new_values jsonb, p_changed_fields text[],
  p_purpose text, p_legal_basis text,
  p_ip_address inet, p_user_agent text, p_session_id text,
  p_subject_user_id uuid, p_organization_id uuid
) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  entry public.audit_log;
begin
  perform audit.require_legal_basis(p_purpose, p_legal_basis);
  perform pg_advisory_xact_lock(hashtext('lyceum.audit_log.chain'));
  select l.row_hash into entry.prev_hash from public.audit_log l order by l.id desc limit 1;
  if entry.prev_hash is null then
    entry.prev_hash := coalesce(
      (select a.prev_hash from audit.chain_anchors a order by a.id desc limit 1), audit.genesis());
  end if;
  entry.id := nextval(pg_get_serial_sequence('public.audit_log', 'id'));
  entry."timestamp" := clock_timestamp();
  entry.user_id := p_user_id;
  entry.action := p_action;
  entry.table_name := p_table_name;
  entry.record_id := p_record_id;
  entry.old_values := p_old_values;
  entry.new_values := p_new_values;
  entry.changed_fields := coalesce(p_changed_fields, '{}');
  entry.purpose := p_purpose;
  entry.legal_basis := p_legal_basis;
  entry.ip_address := p_ip_address;
  entry.user_agent := left(p_user_agent, 512);
  entry.session_id := left(p_session_id, 100);
  entry.subject_user_id := p_subject_user_id;
  entry.organization_id := p_organization_id;
  entry.content_hash := audit.content_hash(p_old_values, p_new_values);
  entry.row_hash := audit.row_hash(entry);
  insert into public.audit_log overriding system value select entry.*;
  return entry.id;
end
$$;

-- The first entry whose hash does not match its content or whose prev_hash is not the row
-- before it; no rows when the chain is whole. Reads the whole log in id order.
create or replace function public.verify_audit_chain()
returns table (ok boolean, checked bigint, first_broken_id bigint, problem text)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  entry public.audit_log;
  expected_prev bytea;
  n bigint := 0;
begin
  if not (auth.role() is null or auth.role() = 'service_role' or audit.is_platform_admin()
    or cardinality(audit.readable_organizations()) > 0) then
    raise exception using errcode = '42501', message = 'only compliance officers verify the audit chain';
  end if;
  expected_prev := coalesce(
    (select a.prev_hash from audit.chain_anchors a order by a.id desc limit 1), audit.genesis());
  for entry in select * from public.audit_log l order by l.id loop
    n := n + 1;
    if entry.prev_hash is distinct from expected_prev then
      return query select false, n, entry.id, 'the entry before it was changed or removed';
      return;
    end if;
    if (entry.old_values is not null or entry.new_values is not null)
       and entry.content_hash is distinct from audit.content_hash(entry.old_values, entry.new_values) then
      return query select false, n, entry.id, 'its values were changed';
      return;
    end if;
    if entry.row_hash is distinct from audit.row_hash(entry) then
      return query select false, n, entry.id, 'its fields were changed';
      return;
    end if;
    expected_prev := entry.row_hash;
  end loop;
  return query select true, n, null::bigint, null::text;
end
$$;

-- ----- append-only -------------------------------------------------------------------------

-- Only retention (audit.delete_expired, which sets lyceum.audit_retention) removes entries,
-- and only the oldest ones; nothing updates them. The database owner can still disable the
-- trigger: the chain is what shows that.
create or replace function audit.refuse_change() returns trigger
language plpgsql
as $$
begin
  if tg_op = 'DELETE' and current_setting('lyceum.audit_retention', true) = 'on' then
    return old;
  end if;
  raise exception using errcode = '42501', message = 'the audit log is append-only';
end
$$;
create trigger audit_log_append_only before update or delete on public.audit_log
  for each row execute function audit.refuse_change();
create trigger audit_log_no_truncate before truncate on public.audit_log
  for each statement execute function audit.refuse_change();

-- ----- who reads it ------------------------------------------------------------------------

create or replace function audit.is_platform_admin() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select auth.uid() is not null and exists (
    select 1 from public.user_roles r
     where r.user_id = auth.uid() and r.role = 'admin' and r.organization_id is null)
$$;

-- The organizations whose compliance officer the caller is.
create or replace function audit.readable_organizations() returns uuid[]
language sql stable security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct m.organization_id), '{}')
    from public.memberships m
   where m.user_id = auth.uid() and m.active and m.role = 'compliance_officer'
$$;

alter table public.audit_log enable row level security;
alter table audit.chain_anchors enable row level security;
create policy audit_log_officers on public.audit_log for select to authenticated
  using (
    organization_id = any ((select audit.readable_organizations())::uuid[])
    or (select audit.is_platform_admin())
  );

revoke all on public.audit_log from public, anon, authenticated, service_role;
-- Identifiers and actions; never old_values or new_values (the content of personal records).
grant select (id, "timestamp", user_id, action, table_name, record_id, changed_fields, purpose,
  legal_basis, ip_address, user_agent, session_id, subject_user_id, organization_id)
  on public.audit_log to authenticated, service_role;
revoke all on audit.chain_anchors from public, anon, authenticated, service_role;

revoke all on all functions in schema audit from public;
grant execute on function audit.readable_organizations(), audit.is_platform_admin()
  to authenticated, service_role;
revoke all on function public.verify_audit_chain() from public;
grant execute on function public.verify_audit_chain() to authenticated, service_role;

-- ----- events no trigger sees --------------------------------------------------------------

-- Records a read or an action. A signed-in caller records as themselves; the platform (the
-- server, the service role) names the person, address, browser and session.
create or replace function public.record_audit_event(
  action text,
  purpose text,
  legal_basis text,
  table_name text default null,
  record_id text default null,
  details jsonb default null,
  user_id uuid default null,
  ip_address text default null,
  user_agent text default null,
  session_id text default null,
  subject_user_id uuid default null
) returns bigint
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  trusted boolean := auth.role() is null or auth.role() = 'service_role';
  actor uuid := case when trusted then user_id else auth.uid() end;
  subject uuid := coalesce(subject_user_id, actor);
  address inet;
begin
  if not trusted and auth.uid() is null then
    raise exception using errcode = '42501', message = 'sign in to record an audit event';
  end if;
  perform audit.require_legal_basis(purpose, legal_basis);
  if action is null or length(action) not between 1 and 100 or action !~ '^[a-z][a-z0-9_.]*$' then
    raise exception using errcode = '22023',
      message = 'action is 1 to 100 lower-case letters, digits, dots or underscores';
  end if;
  if trusted then
    begin
      address := ip_address::inet;
    exception when others then
      address := null;
    end;
  end if;
  return audit.append(
    actor, action, table_name, left(record_id, 200), null, details,
    coalesce((select array_agg(k) from jsonb_object_keys(coalesce(details, '{}')) k), '{}'),
    purpose, legal_basis, address,
    case when trusted then user_agent end,
    case when trusted then session_id else auth.jwt() ->> 'session_id' end,
    subject, audit.organization_of(details, subject));
end
$$;
revoke all on function public.record_audit_event(text, text, text, text, text, jsonb, uuid, text, text, text, uuid) from public;
grant execute on function public.record_audit_event(text, text, text, text, text, jsonb, uuid, text, text, text, uuid)
  to authenticated, service_role;

-- ----- the trigger on personal-data tables ------------------------------------------------

-- Keys never copied into the log, whatever the table: passwords, tokens, secrets, hashes.
create or replace function audit.scrub(row_values jsonb, excluded text[]) returns jsonb
language sql immutable
as $$
  select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)
    from jsonb_each(row_values) e
   where not (e.key = any (excluded))
     and e.key !~* '(password|secret|token|otp|recovery_code|(^|_)hash$)'
$$;

-- TG_ARGV: purpose, legal basis, then columns to leave out besides the always-sensitive ones.
create or replace function audit.capture() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  excluded text[] := coalesce(tg_argv[2]::text[], '{}');
  whole jsonb := to_jsonb(coalesce(new, old));
  old_values jsonb;
  new_values jsonb;
  changed text[];
  subject uuid;
begin
  if tg_op in ('UPDATE', 'DELETE') then old_values := audit.scrub(to_jsonb(old), excluded); end if;
  if tg_op in ('INSERT', 'UPDATE') then new_values := audit.scrub(to_jsonb(new), excluded); end if;
  if tg_op = 'UPDATE' then
    select jsonb_object_agg(n.key, n.value), jsonb_object_agg(n.key, old_values -> n.key),
           array_agg(n.key order by n.key)
      into new_values, old_values, changed
      from jsonb_each(new_values) n
     where n.value is distinct from old_values -> n.key
       and n.key not in ('updated_at');
    -- Nothing worth recording changed (a password or a timestamp only).
    if changed is null then return null; end if;
  else
    select array_agg(k order by k) into changed from jsonb_object_keys(coalesce(new_values, old_values)) k;
  end if;
  subject := coalesce(
    case when tg_table_name = 'users' and tg_table_schema = 'auth' then (whole ->> 'id')::uuid end,
    case when tg_table_name = 'profiles' then (whole ->> 'id')::uuid end,
    (whole ->> 'user_id')::uuid,
    (whole ->> 'owner_id')::uuid);
  perform audit.append(
    auth.uid(), lower(tg_op), tg_table_schema || '.' || tg_table_name,
    coalesce(whole ->> 'id', whole ->> 'user_id'),
    old_values, new_values, changed, tg_argv[0], tg_argv[1],
    null, null, auth.jwt() ->> 'session_id',
    subject, audit.organization_of(whole, subject));
  return null;
end
$$;

-- The one way to audit a table: audit.attach('public.notes', 'learning records', 'contract').
create or replace function audit.attach(
  target regclass,
  purpose text default 'providing the learning service',
  legal_basis text default 'contract',
  excluded_columns text[] default '{}'
) returns void
language plpgsql
set search_path = ''
as $$
begin
  perform audit.require_legal_basis(purpose, legal_basis);
  execute format('drop trigger if exists audit_changes on %s', target);
  execute format(
    'create trigger audit_changes after insert or update or delete on %s '
    'for each row execute function audit.capture(%L, %L, %L)',
    target, purpose, legal_basis, excluded_columns::text);
end
$$;
