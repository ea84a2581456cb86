-- Postgres changes for realtime (decision 0302): a table whose changes clients may subscribe
-- to gets an AFTER trigger (`realtime.enable_changes('schema.table')`), which notifies
-- `realtime_changes` after commit with the change, the row's primary key and whether the
-- table has RLS. The server then checks, per group of subscribers with the same claims, that
-- the subscriber can select the row by its key, and sends it the row it can see.
-- Old records follow the table's replica identity: FULL sends the whole old row, DEFAULT or
-- INDEX the key, NOTHING none. On an RLS table the old record is only the key: nobody can be
-- checked against a row version that is gone, and it may hold what the subscriber never could
-- see (Supabase sends the full old row of an UPDATE there; we do not).

create function realtime.capture_change() returns trigger
language plpgsql security definer
set search_path = pg_catalog
as $$
declare
  identity "char";
  rls boolean;
  row_now jsonb := case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end;
  old_row jsonb;
  key jsonb := '{}'::jsonb;
  column_name text;
  message jsonb;
  message_text text;
begin
  select c.relreplident, c.relrowsecurity into identity, rls from pg_class c where c.oid = tg_relid;
  foreach column_name in array tg_argv loop
    key := key || jsonb_build_object(column_name, row_now -> column_name);
  end loop;
  if tg_op <> 'INSERT' then
    old_row := case
      when identity = 'f' and not rls then to_jsonb(old)
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
revoke all on function realtime.capture_change() from public;

-- Lets clients subscribe to the table's changes (idempotent). The table needs a primary key:
-- it is how each subscriber's right to see the row is checked.
create function realtime.enable_changes(target regclass) returns void
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
  execute format('drop trigger if exists realtime_changes on %s', target);
  execute format(
    'create trigger realtime_changes after insert or update or delete on %s '
    'for each row execute function realtime.capture_change(%s)',
    target,
    (select string_agg(quote_literal(c), ', ') from unnest(key_columns) c));
end
$$;

create function realtime.disable_changes(target regclass) returns void
language plpgsql
set search_path = pg_catalog
as $$
begin
  execute format('drop trigger if exists realtime_changes on %s', target);
end
$$;
revoke all on function realtime.enable_changes(regclass) from public;
revoke all on function realtime.disable_changes(regclass) from public;

-- The tables whose changes are published, and their primary keys, for the server.
create view realtime.published_tables as
  select n.nspname::text as schema_name, c.relname::text as table_name
    from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
   where t.tgname = 'realtime_changes' and not t.tgisinternal;
revoke all on realtime.published_tables from public;
