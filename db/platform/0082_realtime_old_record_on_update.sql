-- Old records as Supabase Realtime sends them (decision 0302, issue 15): with replica identity
-- FULL an UPDATE carries the whole old row on RLS tables too (it reaches only subscribers who
-- may select the new row), while a DELETE on an RLS table carries only the key, since nobody
-- can be checked against a row that is gone. 0081 sent the key for both on RLS tables.

create or replace function realtime.capture_change() returns trigger
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
