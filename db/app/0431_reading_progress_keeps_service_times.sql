-- 0430 stamped every update of lesson_progress with now(), the service role's included, so
-- an import or a support correction could no longer set when a learner was last active (the
-- organization figures' seven-day window reads it). Only signed-in users' writes are stamped
-- unconditionally now.
create or replace function learning.guard_reading_progress() returns trigger
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
    -- A signed-in user's write is stamped now (the rule above measures from it); the service
    -- role may set the time itself (imports, support, tests that age activity), and is stamped
    -- now when it leaves the column alone.
    if not trusted or new.updated_at is not distinct from old.updated_at then
      new.updated_at := now();
    end if;
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

