-- A flashcard rating's triggers read a bounded amount of the learner's history (issue 12,
-- decision 0174). Same badges, streaks and goal progress as before.
--
-- * Badges: each figure a badge not yet held depends on is read only as far as its threshold.
--   Counts stop at 10 lessons, 100 reviews or the first quiz or goal (the unique key on
--   (user_id, source, source_id) finds each source's awards); the level badges need 1,000 and
--   4,500 XP in total, and since every award is at least 1 XP, the sum of at most 4,500 awards
--   reaches a threshold exactly when the whole sum does. Before, a learner who had never
--   completed a lesson summed their whole XP history (18,250 awards after a year of reviews)
--   on each of the day's first 50 ratings.
-- * The streak walks the learner's active days instead of every calendar day since the first
--   (each of which searched the whole array): the same rule, stated in 0441, in time linear in
--   the active days. A gap of inactive days uses one freeze per day while freezes last, and
--   otherwise ends the streak (which leaves no freeze, as the day-by-day walk did).
-- * A daily review goal counts today's reviews from an index range one day wider than the local
--   day on each side (it was two), keeping the exact local-date test.

create or replace function learning.streak(days date[], today date,
  out current_streak int, out longest_streak int, out freezes int, out active_today boolean)
language plpgsql immutable
set search_path = ''
as $$
declare
  day date;
  previous date;
  gap int;
begin
  current_streak := 0;
  longest_streak := 0;
  freezes := 0;
  active_today := today = any (days);
  for day in select distinct d from unnest(days) d where d <= today order by d loop
    if previous is not null then
      gap := day - previous - 1;
      if gap > 0 then
        if freezes >= gap then
          freezes := freezes - gap;
        else
          current_streak := 0;
          freezes := 0;
        end if;
      end if;
    end if;
    current_streak := current_streak + 1;
    if current_streak % 7 = 0 then
      freezes := least(freezes + 1, 2);
    end if;
    longest_streak := greatest(longest_streak, current_streak);
    previous := day;
  end loop;
  -- The days since the last active one, today excluded: today is not over.
  if previous is not null and today - previous - 1 > 0 then
    gap := today - previous - 1;
    if freezes >= gap then
      freezes := freezes - gap;
    else
      current_streak := 0;
      freezes := 0;
    end if;
  end if;
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
  if not held @> array['first_lesson', 'ten_lessons'] then
    select count(*) into lessons from (
      select 1 from public.xp_events
       where user_id = uid and source = 'lesson_completed' limit 10) e;
  end if;
  if not held @> array['first_quiz'] then
    select count(*) into quizzes from (
      select 1 from public.xp_events
       where user_id = uid and source = 'quiz_passed' limit 1) e;
  end if;
  if not held @> array['hundred_cards'] then
    select count(*) into reviews from (
      select 1 from public.xp_events
       where user_id = uid and source = 'cards_reviewed' limit 100) e;
  end if;
  if not held @> array['first_goal'] then
    select count(*) into goals_met from (
      select 1 from public.xp_events
       where user_id = uid and source = 'goal_met' limit 1) e;
  end if;
  if not held @> array['level_5', 'level_10'] then
    select coalesce(sum(e.amount), 0) into total from (
      select amount from public.xp_events where user_id = uid
       limit learning.level_threshold(10)) e;
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

-- 0443's measure with a narrower review range and the deck read only for a course goal.
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
      -- A day on each side of the local day's bounds (a midnight that a clock change makes
      -- ambiguous included); the local-date test decides.
      select count(*) into current from public.flashcard_reviews r
       where r.user_id = g.user_id
         and r.reviewed_at >= (today - 1)::timestamp at time zone zone
         and r.reviewed_at < (today + 2)::timestamp at time zone zone
         and (r.reviewed_at at time zone zone)::date = today
         and exists (select 1 from public.flashcard_decks d
                      where d.id = r.deck_id and (g.course_id is null or d.course_id = g.course_id));
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
