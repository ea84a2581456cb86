-- learning.progress_status (0341) with the same body, without its `set search_path`: a
-- function with a SET clause is never inlined, so course_progress called it once per learner
-- after sorting, each call saving and restoring the setting, about 0.08 ms a row: 40 ms of a
-- 500-learner export (decision 0102). Inlined, it is an expression of the query. It reads no
-- table and names only built-in functions and operators, which resolve from pg_catalog
-- whatever the caller's search_path.
create or replace function learning.progress_status(
  lessons_completed int, lessons_total int, enrollment_status text, started boolean,
  average_score numeric, last_activity timestamptz
) returns text
language sql stable
as $$
  select case
    when enrollment_status = 'completed'
      or (lessons_total > 0 and lessons_completed >= lessons_total) then 'completed'
    when not started then 'not_started'
    when average_score < 60 or last_activity < now() - interval '14 days' then 'struggling'
    else 'in_progress'
  end
$$;
