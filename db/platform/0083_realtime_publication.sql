-- Postgres changes through logical replication on PostgreSQL (decision 0304, amending 0302).
-- A table enabled for realtime is in the publication `supabase_realtime` (Supabase's name), which
-- each gateway process on PostgreSQL with wal_level=logical streams through a temporary slot
-- named `realtime_…` (pgoutput). The trigger stays: it is the capture on PGlite and on a
-- PostgreSQL server without logical replication, and it stops notifying while a realtime slot
-- of this database exists, so a change is not captured twice over.

do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime with (publish = 'insert, update, delete');
  end if;
end
$$;

-- True while some gateway process reads this database's changes from the WAL.
create function realtime.replicating() returns boolean
language sql stable
set search_path = pg_catalog
as $$
  select exists (
    select 1 from pg_replication_slots
     where database = current_database() and slot_name like 'realtime\_%' and plugin = 'pgoutput')
$$;
revoke all on function realtime.replicating() from public;

create or replace function realtime.capture_change() returns trigger
language plpgsql security definer
set search_path = pg_catalog
as $$
declare
  identity "char";
  rls boolean;
  row_now jsonb;
  old_row jsonb;
  key jsonb := '{}'::jsonb;
  column_name text;
  message jsonb;
  message_text text;
begin
  if realtime.replicating() then
    return null;
  end if;
  row_now := case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end;
  select c.relreplident, c.relrowsecurity into identity, rls from pg_class c where c.oid = tg_relid;
  foreach column_name in array tg_argv loop
    key := key || jsonb_build_object(column_name, row_now -> column_name);
  end loop;
  if tg_op <> 'INSERT' then
    old_row := case
      when identity = 'f' and (not rls or tg_op = 'UPDATE') then to_jsonb(old)
      when identity = 'n' then '{}'::jsonb
      else (select coalesce(jsonb_object_agg(k, to_jsonb(old) -> k), '{}'::jsonb)
              from unnest(tg_argv) k)
    end;
  end if;
  message := jsonb_build_object(
    'schema', tg_table_schema,
    'table', tg_table_name,
    'type', tg_op,
    'commit_timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'rls', rls,
    'key', key,
    'record', case when tg_op = 'DELETE' then null else to_jsonb(new) end,
    'old_record', old_row);
  message_text := message::text;
  -- NOTIFY carries 8000 bytes: a large row travels as its key, and the server reads the row.
  if octet_length(message_text) > 7900 then
    message := message || jsonb_build_object('record', null, 'old_record',
      case when tg_op = 'INSERT' then null else key end, 'truncated', true);
    message_text := message::text;
  end if;
  perform pg_notify('realtime_changes', message_text);
  return null;
end
$$;

-- As in 0081, and the table joins the publication. A published table needs a replica identity
-- (PostgreSQL refuses its updates and deletes otherwise), so NOTHING is refused here.
create or replace function realtime.enable_changes(target regclass) returns void
language plpgsql
set search_path = pg_catalog
as $$
declare
  key_columns text[];
begin
  select array_agg(a.attname::text order by array_position(i.indkey::int2[], a.attnum))
    into key_columns
    from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey::int2[])
   where i.indrelid = target and i.indisprimary;
  if key_columns is null then
    raise exception 'realtime.enable_changes: % has no primary key', target
      using hint = 'Realtime checks each subscriber''s access to a changed row by its primary key.';
  end if;
  if (select relreplident from pg_class where oid = target) = 'n' then
    raise exception 'realtime.enable_changes: % has replica identity NOTHING', target
      using hint = 'A published table needs replica identity DEFAULT or FULL for its updates and deletes.';
  end if;
  execute format('drop trigger if exists realtime_changes on %s', target);
  execute format(
    'create trigger realtime_changes after insert or update or delete on %s '
    'for each row execute function realtime.capture_change(%s)',
    target,
    (select string_agg(quote_literal(c), ', ') from unnest(key_columns) c));
  if not exists (select 1 from pg_publication_rel r join pg_publication p on p.oid = r.prpubid
                  where p.pubname = 'supabase_realtime' and r.prrelid = target) then
    execute format('alter publication supabase_realtime add table %s', target);
  end if;
end
$$;

create or replace function realtime.disable_changes(target regclass) returns void
language plpgsql
set search_path = pg_catalog
as $$
begin
  execute format('drop trigger if exists realtime_changes on %s', target);
  if exists (select 1 from pg_publication_rel r join pg_publication p on p.oid = r.prpubid
              where p.pubname = 'supabase_realtime' and r.prrelid = target) then
    execute format('alter publication supabase_realtime drop table %s', target);
  end if;
end
$$;

-- Tables enabled before this migration join the publication too.
do $$
declare
  enabled regclass;
begin
  for enabled in
    select c.oid::regclass
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where t.tgname = 'realtime_changes' and not t.tgisinternal and c.relreplident <> 'n'
       and not exists (select 1 from pg_publication_rel r join pg_publication p on p.oid = r.prpubid
                        where p.pubname = 'supabase_realtime' and r.prrelid = c.oid)
  loop
    execute format('alter publication supabase_realtime add table %s', enabled);
  end loop;
end
$$;
