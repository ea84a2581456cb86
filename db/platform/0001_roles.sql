-- The three request roles Supabase uses. Roles are cluster-wide on PostgreSQL, so a second
-- database on the same server finds them already there.
do $$
declare
  request_role text;
begin
  foreach request_role in array array['anon', 'authenticated', 'service_role'] loop
    if not exists (select 1 from pg_roles where rolname = request_role) then
      begin
        execute format(
          'create role %I nologin noinherit%s',
          request_role,
          case when request_role = 'service_role' then ' bypassrls' else '' end
        );
      exception
        -- Two databases of one server migrating at once race to create the same role.
        when duplicate_object or unique_violation then null;
      end;
    end if;
  end loop;
  -- The connecting user must be able to switch into each request role.
  execute format('grant anon, authenticated, service_role to %I', current_user);
end
$$;

-- Supabase's default grants: table access is granted broadly and row-level security decides.
grant usage on schema public to anon, authenticated, service_role;
grant all on all tables in schema public to anon, authenticated, service_role;
grant all on all sequences in schema public to anon, authenticated, service_role;
grant all on all functions in schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;

-- Internal bookkeeping (migrations, keys, counters) is never reachable through the API.
revoke all on schema platform from public;
