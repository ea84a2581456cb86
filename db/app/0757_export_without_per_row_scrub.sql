-- A person's export (decision 0421) scrubbed every row through audit.scrub, a SQL function
-- that walks the row's keys with a regular expression; a heavy learner's 30,000 records took
-- most of the export's time in it (bench/privacy-export-bench.ts, decision 0425). The columns
-- to leave out are the same for every row of a table, so they are found once per table from
-- the catalogue and removed with jsonb's minus operator.
create or replace function privacy.export_personal_data(person uuid)
returns table (table_name text, subject_column text, description text, rows jsonb)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  entry privacy.personal_data;
  email text := (select u.email from auth.users u where u.id = person);
  found_rows jsonb;
  left_out text[];
begin
  for entry in
    select * from privacy.personal_data p where p.export order by p.table_name, p.subject_column
  loop
    if entry.match = 'email' and email is null then
      found_rows := '[]'::jsonb;
    else
      -- audit.scrub's rule: these auth.users columns, and any name that looks like a secret.
      select coalesce(array_agg(a.attname::text), '{}') into left_out
        from pg_attribute a
       where a.attrelid = entry.table_name::regclass and a.attnum > 0 and not a.attisdropped
         and (a.attname = any ('{encrypted_password,confirmation_token,recovery_token,email_change_token_new,email_change_token_current,phone_change_token,reauthentication_token}'::text[])
              or a.attname ~* '(password|secret|token|otp|recovery_code|(^|_)hash$)');
      execute format(
        'select coalesce(jsonb_agg(to_jsonb(t) - %L::text[] order by t::text), ''[]''::jsonb) from %s t where %s',
        left_out, entry.table_name::regclass, privacy.subject_condition(entry))
        into found_rows using person, email;
    end if;
    table_name := entry.table_name;
    subject_column := entry.subject_column;
    description := entry.description;
    rows := found_rows;
    return next;
  end loop;
end
$$;
revoke all on function privacy.export_personal_data(uuid) from public;
