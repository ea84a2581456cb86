-- A sign-in is activity: when the auth service stamps auth.users.last_sign_in_at, the user's
-- last activity moves with it (same once-a-minute rule as platform.touch_user_activity).
-- Transition tables rule out an `update of <column>` trigger, so every update of auth.users
-- runs this; the conflict rule writes only when the sign-in is newer than the last activity.
do $$
begin
  if not exists (
    select 1 from information_schema.columns
     where table_schema = 'auth' and table_name = 'users' and column_name = 'last_sign_in_at'
  ) then
    raise notice 'auth.users.last_sign_in_at is missing: sign-ins are not recorded as activity';
    return;
  end if;

  create or replace function platform.record_sign_in_activity() returns trigger
  language plpgsql security definer set search_path = pg_catalog, public, platform
  as $fn$
  begin
    insert into public.user_activity (user_id, last_active_at)
    select n.id, least(n.last_sign_in_at, now())
      from new_rows n
     where n.last_sign_in_at is not null
    on conflict (user_id) do update set last_active_at = excluded.last_active_at
    where user_activity.last_active_at < excluded.last_active_at - interval '1 minute';
    return null;
  end
  $fn$;

  create trigger record_sign_in_activity_insert after insert on auth.users
    referencing new table as new_rows
    for each statement execute function platform.record_sign_in_activity();
  create trigger record_sign_in_activity_update after update on auth.users
    referencing new table as new_rows
    for each statement execute function platform.record_sign_in_activity();
end
$$;
