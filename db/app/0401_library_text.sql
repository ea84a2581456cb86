-- The library's text (issue 12, decision 0151): the text extracted from each PDF and ePub in
-- the course-files bucket, one row per PDF page or ePub spine item, and a search vector per
-- lesson, both indexed for PostgreSQL full-text search. Extraction runs on the server
-- (src/server/library/) when the course editor uploads a file; clients only read, through RLS
-- (the lesson sets of 0326: whoever teaches the course or is enrolled in it). The study
-- coach's General Knowledge mode reads course_document_pages as the service role.

create table public.course_documents (
  -- The stored object; removing the file removes its text.
  object_id uuid primary key references storage.objects (id) on delete cascade,
  file_path text not null unique check (length(file_path) between 1 and 1024),
  course_id uuid not null references public.courses (id) on delete cascade,
  kind text not null check (kind in ('pdf', 'epub')),
  title text not null default '' check (length(title) <= 500),
  -- PDF pages, or ePub spine items.
  section_count int not null check (section_count between 1 and 5000),
  -- [{ title, position }]: the PDF's outline (top level) or the ePub's table of contents.
  outline jsonb not null default '[]'::jsonb
    check (jsonb_typeof(outline) = 'array' and length(outline::text) <= 200000),
  text_chars int not null check (text_chars >= 0),
  extracted_at timestamptz not null default now()
);
create index course_documents_course_idx on public.course_documents (course_id);

create table public.course_document_pages (
  object_id uuid not null references public.course_documents (object_id) on delete cascade,
  course_id uuid not null,
  -- The PDF page (1-based) or the ePub spine position (1-based).
  position int not null check (position >= 1),
  -- The ePub chapter's title (from its table of contents or first heading); '' for PDF pages.
  label text not null default '' check (length(label) <= 500),
  -- The ePub spine item's path inside the book, which the reader opens.
  href text check (href is null or length(href) <= 1024),
  body text not null check (length(body) <= 2000000),
  -- PostgreSQL's tsvector holds at most 1 MB: the first 300,000 characters are indexed.
  search tsvector generated always as (to_tsvector('english', left(body, 300000))) stored,
  primary key (object_id, position)
);
create index course_document_pages_search_idx on public.course_document_pages using gin (search);
create index course_document_pages_course_idx on public.course_document_pages (course_id);

-- Each lesson's title (weight A) and Markdown text (weight B), kept by a trigger, so the
-- lessons table's rows (which the screens select whole) carry no vector.
create table public.lesson_search (
  lesson_id uuid primary key,
  course_id uuid not null,
  search tsvector not null,
  foreign key (lesson_id, course_id) references public.lessons (id, course_id) on delete cascade
);
create index lesson_search_idx on public.lesson_search using gin (search);
create index lesson_search_course_idx on public.lesson_search (course_id);

create or replace function learning.lesson_vector(title text, body text) returns tsvector
language sql immutable
set search_path = ''
as $$
  select setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A')
      || setweight(to_tsvector('english'::regconfig, left(coalesce(body, ''), 300000)), 'B')
$$;

create or replace function learning.index_lesson() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.title is not distinct from old.title
     and new.body is not distinct from old.body then
    return null;
  end if;
  insert into public.lesson_search (lesson_id, course_id, search)
  values (new.id, new.course_id, learning.lesson_vector(new.title, new.body))
  on conflict (lesson_id) do update set search = excluded.search;
  return null;
end
$$;
create trigger index_lesson after insert or update on public.lessons
  for each row execute function learning.index_lesson();

insert into public.lesson_search (lesson_id, course_id, search)
select id, course_id, learning.lesson_vector(title, body) from public.lessons
on conflict (lesson_id) do nothing;

alter table public.course_documents enable row level security;
alter table public.course_document_pages enable row level security;
alter table public.lesson_search enable row level security;

create policy course_documents_read on public.course_documents for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );
create policy course_document_pages_read on public.course_document_pages for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );
create policy lesson_search_read on public.lesson_search for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );

grant select on public.course_documents, public.course_document_pages, public.lesson_search
  to authenticated;
grant all on public.course_documents, public.course_document_pages, public.lesson_search
  to service_role;
revoke all on function learning.lesson_vector(text, text) from public;
revoke all on function learning.index_lesson() from public;
grant execute on function learning.lesson_vector(text, text) to authenticated, service_role;

-- The library (decision 0151): every lesson the caller may read (RLS decides), filtered by
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
      select ls.lesson_id as lid, null::uuid as oid, null::int as pos,
             ts_rank_cd(ls.search, q) as r
        from public.lesson_search ls
       where ls.search @@ q
         and (course is null or ls.course_id = course)
      union all
      select l.id, p.object_id, p.position, ts_rank_cd(p.search, q)
        from public.course_document_pages p
        join public.course_documents d on d.object_id = p.object_id
        join public.lessons l on l.file_path = d.file_path and l.course_id = d.course_id
       where p.search @@ q
         and (course is null or p.course_id = course)
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
