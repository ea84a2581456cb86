-- Cheaper audited writes (issue 16, decision 0424). Before: a row-level trigger per changed
-- row called five SQL/plpgsql functions (each re-planned on every call) and appended under
-- the chain lock, which it then held until commit, so audited transactions ran one at a time
-- from their first audited write to their commit (bench/audit-write-bench.ts: 1.3-1.6 ms per
-- row, and four writers no faster than one).
--
-- Now:
--   1. Statement-level triggers with transition tables stage a whole statement's entries into
--      audit.pending in one set-based INSERT, without the chain lock.
--   2. At commit, a deferred constraint trigger (one per transaction, on audit.pending_commit)
--      takes the chain lock, numbers the transaction's staged entries after the chain's tip,
--      hashes them in order and moves them into public.audit_log; the lock is held only for
--      that move and the commit itself.
-- The entries and their rows commit or roll back together, as before; public.audit_log, its
-- hash definition (audit.row_hash) and verify_audit_chain() are unchanged, so the chain checks
-- exactly as it did. record_audit_event and the other callers of audit.append (which return
-- the entry's id) still append directly under the lock.

create table audit.pending (
  seq bigint generated always as identity primary key,
  "timestamp" timestamptz not null default clock_timestamp(),
  user_id uuid,
  action text not null,
  table_name text,
  record_id text,
  old_values jsonb,
  new_values jsonb,
  changed_fields text[] not null,
  purpose text not null,
  legal_basis text not null,
  session_id text,
  subject_user_id uuid,
  organization_id uuid,
  content_hash bytea not null
);

-- One row per transaction that staged entries; its deferred trigger chains them at commit.
create table audit.pending_commit (
  tx xid8 primary key default pg_current_xact_id()
);

alter table audit.pending enable row level security;
alter table audit.pending_commit enable row level security;
revoke all on audit.pending, audit.pending_commit from public, anon, authenticated, service_role;

-- Moves every staged entry the caller can see (its own transaction's, and any left by a
-- transaction whose commit-time trigger did not run, were the owner to disable it) into the
-- chain, in staging order. Called
-- at commit, and by erasure before it redacts values. Returns how many entries it chained.
-- Few statements on purpose: a single-row write pays for each of them.
create or replace function audit.chain_pending() returns bigint
language plpgsql volatile security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
declare
  seqs bigint[];
  materials bytea[];
  prevs bytea[];
  hashes bytea[];
  tip bytea;
  first_id bigint;
  n integer;
begin
  perform pg_advisory_xact_lock(hashtext('lyceum.audit_log.chain'));
  -- Ids are taken only under the chain lock (here and in audit.append), so the block that
  -- starts here is contiguous and in chain order. An id taken when nothing is staged is a gap,
  -- which the chain does not mind.
  first_id := nextval('public.audit_log_id_seq'::regclass);
  -- What audit.row_hash hashes after the previous hash, for each entry in order; and the tip.
  select array_agg(x.seq order by x.seq),
         array_agg(convert_to(jsonb_build_array(
           first_id + x.rn - 1,
           (extract(epoch from x."timestamp") * 1000000)::bigint,
           x.user_id, x.action, x.table_name, x.record_id, x.changed_fields,
           x.purpose, x.legal_basis, null::text, null::text,
           x.session_id, x.subject_user_id, x.organization_id,
           encode(x.content_hash, 'hex')
         )::text, 'UTF8') order by x.seq),
         coalesce(
           (select l.row_hash from public.audit_log l order by l.id desc limit 1),
           (select a.prev_hash from audit.chain_anchors a order by a.id desc limit 1),
           audit.genesis())
    into seqs, materials, tip
    from (select p.*, row_number() over (order by p.seq) as rn from audit.pending p) x;
  n := coalesce(cardinality(seqs), 0);
  if n > 1 then
    perform setval('public.audit_log_id_seq'::regclass, first_id + n - 1);
  end if;
  prevs := array_fill(null::bytea, array[n]);
  hashes := array_fill(null::bytea, array[n]);
  for i in 1 .. n loop
    prevs[i] := tip;
    tip := sha256(tip || materials[i]);
    hashes[i] := tip;
  end loop;
  with done as (
    delete from audit.pending_commit c where c.tx = pg_current_xact_id()
  ),
  moved as (
    delete from audit.pending p where p.seq = any (seqs) returning p.*
  )
  insert into public.audit_log
    (id, "timestamp", user_id, action, table_name, record_id, old_values, new_values,
     changed_fields, purpose, legal_basis, ip_address, user_agent, session_id,
     subject_user_id, organization_id, content_hash, prev_hash, row_hash)
  overriding system value
  select first_id + u.ord - 1, p."timestamp", p.user_id, p.action, p.table_name, p.record_id,
         p.old_values, p.new_values, p.changed_fields, p.purpose, p.legal_basis, null, null,
         p.session_id, p.subject_user_id, p.organization_id, p.content_hash, u.prev, u.hash
    from unnest(seqs, prevs, hashes) with ordinality as u(seq, prev, hash, ord)
    join moved p on p.seq = u.seq;
  return n;
end
$$;

create or replace function audit.chain_at_commit() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform audit.chain_pending();
  return null;
end
$$;
create constraint trigger pending_chained_at_commit after insert on audit.pending_commit
  deferrable initially deferred
  for each row execute function audit.chain_at_commit();

-- Stages one statement's changes. `olds`/`news` are the rows as JSON (an UPDATE's paired row
-- for row). The rules are the row trigger's: keys that look like secrets or that the table
-- leaves out are never copied; an UPDATE records only the changed columns, and nothing when
-- only updated_at or a left-out column changed. Every row of a statement has the same keys, so
-- which to drop is worked out once; so is each subject's organization.
create or replace function audit.stage(
  op text, relation text, subject_is_id boolean, olds jsonb[], news jsonb[],
  purpose text, legal_basis text, excluded text[]
) returns void
language plpgsql volatile security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
declare
  actor uuid := auth.uid();
  session text := left(auth.jwt() ->> 'session_id', 100);
begin
  with keys as (
    select coalesce(array_agg(k) filter (where k = any (excluded)
             or k ~* '(password|secret|token|otp|recovery_code|(^|_)hash$)'), '{}') as dropped,
           coalesce(array_agg(k order by k) filter (where not (k = any (excluded)
             or k ~* '(password|secret|token|otp|recovery_code|(^|_)hash$)')), '{}') as kept
      from jsonb_object_keys(coalesce(news[1], olds[1])) k
  ),
  entries as materialized (
    select coalesce(u.n, u.o) as whole, u.ord, d.old_values, d.new_values, d.changed
      from keys
      cross join unnest(olds, news) with ordinality as u(o, n, ord)
      cross join lateral (
        select u.o - keys.dropped as old_values, u.n - keys.dropped as new_values,
               keys.kept as changed
         where op <> 'UPDATE'
        union all
        select jsonb_object_agg(k, u.o -> k), jsonb_object_agg(k, u.n -> k), array_agg(k order by k)
          from unnest(keys.kept) k
         where op = 'UPDATE' and k <> 'updated_at' and u.n -> k is distinct from u.o -> k
        having count(*) > 0
      ) d
  ),
  subjects as materialized (
    select e.*, coalesce(case when subject_is_id then (e.whole ->> 'id')::uuid end,
             (e.whole ->> 'user_id')::uuid, (e.whole ->> 'owner_id')::uuid) as subject
      from entries e
  ),
  homes as (
    select s.subject,
           coalesce(
             (select m.organization_id from public.memberships m
               where m.user_id = s.subject and m.active order by m.created_at limit 1),
             (select o.id from public.organizations o
               where o.owner_id = s.subject order by o.created_at limit 1)) as organization_id
      from (select distinct subject from subjects) s
  ),
  staged as (
    insert into audit.pending
      (user_id, action, table_name, record_id, old_values, new_values, changed_fields, purpose,
       legal_basis, session_id, subject_user_id, organization_id, content_hash)
    select actor, lower(op), relation, left(coalesce(s.whole ->> 'id', s.whole ->> 'user_id'), 200),
           s.old_values, s.new_values, s.changed, purpose, legal_basis, session, s.subject,
           coalesce(
             case when s.whole ? 'organization_id' and (s.whole ->> 'organization_id') is not null
               then (s.whole ->> 'organization_id')::uuid end,
             h.organization_id),
           sha256(convert_to(jsonb_build_array(s.old_values, s.new_values)::text, 'UTF8'))
      from subjects s
      left join homes h on h.subject is not distinct from s.subject
     order by s.ord
    returning 1
  )
  -- The transaction's marker, whose trigger chains the staged entries at commit.
  insert into audit.pending_commit
  select pg_current_xact_id() where exists (select from staged)
  on conflict do nothing;
end
$$;

-- The statement trigger: INSERT and DELETE hand their transition table over as it is; an
-- UPDATE pairs each old row with its new one by primary key (TG_ARGV[3]), or by position when
-- the table has none or the statement changed keys.
create or replace function audit.capture_statement() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  excluded text[] := coalesce(tg_argv[2]::text[], '{}');
  key_columns text[] := coalesce(tg_argv[3]::text[], '{}');
  relation text := tg_table_schema || '.' || tg_table_name;
  subject_is_id boolean := tg_table_name = 'profiles' or relation = 'auth.users';
  olds jsonb[];
  news jsonb[];
  old_keys text[];
  new_keys text[];
  updated bigint;
begin
  if tg_op = 'INSERT' then
    select array_agg(to_jsonb(r)) into news from new_rows r;
  elsif tg_op = 'DELETE' then
    select array_agg(to_jsonb(r)) into olds from old_rows r;
  else
    select count(*) into updated from new_rows;
    if updated = 0 then return null; end if;
    if cardinality(key_columns) > 0 then
      -- Both sides sorted by key line up row for row when the statement kept every key.
      select array_agg(o.row order by o.key), array_agg(o.key order by o.key) into olds, old_keys
        from (select to_jsonb(r) as row, (select jsonb_agg(to_jsonb(r) -> k order by i)::text
                from unnest(key_columns) with ordinality as c(k, i)) as key from old_rows r) o;
      select array_agg(n.row order by n.key), array_agg(n.key order by n.key) into news, new_keys
        from (select to_jsonb(r) as row, (select jsonb_agg(to_jsonb(r) -> k order by i)::text
                from unnest(key_columns) with ordinality as c(k, i)) as key from new_rows r) n;
      if old_keys is distinct from new_keys then olds := null; end if;
    end if;
    if coalesce(cardinality(olds), 0) <> updated then
      -- WORKAROUND(transition-order): PostgreSQL fills an UPDATE's old and new transition
      -- tables row by row together, so positions pair them when keys cannot.
      select array_agg(o.row order by o.i), array_agg(n.row order by o.i) into olds, news
        from (select to_jsonb(r) as row, row_number() over () as i from old_rows r) o
        join (select to_jsonb(r) as row, row_number() over () as i from new_rows r) n
          on n.i = o.i;
    end if;
  end if;
  if olds is null and news is null then return null; end if;
  perform audit.stage(tg_op, relation, subject_is_id, olds, news, tg_argv[0], tg_argv[1], excluded);
  return null;
end
$$;

-- The one way to audit a table, as before: audit.attach('public.notes', 'learning records',
-- 'contract'). Three statement triggers (PostgreSQL allows transition tables on single-event
-- triggers only); the row trigger an older attach made is dropped.
create or replace function audit.attach(
  target regclass,
  purpose text default 'providing the learning service',
  legal_basis text default 'contract',
  excluded_columns text[] default '{}'
) returns void
language plpgsql
set search_path = ''
as $$
declare
  key_columns text[] := (
    select coalesce(array_agg(a.attname::text order by k.i), '{}')
      from pg_index x
      cross join lateral unnest(x.indkey) with ordinality as k(attnum, i)
      join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
     where x.indrelid = target and x.indisprimary);
begin
  perform audit.require_legal_basis(purpose, legal_basis);
  execute format('drop trigger if exists audit_changes on %s', target);
  execute format('drop trigger if exists audit_changes_update on %s', target);
  execute format('drop trigger if exists audit_changes_delete on %s', target);
  execute format(
    'create trigger audit_changes after insert on %s referencing new table as new_rows '
    'for each statement execute function audit.capture_statement(%L, %L, %L, %L)',
    target, purpose, legal_basis, excluded_columns::text, key_columns::text);
  execute format(
    'create trigger audit_changes_update after update on %s '
    'referencing old table as old_rows new table as new_rows '
    'for each statement execute function audit.capture_statement(%L, %L, %L, %L)',
    target, purpose, legal_basis, excluded_columns::text, key_columns::text);
  execute format(
    'create trigger audit_changes_delete after delete on %s referencing old table as old_rows '
    'for each statement execute function audit.capture_statement(%L, %L, %L, %L)',
    target, purpose, legal_basis, excluded_columns::text, key_columns::text);
end
$$;

-- Every table audited so far moves to the statement triggers, with the purpose, basis and
-- left-out columns it was attached with.
do $$
declare
  t record;
  args text[];
begin
  for t in
    select tr.tgrelid::regclass as target, tr.tgargs, tr.tgnargs
      from pg_trigger tr
     where tr.tgname = 'audit_changes' and tr.tgfoid = 'audit.capture'::regproc
  loop
    -- tgargs: the arguments, each ended by a zero byte.
    args := string_to_array(encode(t.tgargs, 'escape'), E'\\000');
    perform audit.attach(t.target, args[1], args[2], coalesce(args[3], '{}')::text[]);
  end loop;
end
$$;
drop function audit.capture();

-- Staged entries exist only inside the writing transaction; listed for the registry test.
insert into privacy.personal_data
  (table_name, subject_column, match, json_key, export, erasure, anonymise_columns, description, reason)
values
  ('audit.pending', 'user_id', 'id', null, false, 'keep', '{}',
   'audit entries being written, inside the transaction that writes them',
   'moved into public.audit_log when their transaction commits, so empty outside a transaction; erasure chains them first and then erases their values there'),
  ('audit.pending', 'subject_user_id', 'id', null, false, 'keep', '{}',
   'audit entries being written, inside the transaction that writes them',
   'moved into public.audit_log when their transaction commits, so empty outside a transaction; erasure chains them first and then erases their values there');

-- Erasure (0751) as before, except that it chains the entries its own deletions staged before
-- it erases the values of the person's entries: otherwise those would reach the log at commit,
-- values and all.
create or replace function privacy.erase_personal_data(person uuid)
returns table (table_name text, subject_column text, action text, rows_affected bigint)
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  entry privacy.personal_data;
  email text := (select u.email from auth.users u where u.id = person);
  hold privacy.legal_holds;
  affected bigint;
begin
  select * into hold from privacy.legal_holds h where h.user_id = person and h.released_at is null;
  if found then
    raise exception 'This account is under a legal hold since %: %',
      to_char(hold.placed_at, 'YYYY-MM-DD'), hold.reason using errcode = 'PT409';
  end if;
  -- Anonymise first (other people's records keep existing), then keep-with-clearing, then
  -- delete (the product's tables before the counters their triggers maintain, the account
  -- last); the audit values go at the very end, so the entries the deletions themselves wrote
  -- are erased too.
  for entry in
    select * from privacy.personal_data p
     order by case
                when p.table_name = 'public.audit_log' then 5
                when p.erasure = 'anonymise' then 0
                when p.erasure = 'keep' then 1
                when p.table_name = 'auth.users' then 4
                when p.table_name like 'learning.%' then 3
                else 2
              end, p.table_name, p.subject_column
  loop
    affected := 0;
    if entry.match = 'email' and email is null then
      null;
    elsif entry.table_name = 'public.audit_log' then
      -- The entries this erasure's own deletions staged join the log first, so their values
      -- are erased with the rest.
      perform audit.chain_pending();
      perform set_config('lyceum.audit_redaction', 'on', true);
      execute format('update public.audit_log set old_values = null, new_values = null where %s '
        || 'and (old_values is not null or new_values is not null)', privacy.subject_condition(entry))
        using person;
      get diagnostics affected = row_count;
      perform set_config('lyceum.audit_redaction', 'off', true);
    elsif entry.erasure = 'delete' then
      execute format('delete from %s where %s', entry.table_name::regclass, privacy.subject_condition(entry))
        using person, email;
      get diagnostics affected = row_count;
    elsif entry.erasure = 'anonymise' or cardinality(entry.anonymise_columns) > 0 then
      execute format('update %s set %s where %s', entry.table_name::regclass,
        case
          when entry.erasure = 'keep' then
            (select string_agg(format('%I = default', c), ', ') from unnest(entry.anonymise_columns) c)
          when entry.match = 'json_key' then
            format('%I = %I - %L', entry.subject_column, entry.subject_column, entry.json_key)
          else
            (select string_agg(format('%I = null', c), ', ')
               from unnest(array[entry.subject_column] || entry.anonymise_columns) c)
        end,
        privacy.subject_condition(entry))
        using person, email;
      get diagnostics affected = row_count;
    end if;
    table_name := entry.table_name;
    subject_column := entry.subject_column;
    action := entry.erasure;
    rows_affected := affected;
    return next;
  end loop;
end
$$;
revoke all on function privacy.erase_personal_data(uuid) from public;
