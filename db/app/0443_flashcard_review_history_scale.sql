-- A flashcard rating costs the same for a learner with a year of reviews as for a new one
-- (issue 12, decision 0169). The rating's triggers read the learner's history three times, and
-- each read grew with it: a year of daily study made a rating take over a second.
--
-- * The daily XP cap counted today's `cards_reviewed` awards by calling `learning.local_day`
--   (not inlinable: it sets search_path) once per award the learner ever had, then filtering.
--   Today's day is now computed once, and (user_id, local_day) finds today's awards directly;
--   the same index serves the streak's list of active days.
-- * A daily review goal counted today's reviews by converting every review ever to a local
--   date. It now reads the reviews of a few days around today by (user_id, reviewed_at) and
--   keeps the exact local-date test, so the count is the one it was.
-- * Badges were recomputed after every award, streak included, even when all were held. Only
--   the figures a badge not yet held depends on are computed now; held badges stayed as they
--   were before too (on conflict do nothing).

create index xp_events_user_day_idx on public.xp_events (user_id, local_day);

create or replace function learning.flashcard_review_xp() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  today_count int;
  course uuid;
  today date;
begin
  if tg_op = 'DELETE' then
    delete from public.xp_events
      where user_id = old.user_id and source = 'cards_reviewed' and source_id = old.id::text;
    return null;
  end if;
  today := learning.local_day(new.user_id, now());
  select count(*) into today_count from public.xp_events
    where user_id = new.user_id and local_day = today and source = 'cards_reviewed';
  if today_count < 50 then
    select d.course_id into course from public.flashcard_decks d where d.id = new.deck_id;
    perform learning.award_xp(new.user_id, 'cards_reviewed', new.id::text, course, 1);
  end if;
  return null;
end
$$;

-- 0442's measure with the review count read by time range; the other kinds are unchanged.
create or replace function learning.goal_measure(g public.goals,
  out current numeric, out target numeric, out period text)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  today date := learning.local_day(g.user_id, now());
  zone text := learning.time_zone_of(g.user_id);
begin
  period := null;
  case g.kind
    when 'complete_course', 'complete_module' then
      select count(*) filter (where lp.status = 'completed'), count(l.id)
        into current, target
        from public.lessons l
        left join public.lesson_progress lp on lp.lesson_id = l.id and lp.user_id = g.user_id
       where l.course_id = g.course_id and (g.module_id is null or l.module_id = g.module_id);
    when 'reach_score' then
      select coalesce(max(a.score), 0) into current from public.assessment_attempts a
       where a.user_id = g.user_id and a.assessment_id = g.assessment_id and a.status = 'graded';
      target := g.target_score;
    when 'review_cards_daily' then
      period := today::text;
      -- The range is wider than any local day (time zones that moved by a whole day
      -- included); the local-date test decides.
      select count(*) into current from public.flashcard_reviews r
        join public.flashcard_decks d on d.id = r.deck_id
       where r.user_id = g.user_id
         and r.reviewed_at >= (today - 2)::timestamp at time zone zone
         and r.reviewed_at < (today + 3)::timestamp at time zone zone
         and (r.reviewed_at at time zone zone)::date = today
         and (g.course_id is null or d.course_id = g.course_id);
      target := g.target_count;
    when 'study_minutes_weekly' then
      period := to_char(today, 'IYYY-"W"IW');
      select coalesce(sum(t.seconds), 0) / 60 into current from public.study_time t
       where t.user_id = g.user_id
         and t.local_day >= date_trunc('week', today)::date and t.local_day <= today
         and (g.course_id is null or t.course_id = g.course_id);
      current := floor(current);
      target := g.target_count;
    else
      current := case when g.achieved_at is null then 0 else 1 end;
      target := 1;
  end case;
end
$$;

create or replace function learning.award_badges(uid uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  held text[];
  total bigint;
  lessons int;
  quizzes int;
  perfect boolean;
  reviews int;
  goals_met int;
  longest int;
begin
  select coalesce(array_agg(badge), '{}') into held from public.user_badges where user_id = uid;
  if not held @> array['first_lesson', 'ten_lessons', 'first_quiz', 'hundred_cards',
      'first_goal', 'level_5', 'level_10'] then
    select coalesce(sum(amount), 0),
           count(*) filter (where source = 'lesson_completed'),
           count(*) filter (where source = 'quiz_passed'),
           count(*) filter (where source = 'cards_reviewed'),
           count(*) filter (where source = 'goal_met')
      into total, lessons, quizzes, reviews, goals_met
      from public.xp_events where user_id = uid;
  end if;
  if not held @> array['perfect_score'] then
    select exists (
      select 1 from public.assessment_attempts a
      where a.user_id = uid and a.status = 'graded' and a.score = 100
    ) into perfect;
  end if;
  if not held @> array['streak_7', 'streak_30'] then
    select s.longest_streak into longest
      from learning.streak(learning.active_days(uid), learning.local_day(uid, now())) s;
  end if;
  insert into public.user_badges (user_id, badge)
  select uid, b.badge
  from (values
    ('first_lesson', lessons >= 1),
    ('ten_lessons', lessons >= 10),
    ('first_quiz', quizzes >= 1),
    ('perfect_score', perfect),
    ('hundred_cards', reviews >= 100),
    ('first_goal', goals_met >= 1),
    ('streak_7', longest >= 7),
    ('streak_30', longest >= 30),
    ('level_5', learning.level_for(total) >= 5),
    ('level_10', learning.level_for(total) >= 10)
  ) as b(badge, earned)
  where b.earned and not b.badge = any (held)
  on conflict do nothing;
end
$$;
