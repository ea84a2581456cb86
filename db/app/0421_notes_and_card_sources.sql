-- Notes and where cards come from (issue 12, decisions 0160 and 0161).
--
-- 0300 made `notes` (title, body, course) with one owner policy. Notes now link to a lesson or
-- a highlight as well as a course, carry tags, are searched with Postgres full-text search,
-- and are refused at 1 MB. Cards remember the note or highlight they were made from.
--
-- Who: a note is its author's alone (not the course's instructors, not the admins); its
-- course must be one the author may read, its highlight the author's own.

-- array_to_string is only stable (element output functions could be); for text it is not.
create or replace function learning.tags_text(tags text[]) returns text
language sql immutable parallel safe
set search_path = ''
as $$ select array_to_string(tags, ' ') $$;

alter table public.notes
  add column lesson_id uuid,
  add column highlight_id uuid references public.highlights (id) on delete set null,
  add column tags text[] not null default '{}',
  add column search tsvector generated always as (
    setweight(to_tsvector('english', coalesce(title, '')), 'A')
      || setweight(to_tsvector('english', learning.tags_text(tags)), 'A')
      || setweight(to_tsvector('english', coalesce(body, '')), 'B')
  ) stored,
  add constraint notes_lesson_fkey foreign key (lesson_id, course_id)
    references public.lessons (id, course_id) on delete set null (lesson_id),
  add constraint notes_lesson_needs_course check (lesson_id is null or course_id is not null),
  add constraint notes_title_check check (length(title) <= 200) not valid,
  -- Below 1 MB (1,048,576 bytes); the screen says so before it gets here. Existing rows are
  -- kept as they are (not valid), every new write is checked.
  add constraint notes_body_size check (octet_length(body) < 1048576) not valid,
  add constraint notes_tags_check check (
    cardinality(tags) <= 20
    and array_position(tags, null) is null
    and length(learning.tags_text(tags)) <= 20 * 41
  );
create index notes_search_idx on public.notes using gin (search);
create index notes_user_updated_idx on public.notes (user_id, updated_at desc);
create index notes_tags_idx on public.notes using gin (tags);

create trigger touch_updated_at before update on public.notes
  for each row execute function learning.touch_updated_at();
create trigger keep_columns before update on public.notes
  for each row execute function learning.keep_columns('user_id');

drop policy notes_owner on public.notes;
create policy notes_read on public.notes for select to authenticated
  using (user_id = (select auth.uid()));
create policy notes_insert on public.notes for insert to authenticated
  with check (
    user_id = auth.uid()
    and (course_id is null or learning.can_read_course(auth.uid(), course_id))
    and (highlight_id is null
         or exists (select 1 from public.highlights h
                     where h.id = highlight_id and h.user_id = auth.uid()))
  );
create policy notes_update on public.notes for update to authenticated
  using (user_id = auth.uid())
  with check (
    user_id = auth.uid()
    and (course_id is null or learning.can_read_course(auth.uid(), course_id))
    and (highlight_id is null
         or exists (select 1 from public.highlights h
                     where h.id = highlight_id and h.user_id = auth.uid()))
  );
create policy notes_delete on public.notes for delete to authenticated
  using (user_id = auth.uid());

-- Cards made from a note or a highlight keep the link (the note or highlight may go later).
alter table public.flashcards
  add column highlight_id uuid references public.highlights (id) on delete set null,
  add constraint flashcards_note_fkey foreign key (note_id)
    references public.notes (id) on delete set null;
grant insert (highlight_id) on public.flashcards to authenticated;

drop policy flashcards_insert on public.flashcards;
create policy flashcards_insert on public.flashcards for insert to authenticated
  with check (
    user_id = auth.uid()
    and (note_id is null
         or exists (select 1 from public.notes n where n.id = note_id and n.user_id = auth.uid()))
    and (highlight_id is null
         or exists (select 1 from public.highlights h
                     where h.id = highlight_id and h.user_id = auth.uid()))
  );

-- Each of the caller's decks with its counts, for the decks screen and the dashboard.
create or replace function public.flashcard_deck_summaries()
returns table (
  deck_id uuid, total integer, due integer, new integer, suspended integer,
  next_due timestamptz
)
language sql stable
set search_path = ''
as $$
  select d.id,
         count(c.id)::int,
         (count(c.id) filter (where not c.suspended and c.due <= now()))::int,
         (count(c.id) filter (where not c.suspended and c.state = 0))::int,
         (count(c.id) filter (where c.suspended))::int,
         min(c.due) filter (where not c.suspended)
    from public.flashcard_decks d
    left join public.flashcards c on c.deck_id = d.id
   where d.user_id = auth.uid()
   group by d.id
$$;
revoke all on function public.flashcard_deck_summaries() from public;
grant execute on function public.flashcard_deck_summaries() to authenticated;
