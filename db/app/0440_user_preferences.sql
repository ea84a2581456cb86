-- A learner's settings (issue 12, decision 0170): accessibility preferences the whole app
-- applies, in-app reminders, language, time zone (the streak's day) and the leaderboard
-- opt-in. One row per user, written by its user only; nobody else reads it (the leaderboard
-- reads the opt-in through its own definer function, decision 0171).

create table public.user_preferences (
  user_id uuid primary key references auth.users (id) on delete cascade default auth.uid(),
  -- Root font scale: default 100%, large 112.5%, larger 125%, largest 150%.
  text_size text not null default 'default'
    check (text_size in ('default', 'large', 'larger', 'largest')),
  line_spacing text not null default 'default'
    check (line_spacing in ('default', 'relaxed', 'loose')),
  font text not null default 'default' check (font in ('default', 'dyslexic')),
  -- On: no animations or transitions whatever the system says; off: the system's setting.
  reduced_motion boolean not null default false,
  high_contrast boolean not null default false,
  reading_ruler boolean not null default false,
  -- English is the only translation today; the column holds what the learner chose.
  language text not null default 'en' check (language ~ '^[a-z]{2}(-[A-Z]{2})?$'),
  -- An IANA name; checked against pg_timezone_names by the trigger below.
  time_zone text not null default 'UTC' check (length(time_zone) between 1 and 64),
  -- In-app reminders on the dashboard's progress card (the product sends no other mail than
  -- account security mail, which cannot be turned off).
  remind_streak boolean not null default true,
  remind_goals boolean not null default true,
  leaderboard_opt_in boolean not null default false,
  updated_at timestamptz not null default now()
);

create function learning.check_time_zone() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not exists (select 1 from pg_catalog.pg_timezone_names where name = new.time_zone) then
    raise exception 'Unknown time zone "%"', new.time_zone
      using errcode = '22023', hint = 'Use an IANA name such as Europe/London.';
  end if;
  return new;
end
$$;

create trigger check_time_zone before insert or update of time_zone on public.user_preferences
  for each row execute function learning.check_time_zone();
create trigger touch_updated_at before update on public.user_preferences
  for each row execute function learning.touch_updated_at();
create trigger keep_columns before update on public.user_preferences
  for each row execute function learning.keep_columns('user_id');

alter table public.user_preferences enable row level security;
create policy user_preferences_read on public.user_preferences for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_preferences_insert on public.user_preferences for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy user_preferences_update on public.user_preferences for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

revoke all on public.user_preferences from anon, authenticated;
grant select, insert, update on public.user_preferences to authenticated;
grant all on public.user_preferences to service_role;

-- The server's statements (streaks, leaderboards) need a learner's time zone whether or not
-- they saved preferences.
create function learning.time_zone_of(uid uuid) returns text
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select p.time_zone from public.user_preferences p where p.user_id = uid), 'UTC')
$$;
revoke all on function learning.time_zone_of(uuid) from public;

-- Avatars: a public bucket (profile pictures are shown to course mates), images only, at most
-- 1 MB (the settings screen crops and resizes to 512 px before uploading). Each user writes
-- only under their own folder `<user id>/`.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 1048576, array['image/png', 'image/jpeg', 'image/webp'])
on conflict (id) do nothing;

create policy avatars_read_own on storage.objects for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy avatars_insert_own on storage.objects for insert to authenticated
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy avatars_update_own on storage.objects for update to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy avatars_delete_own on storage.objects for delete to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
