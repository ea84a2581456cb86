-- Highlights in the PDF and ePub readers (issue 12, decision 0150): a learner's own marks on a
-- lesson's file, each of which can become a note or a flashcard (notes.highlight_id and
-- flashcards.highlight_id reference this table). Private to the learner: whoever teaches the
-- course does not see them.

-- Where a highlight sits. PDF: the page (1-based) and the character offsets of the selection
-- in that page's text as the reader's text layer lays it out. ePub: the selection's CFI and
-- the spine position (1-based) of its chapter.
create or replace function learning.valid_locator(value jsonb) returns boolean
language sql immutable
set search_path = ''
as $$
  select jsonb_typeof(value) = 'object'
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
       else false
     end
$$;
revoke all on function learning.valid_locator(jsonb) from public;
grant execute on function learning.valid_locator(jsonb) to anon, authenticated, service_role;

create table public.highlights (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade default auth.uid(),
  course_id uuid not null,
  lesson_id uuid not null,
  locator jsonb not null constraint highlights_locator_check check (learning.valid_locator(locator)),
  -- The selected text as the learner saw it.
  text text not null constraint highlights_text_check check (length(trim(text)) between 1 and 5000),
  colour text not null default 'yellow'
    constraint highlights_colour_check check (colour in ('yellow', 'green', 'blue', 'pink')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (lesson_id, course_id) references public.lessons (id, course_id) on delete cascade
);
-- A reader loads one learner's highlights in one lesson.
create index highlights_user_lesson_idx on public.highlights (user_id, lesson_id, created_at);
create index highlights_lesson_idx on public.highlights (lesson_id);

create trigger touch_updated_at before update on public.highlights
  for each row execute function learning.touch_updated_at();
create trigger keep_columns before update on public.highlights
  for each row execute function learning.keep_columns('user_id', 'course_id', 'lesson_id');

alter table public.highlights enable row level security;

-- Own rows only, and only while the learner may read the lesson (enrolled, or teaching it);
-- a deactivated member keeps nothing of the organization's courses.
create policy highlights_read on public.highlights for select to authenticated
  using (
    user_id = (select auth.uid())
    and course_id not in (select learning.courses_barred((select auth.uid())))
  );
create policy highlights_insert on public.highlights for insert to authenticated
  with check (
    user_id = auth.uid()
    and (learning.enrolled(auth.uid(), course_id) or learning.teaches(auth.uid(), course_id))
  );
create policy highlights_update on public.highlights for update to authenticated
  using (
    user_id = auth.uid()
    and (learning.enrolled(auth.uid(), course_id) or learning.teaches(auth.uid(), course_id))
  )
  with check (user_id = auth.uid());
create policy highlights_delete on public.highlights for delete to authenticated
  using (
    user_id = auth.uid()
    and course_id not in (select learning.courses_barred((select auth.uid())))
  );

grant select, delete on public.highlights to authenticated;
grant insert (id, course_id, lesson_id, locator, text, colour) on public.highlights to authenticated;
-- Only the colour changes; the place and the text are the highlight.
grant update (colour) on public.highlights to authenticated;
grant all on public.highlights to service_role;
