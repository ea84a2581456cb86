-- Maintained counters so the public metrics call never counts whole tables.
--
-- Row counts live in platform.row_counters, striped over 16 slots by backend pid: concurrent
-- writers on different connections update different rows instead of queueing on one hot row.
-- Statement-level triggers with transition tables add one delta per statement, so a bulk
-- insert of a million rows costs one counter update, not a million.

create table if not exists platform.row_counters (
  name text not null,
  slot smallint not null,
  n bigint not null default 0,
  primary key (name, slot)
);

create or replace function platform.bump_counter(p_name text, p_delta bigint) returns void
language sql security definer set search_path = pg_catalog, platform
as $$
  insert into platform.row_counters (name, slot, n)
  select p_name, (pg_backend_pid() % 16)::smallint, p_delta
  where p_delta <> 0
  on conflict (name, slot) do update set n = row_counters.n + excluded.n
$$;

create or replace function platform.count_inserted_rows() returns trigger
language plpgsql security definer set search_path = pg_catalog, platform
as $$
begin
  perform platform.bump_counter(tg_argv[0], (select count(*) from new_rows));
  return null;
end
$$;

create or replace function platform.count_deleted_rows() returns trigger
language plpgsql security definer set search_path = pg_catalog, platform
as $$
begin
  perform platform.bump_counter(tg_argv[0], -(select count(*) from old_rows));
  return null;
end
$$;

create or replace function platform.reset_row_counter() returns trigger
language plpgsql security definer set search_path = pg_catalog, platform
as $$
begin
  delete from platform.row_counters where name = any (tg_argv);
  return null;
end
$$;

-- Attaches the three counting triggers to a table and seeds the counter with its current size.
create or replace function platform.track_row_count(p_table regclass, p_name text) returns void
language plpgsql
as $$
declare
  existing bigint;
begin
  execute format(
    'create trigger %I after insert on %s referencing new table as new_rows
       for each statement execute function platform.count_inserted_rows(%L)',
    'count_rows_insert', p_table, p_name);
  execute format(
    'create trigger %I after delete on %s referencing old table as old_rows
       for each statement execute function platform.count_deleted_rows(%L)',
    'count_rows_delete', p_table, p_name);
  execute format(
    'create trigger %I after truncate on %s
       for each statement execute function platform.reset_row_counter(%L)',
    'count_rows_truncate', p_table, p_name);
  delete from platform.row_counters where name = p_name;
  execute format('select count(*) from %s', p_table) into existing;
  perform platform.bump_counter(p_name, existing);
end
$$;

select platform.track_row_count('auth.users', 'users');
select platform.track_row_count('public.courses', 'courses');
select platform.track_row_count('public.enrollments', 'enrollments');
select platform.track_row_count('public.notes', 'notes');
select platform.track_row_count('public.flashcards', 'flashcards');

-- Completion split of enrolments, kept the same way (not started = total - the other two).
create or replace function platform.count_enrollment_progress() returns trigger
language plpgsql security definer set search_path = pg_catalog, platform
as $$
declare
  completed bigint := 0;
  in_progress bigint := 0;
begin
  if tg_op in ('INSERT', 'UPDATE') then
    select completed + count(*) filter (where progress_percent >= 100),
           in_progress + count(*) filter (where progress_percent between 1 and 99)
      into completed, in_progress
      from new_rows;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    select completed - count(*) filter (where progress_percent >= 100),
           in_progress - count(*) filter (where progress_percent between 1 and 99)
      into completed, in_progress
      from old_rows;
  end if;
  perform platform.bump_counter('enrollments_completed', completed);
  perform platform.bump_counter('enrollments_in_progress', in_progress);
  return null;
end
$$;

create trigger count_progress_insert after insert on public.enrollments
  referencing new table as new_rows
  for each statement execute function platform.count_enrollment_progress();
create trigger count_progress_update after update on public.enrollments
  referencing old table as old_rows new table as new_rows
  for each statement execute function platform.count_enrollment_progress();
create trigger count_progress_delete after delete on public.enrollments
  referencing old table as old_rows
  for each statement execute function platform.count_enrollment_progress();
create trigger count_progress_truncate after truncate on public.enrollments
  for each statement
  execute function platform.reset_row_counter('enrollments_completed', 'enrollments_in_progress');

delete from platform.row_counters where name in ('enrollments_completed', 'enrollments_in_progress');
select platform.bump_counter('enrollments_completed',
  (select count(*) from public.enrollments where progress_percent >= 100));
select platform.bump_counter('enrollments_in_progress',
  (select count(*) from public.enrollments where progress_percent between 1 and 99));

-- Active users: public.user_activity holds each user's last activity; platform.activity_hours
-- holds how many users' last activity falls in each hour. "Active in the last N hours" is then
-- the sum of the whole hours inside the window plus an index range over the one partial hour,
-- exact and independent of the number of users. Hours are binned from the epoch (date_bin), so
-- the session time zone never changes which bucket a timestamp lands in.
create table if not exists platform.activity_hours (
  hour timestamptz primary key,
  n bigint not null default 0
);

create or replace function platform.activity_hour(ts timestamptz) returns timestamptz
language sql immutable parallel safe
as $$ select date_bin('1 hour', ts, timestamptz '2000-01-01 00:00:00+00') $$;

create or replace function platform.count_activity_hours() returns trigger
language plpgsql security definer set search_path = pg_catalog, platform
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update platform.activity_hours h
       set n = h.n - o.users
      from (select platform.activity_hour(last_active_at) as hour, count(*) as users
              from old_rows group by 1) o
     where h.hour = o.hour;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into platform.activity_hours (hour, n)
    select platform.activity_hour(last_active_at), count(*) from new_rows group by 1
    on conflict (hour) do update set n = activity_hours.n + excluded.n;
  end if;
  return null;
end
$$;

create or replace function platform.reset_activity_hours() returns trigger
language plpgsql security definer set search_path = pg_catalog, platform
as $$
begin
  delete from platform.activity_hours;
  return null;
end
$$;

create trigger count_activity_insert after insert on public.user_activity
  referencing new table as new_rows
  for each statement execute function platform.count_activity_hours();
create trigger count_activity_update after update on public.user_activity
  referencing old table as old_rows new table as new_rows
  for each statement execute function platform.count_activity_hours();
create trigger count_activity_delete after delete on public.user_activity
  referencing old table as old_rows
  for each statement execute function platform.count_activity_hours();
create trigger count_activity_truncate after truncate on public.user_activity
  for each statement execute function platform.reset_activity_hours();

delete from platform.activity_hours;
insert into platform.activity_hours (hour, n)
select platform.activity_hour(last_active_at), count(*) from public.user_activity group by 1;
