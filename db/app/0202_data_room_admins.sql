-- Admin users (public.has_role(uid, 'admin')) manage the data room like the service role:
-- they read it without a PIN grant, publish new versions and read the access events.
create or replace function data_room.is_admin() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select auth.role() = 'service_role'
    or (auth.uid() is not null and public.has_role(auth.uid(), 'admin'))
$$;
revoke all on function data_room.is_admin() from public;
grant execute on function data_room.is_admin() to anon, authenticated, service_role;

create or replace function data_room.has_grant() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select data_room.is_admin()
    or (
      coalesce(auth.jwt() ->> 'data_room', '') = 'true'
      and exists (
        select 1 from data_room.grants g
        where g.id::text = auth.jwt() ->> 'jti'
          and g.revoked_at is null
          and g.expires_at > now()
      )
    )
$$;
