-- A person's export read in pages (decision 0429): one registry entry's rows, at most
-- page_size of them, after the key of the last row of the previous page, in the order of the
-- table's primary key (its physical position when it has none). The export job zips each page
-- and writes it to storage before it reads the next, so its memory does not grow with the
-- person's data; the whole export (privacy.export_personal_data, 0757) stays for the bench.
-- Secrets are left out as in 0757. The platform's own statement; no API role may call it.
create or replace function privacy.export_personal_data_page(
  person uuid, registry_table text, registry_column text, after jsonb, page_size int)
returns table (rows jsonb, last_key jsonb)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  entry privacy.personal_data;
  email text := (select u.email from auth.users u where u.id = person);
  left_out text[];
  key_columns text[];
  key_list text;
  key_after text;
  key_object text;
begin
  select * into entry from privacy.personal_data p
   where p.export and p.table_name = registry_table and p.subject_column = registry_column;
  if not found then
    raise exception 'No exported registry entry %.%', registry_table, registry_column
      using errcode = '22023';
  end if;
  if (entry.match = 'email' and email is null) or page_size < 1 then
    rows := '[]'::jsonb;
    last_key := null;
    return next;
    return;
  end if;
  select coalesce(array_agg(a.attname::text), '{}') into left_out
    from pg_attribute a
   where a.attrelid = entry.table_name::regclass and a.attnum > 0 and not a.attisdropped
     and (a.attname = any ('{encrypted_password,confirmation_token,recovery_token,email_change_token_new,email_change_token_current,phone_change_token,reauthentication_token}'::text[])
          or a.attname ~* '(password|secret|token|otp|recovery_code|(^|_)hash$)');
  select array_agg(a.attname::text order by k.ord) into key_columns
    from pg_index i
    cross join lateral unnest(i.indkey) with ordinality k(attnum, ord)
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
   where i.indrelid = entry.table_name::regclass and i.indisprimary;
  if key_columns is null then
    key_list := 't.ctid';
    key_after := '($3 ->> ''ctid'')::tid';
    key_object := 'jsonb_build_object(''ctid'', t.ctid::text)';
  else
    select string_agg(format('t.%I', c), ', '),
           format('select %s from jsonb_populate_record(null::%s, $3) r',
                  string_agg(format('r.%I', c), ', '), entry.table_name::regclass),
           format('jsonb_build_object(%s)', string_agg(format('%L, t.%I', c, c), ', '))
      into key_list, key_after, key_object
      from unnest(key_columns) c;
  end if;
  execute format(
    'select coalesce(jsonb_agg(to_jsonb(t) - %L::text[] order by %s), ''[]''::jsonb),
            (array_agg(%s order by %s))[1]
       from (select * from %s t
              where %s and ($3 is null or (%s) > (%s))
              order by %s limit $4) t',
    left_out, key_list, key_object,
    -- descending on every key column: the page's last row
    (select string_agg(k || ' desc', ', ') from unnest(string_to_array(key_list, ', ')) k),
    entry.table_name::regclass, privacy.subject_condition(entry), key_list, key_after, key_list)
    into rows, last_key using person, email, after, page_size;
  return next;
end
$$;
revoke all on function privacy.export_personal_data_page(uuid, text, text, jsonb, int) from public, anon, authenticated, service_role;
