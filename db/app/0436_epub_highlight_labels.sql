-- ePub highlights keep the title of the chapter they were made in (issue 12, decision 0167):
-- the reader's highlights panel and the note made with one name the place by that title,
-- which the CFI alone does not give without opening the book. The label is optional (a
-- chapter without a title in the table of contents has none) and, when present, a short
-- string.
--
-- It also closes a gap in 0400's version: a missing key made a test NULL, and a CHECK passes
-- on NULL, so `{"kind": "epub", "chapter": 2}` (no CFI) or a PDF locator without its page was
-- stored. Every test now has to be true.
create or replace function learning.valid_locator(value jsonb) returns boolean
language sql immutable
set search_path = ''
as $$
  select coalesce(
     jsonb_typeof(value) = 'object'
     and length(value::text) <= 2000
     and case value ->> 'kind'
       when 'pdf' then
         jsonb_typeof(value -> 'page') = 'number'
         and jsonb_typeof(value -> 'start') = 'number'
         and jsonb_typeof(value -> 'end') = 'number'
         and (value ->> 'page')::numeric >= 1
         and (value ->> 'start')::numeric >= 0
         and (value ->> 'end')::numeric > (value ->> 'start')::numeric
       when 'epub' then
         jsonb_typeof(value -> 'cfi') = 'string'
         and value ->> 'cfi' like 'epubcfi(%)'
         and jsonb_typeof(value -> 'chapter') = 'number'
         and (value ->> 'chapter')::numeric >= 1
         and (
           not value ? 'label'
           or (jsonb_typeof(value -> 'label') = 'string' and length(value ->> 'label') <= 200)
         )
       else false
     end,
     false)
$$;
