/*
 * Reading sessions in the in-app readers (issue 12, decision 0163): where the learner is in a
 * lesson's file and how long they actively read it, kept in `lesson_progress`.
 *
 * Time on task is counted in the browser (visible page, focused tab, recent input) and sent as
 * small increments through `record_reading`, which adds them atomically, so two devices reading
 * at once both count. The database refuses what no real reading could produce, on every path
 * by a signed-in user that writes the column (the lesson page still upserts totals); the
 * service role (seed, imports, support) is not limited:
 *  - one increment through `record_reading` is 0–120 seconds;
 *  - on any write by a signed-in user, the time may grow by at most the wall-clock time since
 *    the row was last written, plus 60 seconds of slack for a batch sent late;
 *  - the time never goes back: a stale tab's smaller total leaves the larger one in place.
 * Positions from different surfaces (`scroll` from the lesson page, `page` from the PDF reader,
 * `cfi` from the ePub reader) are merged, so one does not erase another.
 */

-- updated_at tells the rule above when the row was last written.
create function learning.guard_reading_progress() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  trusted boolean := auth.role() is null or auth.role() = 'service_role';
  allowed int;
begin
  if tg_op = 'UPDATE' then
    if not trusted then
      if new.time_spent_seconds < old.time_spent_seconds then
        new.time_spent_seconds := old.time_spent_seconds;
      end if;
      allowed := floor(extract(epoch from (now() - old.updated_at)))::int + 60;
      if new.time_spent_seconds - old.time_spent_seconds > allowed then
        raise exception 'Reading time can grow by at most % seconds now (the time since it was last saved, plus a minute); % seconds were sent.',
          allowed, new.time_spent_seconds - old.time_spent_seconds
          using errcode = '22023';
      end if;
    end if;
    if jsonb_typeof(old.position) = 'object' and jsonb_typeof(new.position) = 'object' then
      new.position := old.position || new.position;
    end if;
    new.updated_at := now();
  -- An upsert of a row that exists passes here first; its update is checked above.
  elsif not trusted and new.time_spent_seconds > 120
        and not exists (select 1 from public.lesson_progress p
                         where p.user_id = new.user_id and p.lesson_id = new.lesson_id) then
    raise exception 'At most 120 seconds of reading time can be recorded at once; % were sent.',
      new.time_spent_seconds
      using errcode = '22023';
  end if;
  return new;
end
$$;

create trigger guard_reading_progress before insert or update on public.lesson_progress
  for each row execute function learning.guard_reading_progress();

/*
 * Adds active reading seconds to the caller's progress in a lesson and, when given, stores the
 * reader's position. Runs as the caller: lesson_progress's policies decide who may write.
 */
create function public.record_reading(lesson_id uuid, seconds int default 0, reading_position jsonb default null)
returns table (total_seconds int, saved_position jsonb)
language plpgsql
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  course uuid;
begin
  if uid is null then
    raise exception 'Sign in to record your reading.' using errcode = '42501';
  end if;
  if seconds is null or seconds < 0 or seconds > 120 then
    raise exception 'A reading-time increment must be between 0 and 120 seconds; % was sent.',
      coalesce(seconds::text, 'nothing')
      using errcode = '22023';
  end if;
  if record_reading.reading_position is not null
     and (jsonb_typeof(record_reading.reading_position) <> 'object' or length(record_reading.reading_position::text) > 2000) then
    raise exception 'A reading position must be a JSON object of at most 2,000 characters.'
      using errcode = '22023';
  end if;
  select l.course_id into course from public.lessons l where l.id = record_reading.lesson_id;
  if course is null or not learning.enrolled(uid, course) then
    raise exception 'Only a learner enrolled in this lesson''s course can record reading in it.'
      using errcode = '42501';
  end if;

  return query
  insert into public.lesson_progress as p (lesson_id, course_id, time_spent_seconds, position)
  values (record_reading.lesson_id, course, seconds, record_reading.reading_position)
  on conflict on constraint lesson_progress_pkey do update
    set time_spent_seconds = p.time_spent_seconds + excluded.time_spent_seconds,
        position = coalesce(excluded.position, p.position)
  returning p.time_spent_seconds, p.position;
end
$$;
revoke all on function public.record_reading(uuid, int, jsonb) from public;
grant execute on function public.record_reading(uuid, int, jsonb) to authenticated;
