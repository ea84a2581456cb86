-- Profiles and application roles. A profile row is created with every account; app roles
-- are rows checked by public.has_role inside policies (spec section 6).

create table if not exists public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  display_name text check (display_name is null or char_length(display_name) <= 80),
  full_name text check (full_name is null or char_length(full_name) <= 120),
  avatar_url text check (avatar_url is null or char_length(avatar_url) <= 2048),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table if not exists public.user_roles (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (
    role in ('admin', 'org_admin', 'instructor', 'student', 'compliance_officer')
  ),
  organization_id uuid,
  created_at timestamptz not null default now()
);
create unique index if not exists user_roles_unique
  on public.user_roles (user_id, role, coalesce(organization_id, '00000000-0000-0000-0000-000000000000'::uuid));

-- Security definer so policies on user_roles itself can call it without recursing into RLS.
create or replace function public.has_role(uid uuid, role_name text) returns boolean
language sql stable security definer set search_path = public
as $$
  select exists (select 1 from public.user_roles r where r.user_id = uid and r.role = role_name)
$$;
revoke all on function public.has_role(uuid, text) from public;
grant execute on function public.has_role(uuid, text) to anon, authenticated, service_role;

-- Every new account gets a profile (named from sign-up metadata) and the student role.
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = public
as $$
begin
  insert into public.profiles (id, display_name, full_name, avatar_url)
  values (
    new.id,
    left(coalesce(new.raw_user_meta_data ->> 'display_name', new.raw_user_meta_data ->> 'name',
      split_part(coalesce(new.email, ''), '@', 1)), 80),
    left(new.raw_user_meta_data ->> 'full_name', 120),
    left(new.raw_user_meta_data ->> 'avatar_url', 2048)
  )
  on conflict (id) do nothing;
  insert into public.user_roles (user_id, role) values (new.id, 'student')
  on conflict do nothing;
  return new;
end
$$;

drop trigger if exists on_auth_user_created on auth.users;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

alter table public.profiles enable row level security;
alter table public.user_roles enable row level security;

drop policy if exists profiles_select_own on public.profiles;
create policy profiles_select_own on public.profiles for select to authenticated
  using (id = auth.uid() or public.has_role(auth.uid(), 'admin')
    or public.has_role(auth.uid(), 'org_admin'));
drop policy if exists profiles_update_own on public.profiles;
create policy profiles_update_own on public.profiles for update to authenticated
  using (id = auth.uid()) with check (id = auth.uid());

drop policy if exists user_roles_select on public.user_roles;
create policy user_roles_select on public.user_roles for select to authenticated
  using (user_id = auth.uid() or public.has_role(auth.uid(), 'admin')
    or public.has_role(auth.uid(), 'org_admin'));
-- Only admins assign roles; nobody can grant themselves one.
drop policy if exists user_roles_admin_write on public.user_roles;
create policy user_roles_admin_write on public.user_roles for all to authenticated
  using (public.has_role(auth.uid(), 'admin'))
  with check (public.has_role(auth.uid(), 'admin'));

grant select, update on public.profiles to authenticated;
grant select, insert, update, delete on public.user_roles to authenticated;
grant all on public.profiles, public.user_roles to service_role;
