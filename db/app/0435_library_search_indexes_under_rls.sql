-- Library search that uses its full-text indexes (decision 0166). `@@` (ts_match_vq) is not
-- leakproof, and PostgreSQL never evaluates a condition that is not leakproof, an index
-- condition included, before a table's row-level security policies: under RLS, search_library
-- read every readable lesson's and page's vector instead of asking the GIN indexes (about a
-- second for a word in no text as an organization admin of 1,000 courses). The lookups now
-- run as the owner in learning.library_matches, restricted explicitly to the course sets the
-- three tables' policies name (taught or enrolled); what is returned is still joined with
-- lessons, courses and modules under the caller's RLS, so RLS still decides what is shown.

create or replace function learning.library_matches(q tsquery, course uuid)
returns table (lid uuid, oid uuid, pos int, r real)
language sql stable security definer
set search_path = ''
as $$
  with readable as (
    select learning.courses_taught((select auth.uid())) as id
    union
    select learning.courses_enrolled((select auth.uid()))
  )
  select ls.lesson_id, null::uuid, null::int, ts_rank_cd(ls.search, q)
    from public.lesson_search ls
   where ls.search @@ q
     and ls.course_id in (select id from readable)
     and (course is null or ls.course_id = course)
  union all
  select l.id, p.object_id, p.position, ts_rank_cd(p.search, q)
    from public.course_document_pages p
    join public.course_documents d on d.object_id = p.object_id
    join public.lessons l on l.file_path = d.file_path and l.course_id = d.course_id
   where p.search @@ q
     and p.course_id in (select id from readable)
     and (course is null or p.course_id = course)
$$;
revoke all on function learning.library_matches(tsquery, uuid) from public;
grant execute on function learning.library_matches(tsquery, uuid) to authenticated;

-- A file lesson is found by its file (the join above, and the reader's hit lookups).
create index lessons_file_path_idx on public.lessons (file_path, course_id)
  where file_path is not null;

-- The library (decisions 0151, 0166): every lesson the caller may read (RLS decides), filtered by
-- course and kind, or, with a query, the lessons and file pages that match it, best first,
-- each with a snippet whose matches sit between U+E000 and U+E001 (characters no text
-- carries, so the browser splits on them and renders plain text, never markup).
create or replace function public.search_library(
  query text default '',
  course uuid default null,
  kinds text[] default null,
  row_limit int default 50,
  row_offset int default 0
) returns table (
  lesson_id uuid,
  course_id uuid,
  course_title text,
  module_title text,
  lesson_title text,
  kind text,
  file_path text,
  "position" int,
  label text,
  snippet text,
  rank real,
  total_count int
)
language plpgsql stable
set search_path = ''
as $$
#variable_conflict use_column
declare
  q tsquery;
begin
  if row_limit is null or row_limit < 1 or row_limit > 100 then
    raise exception 'row_limit must be between 1 and 100' using errcode = '22023';
  end if;
  if row_offset is null or row_offset < 0 or row_offset > 10000 then
    raise exception 'row_offset must be between 0 and 10000' using errcode = '22023';
  end if;
  if length(coalesce(query, '')) > 500 then
    raise exception 'query must be at most 500 characters' using errcode = '22023';
  end if;
  if kinds is not null and not kinds <@ array['markdown', 'pdf', 'epub', 'video'] then
    raise exception 'kinds must be among markdown, pdf, epub, video' using errcode = '22023';
  end if;

  if trim(coalesce(query, '')) = '' then
    return query
      select l.id, l.course_id, c.title, m.title, l.title, l.kind, l.file_path,
             null::int, ''::text, ''::text, 0::real, (count(*) over ())::int
        from public.lessons l
        join public.courses c on c.id = l.course_id
        join public.modules m on m.id = l.module_id
       where (course is null or l.course_id = course)
         and (kinds is null or l.kind = any (kinds))
       order by c.title, c.id, m.position, l.position
       limit row_limit offset row_offset;
    return;
  end if;

  q := websearch_to_tsquery('english', query);
  if numnode(q) = 0 then
    -- Only stop words ("the", "and"): nothing can match.
    return;
  end if;

  return query
    with hits as (
      select m.lid, m.oid, m.pos, m.r from learning.library_matches(q, course) m
    ),
    ranked as (
      select h.*, (count(*) over ())::int as total
        from hits h
        join public.lessons l on l.id = h.lid
       where kinds is null or l.kind = any (kinds)
       order by h.r desc, h.lid, h.pos nulls first
       limit row_limit offset row_offset
    )
    select l.id, l.course_id, c.title, m.title, l.title, l.kind, l.file_path, r.pos,
           coalesce(p.label, ''),
           ts_headline('english',
             case when r.oid is null then coalesce(l.body, l.title) else p.body end, q,
             'StartSel=' || chr(57344) || ', StopSel=' || chr(57345)
               || ', MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "'),
           r.r, r.total
      from ranked r
      join public.lessons l on l.id = r.lid
      join public.courses c on c.id = l.course_id
      join public.modules m on m.id = l.module_id
      left join public.course_document_pages p on p.object_id = r.oid and p.position = r.pos
     order by r.r desc, r.lid, r.pos nulls first;
end
$$;
revoke all on function public.search_library(text, uuid, text[], int, int) from public;
grant execute on function public.search_library(text, uuid, text[], int, int) to authenticated;
