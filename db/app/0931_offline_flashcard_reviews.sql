-- Flashcard reviews made offline and sent later (issue 18, decision 0181).
--
-- The installed app queues a rating made without a connection and sends it when the
-- connection returns; a send whose answer was lost is sent again. Each queued rating carries
-- an id the browser made (`client_op_id`), unique per learner, so a second send of the same
-- rating finds the first one instead of counting the review twice (XP, goals and statistics
-- count these rows). Online ratings from the review screen carry one too, so a rating whose
-- answer never arrived can be queued without risk.

alter table public.flashcard_reviews add column client_op_id uuid;

create unique index flashcard_reviews_client_op_idx
  on public.flashcard_reviews (user_id, client_op_id)
  where client_op_id is not null;

-- 0420's procedure with the rating's id added; the body is otherwise the same. The flashcards
-- function looks the id up under the card's lock before calling this; the unique index is
-- the last guard if two sends of one rating race.
drop function learning.record_flashcard_review(
  uuid, smallint, timestamptz, integer, double precision, jsonb
);

create function learning.record_flashcard_review(
  card uuid, rating smallint, reviewed_at timestamptz, expected_reps integer,
  elapsed_days double precision, next jsonb, op uuid default null
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
    due_before, due_after, elapsed_days, scheduled_days, card_before, client_op_id
  ) values (
    uid, card, current.deck_id, rating, reviewed_at, current.state, (next ->> 'state')::smallint,
    current.stability, (next ->> 'stability')::float8,
    current.difficulty, (next ->> 'difficulty')::float8,
    current.due, (next ->> 'due')::timestamptz, elapsed_days,
    (next ->> 'scheduled_days')::int, learning.flashcard_schedule(current), op
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
  uuid, smallint, timestamptz, integer, double precision, jsonb, uuid
) from public;
grant execute on function learning.record_flashcard_review(
  uuid, smallint, timestamptz, integer, double precision, jsonb, uuid
) to authenticated;
