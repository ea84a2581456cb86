-- Library search finds matches among the caller's courses first (issue 12, decision 0169).
--
-- 0435's library_matches asked the GIN indexes for every match in every course and only then
-- kept the caller's courses: a learner of 11 courses searching a phrase had the phrase checked
-- (which reads each candidate's whole vector) in the pages of all 1,000 books, about 350 ms,
-- to keep 50. The planner could not do better: the course set came from set-returning
-- functions it estimates at 1,000 rows each, whatever the caller reads.
--
-- The course set is now read first, into an array, and the matches are asked for with it as a
-- parameter value the planner sees (EXECUTE plans with the values): for a few courses it
-- combines the course index with the text index, for an organization's 1,000 it uses the
-- text index alone, as before. What is found is unchanged: the same course sets (taught or
-- enrolled), the same ranks; search_library still joins the hits under the caller's RLS.

create or replace function learning.library_matches(q tsquery, course uuid)
returns table (lid uuid, oid uuid, pos int, r real)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  readable uuid[];
begin
  select coalesce(array_agg(distinct s.id), '{}') into readable
    from (
      select learning.courses_taught((select auth.uid())) as id
      union all
      select learning.courses_enrolled((select auth.uid()))
    ) s
   where course is null or s.id = course;
  if cardinality(readable) = 0 then
    return;
  end if;
  -- The page matches are ranked in a subquery of their own (offset 0 keeps it one): joined
  -- with documents and lessons directly, the planner walked every document's pages and read
  -- each vector before looking at the course.
  return query execute $query$
    select ls.lesson_id, null::uuid, null::int, ts_rank_cd(ls.search, $1)
      from public.lesson_search ls
     where ls.search @@ $1 and ls.course_id = any ($2)
    union all
    select l.id, p.object_id, p.position, p.r
      from (select p.object_id, p.position, ts_rank_cd(p.search, $1) as r
              from public.course_document_pages p
             where p.search @@ $1 and p.course_id = any ($2)
            offset 0) p
      join public.course_documents d on d.object_id = p.object_id
      join public.lessons l on l.file_path = d.file_path and l.course_id = d.course_id
  $query$ using q, readable;
end
$$;
