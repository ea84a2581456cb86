/*
 * Flashcard statistics for the learner (decision 0162): reviews per day in the learner's time
 * zone (the heatmap and the daily chart), true retention (reviews of learned cards, state Review
 * before the rating, recalled when rated Hard or better; the rule the progress screen uses), and
 * cards by state. One call, computed where the rows are, over the caller's own rows only: the
 * function reads `auth.uid()` and takes no user id.
 */
create function public.flashcard_statistics(days integer default 182, deck_id uuid default null)
returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  today date;
  first_day date;
  per_day jsonb;
  retention jsonb;
  states jsonb;
begin
  if uid is null then
    raise exception 'Sign in to see your flashcard statistics.' using errcode = '42501';
  end if;
  if days is null or days < 7 or days > 366 then
    raise exception 'days must be between 7 and 366, not %', days using errcode = '22023';
  end if;
  today := learning.local_day(uid, now());
  first_day := today - (days - 1);

  select coalesce(jsonb_agg(jsonb_build_object('day', d.day, 'reviews', d.reviews,
                                               'again', d.again) order by d.day), '[]'::jsonb)
    into per_day
  from (
    select learning.local_day(uid, r.reviewed_at) as day,
           count(*)::int as reviews,
           count(*) filter (where r.rating = 1)::int as again
    from public.flashcard_reviews r
    where r.user_id = uid
      and (flashcard_statistics.deck_id is null or r.deck_id = flashcard_statistics.deck_id)
      and r.reviewed_at >= (first_day - 1)::timestamptz
    group by 1
  ) d
  where d.day between first_day and today;

  select jsonb_build_object(
           'last_30_days', jsonb_build_object(
             'learned_reviews', count(*) filter (where r.reviewed_at >= now() - interval '30 days'),
             'recalled', count(*) filter (where r.reviewed_at >= now() - interval '30 days'
                                            and r.rating >= 2)),
           'all_time', jsonb_build_object(
             'learned_reviews', count(*),
             'recalled', count(*) filter (where r.rating >= 2)))
    into retention
  from public.flashcard_reviews r
  where r.user_id = uid
    and r.state_before = 2
    and (flashcard_statistics.deck_id is null or r.deck_id = flashcard_statistics.deck_id);

  select jsonb_build_object(
           'new', count(*) filter (where not c.suspended and c.state = 0),
           'learning', count(*) filter (where not c.suspended and c.state = 1),
           'review', count(*) filter (where not c.suspended and c.state = 2),
           'relearning', count(*) filter (where not c.suspended and c.state = 3),
           'suspended', count(*) filter (where c.suspended),
           'due_today', count(*) filter (
             where not c.suspended
               and learning.local_day(uid, c.due) <= today))
    into states
  from public.flashcards c
  where c.user_id = uid
    and (flashcard_statistics.deck_id is null or c.deck_id = flashcard_statistics.deck_id);

  return jsonb_build_object(
    'today', today,
    'first_day', first_day,
    'time_zone', learning.time_zone_of(uid),
    'per_day', per_day,
    'retention', retention,
    'cards', states
  );
end
$$;
revoke all on function public.flashcard_statistics(integer, uuid) from public;
grant execute on function public.flashcard_statistics(integer, uuid) to authenticated;

