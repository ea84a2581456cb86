-- Indexes and planner costs for issue 11's scale (decision 0102; bench/learning-bench.ts).

-- An instructor's progress table (course_progress, 0341) reads one course's progress rows:
-- 5,000 for a 500-learner course, lying on about 5,000 different heap pages, since learners
-- write them over months. With the columns it sums in the index it reads them from about 70
-- index pages instead (an index-only scan; autovacuum keeps the visibility map current).
-- The read policy's `course_id in (taught courses)` uses the same index. It replaces 0321's
-- (course_id, user_id), which it covers.
create index lesson_progress_course_cover_idx on public.lesson_progress (course_id, user_id)
  include (status, time_spent_seconds, updated_at);
drop index public.lesson_progress_course_idx;

-- PostgreSQL's default random_page_cost (4) prices a page read by index as four sequential
-- ones, as on a spinning disk; with the working set in memory or on SSD it is nearly the same
-- (1.1, Supabase's own default). At 4, course_progress joined its 500 learners to auth.users
-- and profiles by reading both 100,000-row tables whole (hash joins); at 1.1 it looks the 500
-- up by key, ten times faster in EXPLAIN ANALYZE. Sessions opened after the migration get it.
do $$
begin
  execute format('alter database %I set random_page_cost = 1.1', current_database());
end
$$;
