-- Flashcards with FSRS scheduling (issue 12, decision 0160).
--
-- 0300 made `flashcards` (front, back, course) with one owner policy. This evolves it, keeping
-- its rows: every card now sits in a deck (a personal deck, or a deck for a course), carries its
-- FSRS state, and its reviews are kept in `flashcard_reviews`.
--
-- Who: everything here is the owner's own study material. Nobody else reads it — not the
-- course's instructors, not the organization's admins. The schedule (state, due, stability,
-- difficulty, …) and the review log are written only by the review procedures below, which
-- the `flashcards` edge function calls after computing the next state with ts-fsrs, so a
-- client can neither move a card's due date by hand nor log a review that did not happen
-- (goals and XP count these rows).

create table public.flashcard_decks (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade default auth.uid(),
  -- Null for a personal deck.
  course_id uuid references public.courses (id) on delete set null,
  name text not null check (length(trim(name)) between 1 and 120),
  description text not null default '' check (length(description) <= 2000),
  -- FSRS's request_retention: the probability of recall the schedule aims for.
  desired_retention numeric(3, 2) not null default 0.90
    check (desired_retention between 0.70 and 0.99),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, user_id)
);
create index flashcard_decks_user_idx on public.flashcard_decks (user_id, name);

create trigger touch_updated_at before update on public.flashcard_decks
  for each row execute function learning.touch_updated_at();
create trigger keep_columns before update on public.flashcard_decks
  for each row execute function learning.keep_columns('user_id');

alter table public.flashcard_decks enable row level security;

create policy flashcard_decks_read on public.flashcard_decks for select to authenticated
  using (user_id = (select auth.uid()));
-- A course deck belongs to a course the owner studies or teaches.
create policy flashcard_decks_insert on public.flashcard_decks for insert to authenticated
  with check (
    user_id = auth.uid()
    and (course_id is null or learning.enrolled(auth.uid(), course_id)
         or learning.teaches(auth.uid(), course_id))
  );
create policy flashcard_decks_update on public.flashcard_decks for update to authenticated
  using (user_id = auth.uid())
  with check (
    user_id = auth.uid()
    and (course_id is null or learning.enrolled(auth.uid(), course_id)
         or learning.teaches(auth.uid(), course_id))
  );
create policy flashcard_decks_delete on public.flashcard_decks for delete to authenticated
  using (user_id = auth.uid());

-- Cards made before decks existed go to one deck per owner and course.
insert into public.flashcard_decks (user_id, course_id, name)
select distinct f.user_id, f.course_id, coalesce(c.title, 'My cards')
  from public.flashcards f
  left join public.courses c on c.id = f.course_id;

alter table public.flashcards
  add column deck_id uuid,
  add column source text not null default 'typed'
    check (source in ('typed', 'note', 'question', 'highlight', 'import')),
  add column note_id uuid,
  add column question_id uuid references public.questions (id) on delete set null,
  -- FSRS card state (ts-fsrs `Card`): 0 new, 1 learning, 2 review, 3 relearning.
  add column state smallint not null default 0 check (state between 0 and 3),
  add column due timestamptz not null default now(),
  add column stability double precision not null default 0 check (stability >= 0),
  add column difficulty double precision not null default 0 check (difficulty >= 0),
  add column scheduled_days integer not null default 0 check (scheduled_days >= 0),
  add column learning_steps integer not null default 0 check (learning_steps >= 0),
  add column reps integer not null default 0 check (reps >= 0),
  add column lapses integer not null default 0 check (lapses >= 0),
  add column last_review timestamptz,
  add column suspended boolean not null default false,
  add constraint flashcards_id_user_key unique (id, user_id);

update public.flashcards f
   set deck_id = d.id
  from public.flashcard_decks d
 where d.user_id = f.user_id and d.course_id is not distinct from f.course_id;

alter table public.flashcards
  alter column deck_id set not null,
  add constraint flashcards_deck_fkey foreign key (deck_id, user_id)
    references public.flashcard_decks (id, user_id) on delete cascade;

-- A bank question's prompt and worked example can be long; 2,000 characters was 0300's guess.
alter table public.flashcards drop constraint flashcards_front_check;
alter table public.flashcards drop constraint flashcards_back_check;
alter table public.flashcards
  add constraint flashcards_front_check check (length(trim(front)) between 1 and 20000),
  add constraint flashcards_back_check check (length(trim(back)) between 1 and 20000);

-- What is due, per owner and per deck; suspended cards are never due.
create index flashcards_due_idx on public.flashcards (user_id, due) where not suspended;
create index flashcards_deck_idx on public.flashcards (deck_id, due);

-- A card without a deck (0300's clients) goes to the owner's first personal deck, made when
-- missing; `course_id` follows the deck, so a card's course is its deck's.
create or replace function learning.flashcard_deck() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.deck_id is null then
    select d.id into new.deck_id from public.flashcard_decks d
     where d.user_id = new.user_id and d.course_id is null
     order by d.created_at, d.id limit 1;
    if new.deck_id is null then
      insert into public.flashcard_decks (user_id, name) values (new.user_id, 'My cards')
      returning id into new.deck_id;
    end if;
  end if;
  select d.course_id into new.course_id from public.flashcard_decks d
   where d.id = new.deck_id and d.user_id = new.user_id;
  return new;
end
$$;
revoke all on function learning.flashcard_deck() from public;

create trigger flashcard_deck before insert or update of deck_id on public.flashcards
  for each row execute function learning.flashcard_deck();
create trigger touch_updated_at before update on public.flashcards
  for each row execute function learning.touch_updated_at();
create trigger keep_columns before update on public.flashcards
  for each row execute function learning.keep_columns('user_id');

-- Moving a deck to another course moves its cards' course with it.
create or replace function learning.flashcard_deck_course() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.flashcards set course_id = new.course_id
   where deck_id = new.id and course_id is distinct from new.course_id;
  return null;
end
$$;
revoke all on function learning.flashcard_deck_course() from public;
create trigger flashcard_deck_course after update of course_id on public.flashcard_decks
  for each row execute function learning.flashcard_deck_course();

-- Clients write a card's content, never its schedule.
drop policy flashcards_owner on public.flashcards;
create policy flashcards_read on public.flashcards for select to authenticated
  using (user_id = (select auth.uid()));
create policy flashcards_insert on public.flashcards for insert to authenticated
  with check (user_id = auth.uid());
create policy flashcards_update on public.flashcards for update to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy flashcards_delete on public.flashcards for delete to authenticated
  using (user_id = auth.uid());

revoke insert, update on public.flashcards from anon, authenticated;
grant insert (id, user_id, deck_id, front, back, source, note_id, question_id, suspended)
  on public.flashcards to authenticated;
grant update (deck_id, front, back, suspended) on public.flashcards to authenticated;

create table public.flashcard_reviews (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  card_id uuid not null,
  deck_id uuid not null,
  rating smallint not null check (rating between 1 and 4),
  reviewed_at timestamptz not null default now(),
  -- The card's FSRS state before and after the rating (statistics read these).
  state_before smallint not null check (state_before between 0 and 3),
  state_after smallint not null check (state_after between 0 and 3),
  stability_before double precision not null,
  stability_after double precision not null,
  difficulty_before double precision not null,
  difficulty_after double precision not null,
  due_before timestamptz not null,
  due_after timestamptz not null,
  -- Days since the card's previous review (0 for a new card), and the interval given.
  elapsed_days double precision not null default 0,
  scheduled_days integer not null default 0,
  -- The whole schedule before the rating, so undo puts the card back exactly.
  card_before jsonb not null,
  foreign key (card_id, user_id) references public.flashcards (id, user_id) on delete cascade
);
create index flashcard_reviews_user_idx on public.flashcard_reviews (user_id, reviewed_at desc);
create index flashcard_reviews_card_idx on public.flashcard_reviews (card_id, reviewed_at desc);

alter table public.flashcard_reviews enable row level security;
create policy flashcard_reviews_read on public.flashcard_reviews for select to authenticated
  using (user_id = (select auth.uid()));
revoke insert, update, delete, truncate on public.flashcard_reviews from anon, authenticated;

-- The schedule columns the procedures copy, as one JSON object (undo's `card_before`).
create or replace function learning.flashcard_schedule(card public.flashcards) returns jsonb
language sql immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'state', card.state, 'due', card.due, 'stability', card.stability,
    'difficulty', card.difficulty, 'scheduled_days', card.scheduled_days,
    'learning_steps', card.learning_steps, 'reps', card.reps, 'lapses', card.lapses,
    'last_review', card.last_review
  )
$$;

-- Records one rating: the caller's own card, still in the state the next one was computed
-- from (`expected_reps`: a second tab that rated it meanwhile makes this one stale), never a
-- suspended card. `next` is ts-fsrs's card after the rating, computed by the edge function.
-- Only the edge function calls this (the learning schema is not exposed over REST).
create or replace function learning.record_flashcard_review(
  card uuid, rating smallint, reviewed_at timestamptz, expected_reps integer,
  elapsed_days double precision, next jsonb
) returns public.flashcard_reviews
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  current public.flashcards;
  written public.flashcard_reviews;
begin
  select * into current from public.flashcards f where f.id = card and f.user_id = uid
    for update;
  if not found then
    raise exception 'No such card' using errcode = 'P0002';
  end if;
  if current.suspended then
    raise exception 'This card is suspended; unsuspend it to review it.' using errcode = '55000';
  end if;
  if current.reps <> expected_reps then
    raise exception 'This card was reviewed meanwhile; load it again.' using errcode = '40001';
  end if;

  insert into public.flashcard_reviews (
    user_id, card_id, deck_id, rating, reviewed_at, state_before, state_after,
    stability_before, stability_after, difficulty_before, difficulty_after,
    due_before, due_after, elapsed_days, scheduled_days, card_before
  ) values (
    uid, card, current.deck_id, rating, reviewed_at, current.state, (next ->> 'state')::smallint,
    current.stability, (next ->> 'stability')::float8,
    current.difficulty, (next ->> 'difficulty')::float8,
    current.due, (next ->> 'due')::timestamptz, elapsed_days,
    (next ->> 'scheduled_days')::int, learning.flashcard_schedule(current)
  ) returning * into written;

  update public.flashcards f set
    state = (next ->> 'state')::smallint,
    due = (next ->> 'due')::timestamptz,
    stability = (next ->> 'stability')::float8,
    difficulty = (next ->> 'difficulty')::float8,
    scheduled_days = (next ->> 'scheduled_days')::int,
    learning_steps = (next ->> 'learning_steps')::int,
    reps = (next ->> 'reps')::int,
    lapses = (next ->> 'lapses')::int,
    last_review = (next ->> 'last_review')::timestamptz
  where f.id = card;
  return written;
end
$$;
revoke all on function learning.record_flashcard_review(
  uuid, smallint, timestamptz, integer, double precision, jsonb
) from public;
grant execute on function learning.record_flashcard_review(
  uuid, smallint, timestamptz, integer, double precision, jsonb
) to authenticated;

-- Undo of a rating: the caller's review that is still the latest of its card puts the card
-- back as it was and is removed, as if the rating never happened.
create or replace function public.undo_flashcard_review(review_id uuid) returns public.flashcards
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  review public.flashcard_reviews;
  restored public.flashcards;
begin
  select * into review from public.flashcard_reviews r
   where r.id = review_id and r.user_id = uid;
  if not found then
    raise exception 'No such review' using errcode = 'P0002';
  end if;
  perform 1 from public.flashcards f where f.id = review.card_id for update;
  if exists (
    select 1 from public.flashcard_reviews r
     where r.card_id = review.card_id and r.id <> review.id
       and r.reviewed_at >= review.reviewed_at
  ) then
    raise exception 'Only the latest rating of a card can be undone.' using errcode = '55000';
  end if;

  update public.flashcards f set
    state = (review.card_before ->> 'state')::smallint,
    due = (review.card_before ->> 'due')::timestamptz,
    stability = (review.card_before ->> 'stability')::float8,
    difficulty = (review.card_before ->> 'difficulty')::float8,
    scheduled_days = (review.card_before ->> 'scheduled_days')::int,
    learning_steps = (review.card_before ->> 'learning_steps')::int,
    reps = (review.card_before ->> 'reps')::int,
    lapses = (review.card_before ->> 'lapses')::int,
    last_review = (review.card_before ->> 'last_review')::timestamptz
  where f.id = review.card_id
  returning * into restored;
  delete from public.flashcard_reviews r where r.id = review.id;
  return restored;
end
$$;
revoke all on function public.undo_flashcard_review(uuid) from public;
grant execute on function public.undo_flashcard_review(uuid) to authenticated;

