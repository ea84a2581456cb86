-- XP, levels, daily streaks and badges (issue 12, decision 0171). Every row here is written
-- by the database itself, from events it verified (a lesson completed, a quiz graded, a card
-- reviewed, a goal met): triggers and functions that run as their owner. No client role has
-- insert, update or delete on these tables, and no function takes an amount, so an XP amount
-- sent by a browser has nowhere to go.

-- One row per award. The unique key makes each award happen at most once (a lesson completed
-- twice, a quiz passed twice, a goal met twice in one period).
create table public.xp_events (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  source text not null
    check (source in ('lesson_completed', 'quiz_passed', 'cards_reviewed', 'goal_met')),
  -- The lesson, the assessment, the flashcard review, or "<goal id>" / "<goal id>:<period>".
  source_id text not null check (length(source_id) between 1 and 100),
  course_id uuid references public.courses (id) on delete set null,
  amount int not null check (amount between 1 and 100),
  earned_at timestamptz not null default now(),
  -- The calendar day in the learner's time zone when it was earned (streaks count these).
  local_day date not null,
  unique (user_id, source, source_id)
);
create index xp_events_user_idx on public.xp_events (user_id, earned_at desc);
create index xp_events_course_idx on public.xp_events (course_id, user_id) where course_id is not null;

-- Time on task per learner, course and local day, from the growth of
-- lesson_progress.time_spent_seconds (the readers and lesson pages record it).
create table public.study_time (
  user_id uuid not null references auth.users (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  local_day date not null,
  seconds int not null default 0 check (seconds between 0 and 86400),
  primary key (user_id, course_id, local_day)
);

create table public.user_badges (
  user_id uuid not null references auth.users (id) on delete cascade,
  badge text not null,
  earned_at timestamptz not null default now(),
  primary key (user_id, badge)
);

alter table public.xp_events enable row level security;
alter table public.study_time enable row level security;
alter table public.user_badges enable row level security;
create policy xp_events_read_own on public.xp_events for select to authenticated
  using (user_id = (select auth.uid()));
create policy study_time_read_own on public.study_time for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_badges_read_own on public.user_badges for select to authenticated
  using (user_id = (select auth.uid()));
revoke all on public.xp_events, public.study_time, public.user_badges from anon, authenticated;
grant select on public.xp_events, public.study_time, public.user_badges to authenticated;
grant all on public.xp_events, public.study_time, public.user_badges to service_role;

-- The learner's calendar day at a moment, in their stored time zone (UTC if none).
create function learning.local_day(uid uuid, at timestamptz) returns date
language sql stable security definer
set search_path = ''
as $$
  select (at at time zone learning.time_zone_of(uid))::date
$$;
revoke all on function learning.local_day(uuid, timestamptz) from public;

-- Level L needs 50·L·(L−1) XP in total: level 2 at 100, 3 at 300, 4 at 600, 5 at 1,000.
create function learning.level_for(xp bigint) returns int
language sql immutable
set search_path = ''
as $$
  select floor((1 + sqrt(1 + 0.08 * greatest(xp, 0))) / 2)::int
$$;
create function learning.level_threshold(level int) returns bigint
language sql immutable
set search_path = ''
as $$
  select (50 * level * (level - 1))::bigint
$$;

/*
 * The streak rule (decision 0171). A day counts when the learner earned XP or spent study
 * time on it, by their local calendar. Walking from the first such day to today: an active
 * day adds one; every 7th day of a streak earns a freeze (at most 2 held); a day without
 * activity uses a freeze if one is held (the streak survives, without growing), otherwise
 * the streak ends. Today without activity yet does not end it: the day is not over.
 */
create function learning.streak(days date[], today date,
  out current_streak int, out longest_streak int, out freezes int, out active_today boolean)
language plpgsql immutable
set search_path = ''
as $$
declare
  day date;
  first_day date;
  active boolean;
begin
  current_streak := 0;
  longest_streak := 0;
  freezes := 0;
  active_today := today = any (days);
  select min(d) into first_day from unnest(days) d where d <= today;
  if first_day is null then
    return;
  end if;
  day := first_day;
  while day <= today loop
    active := day = any (days);
    if active then
      current_streak := current_streak + 1;
      if current_streak % 7 = 0 then
        freezes := least(freezes + 1, 2);
      end if;
    elsif day < today then
      if freezes > 0 and current_streak > 0 then
        freezes := freezes - 1;
      else
        current_streak := 0;
      end if;
    end if;
    longest_streak := greatest(longest_streak, current_streak);
    day := day + 1;
  end loop;
end
$$;

create function learning.active_days(uid uuid) returns date[]
language sql stable security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct d order by d), '{}')
  from (
    select e.local_day as d from public.xp_events e where e.user_id = uid
    union
    select t.local_day from public.study_time t where t.user_id = uid and t.seconds > 0
  ) days
$$;
revoke all on function learning.active_days(uuid) from public;

-- Milestones, checked after each award; a badge is kept once earned.
create function learning.award_badges(uid uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  total bigint;
  lessons int;
  quizzes int;
  perfect boolean;
  reviews int;
  goals_met int;
  streak record;
begin
  select coalesce(sum(amount), 0),
         count(*) filter (where source = 'lesson_completed'),
         count(*) filter (where source = 'quiz_passed'),
         count(*) filter (where source = 'cards_reviewed'),
         count(*) filter (where source = 'goal_met')
    into total, lessons, quizzes, reviews, goals_met
    from public.xp_events where user_id = uid;
  select exists (
    select 1 from public.assessment_attempts a
    where a.user_id = uid and a.status = 'graded' and a.score = 100
  ) into perfect;
  select * into streak
    from learning.streak(learning.active_days(uid), learning.local_day(uid, now()));
  insert into public.user_badges (user_id, badge)
  select uid, b.badge
  from (values
    ('first_lesson', lessons >= 1),
    ('ten_lessons', lessons >= 10),
    ('first_quiz', quizzes >= 1),
    ('perfect_score', perfect),
    ('hundred_cards', reviews >= 100),
    ('first_goal', goals_met >= 1),
    ('streak_7', streak.longest_streak >= 7),
    ('streak_30', streak.longest_streak >= 30),
    ('level_5', learning.level_for(total) >= 5),
    ('level_10', learning.level_for(total) >= 10)
  ) as b(badge, earned)
  where b.earned
  on conflict do nothing;
end
$$;
revoke all on function learning.award_badges(uuid) from public;

-- The one way into xp_events: an award for a verified event, at most once per source.
create function learning.award_xp(p_uid uuid, p_source text, p_source_id text, p_course uuid,
  p_points int)
returns boolean
language plpgsql security definer
set search_path = ''
as $$
declare
  inserted int;
begin
  if p_points <= 0 then
    return false;
  end if;
  insert into public.xp_events (user_id, source, source_id, course_id, amount, local_day)
  values (p_uid, p_source, p_source_id, p_course, p_points, learning.local_day(p_uid, now()))
  on conflict on constraint xp_events_user_id_source_source_id_key do nothing;
  get diagnostics inserted = row_count;
  if inserted > 0 then
    perform learning.award_badges(p_uid);
  end if;
  return inserted > 0;
end
$$;
revoke all on function learning.award_xp(uuid, text, text, uuid, int) from public;

-- Lessons: 10 XP the first time each is completed; study time from the growth of
-- time_spent_seconds (at most an hour per save, at most a day per day).
create function learning.lesson_progress_xp() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  grown int;
begin
  if new.status = 'completed' and (tg_op = 'INSERT' or old.status is distinct from 'completed') then
    perform learning.award_xp(new.user_id, 'lesson_completed', new.lesson_id::text, new.course_id, 10);
  end if;
  grown := least(new.time_spent_seconds - case when tg_op = 'INSERT' then 0 else old.time_spent_seconds end, 3600);
  if grown > 0 then
    insert into public.study_time (user_id, course_id, local_day, seconds)
    values (new.user_id, new.course_id, learning.local_day(new.user_id, now()), grown)
    on conflict (user_id, course_id, local_day)
      do update set seconds = least(public.study_time.seconds + excluded.seconds, 86400);
  end if;
  return null;
end
$$;
create trigger award_xp after insert or update on public.lesson_progress
  for each row execute function learning.lesson_progress_xp();

-- Quizzes: passed at 60 % or more, worth half the score in XP (30–50), once per quiz: the
-- first graded attempt that passes.
create function learning.assessment_attempt_xp() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.status = 'graded' and new.score is not null and new.score >= 60 then
    perform learning.award_xp(new.user_id, 'quiz_passed', new.assessment_id::text, new.course_id,
      round(new.score / 2)::int);
  end if;
  return null;
end
$$;
create trigger award_xp after insert or update of status, score on public.assessment_attempts
  for each row execute function learning.assessment_attempt_xp();

-- Flashcards: 1 XP per review, at most 50 a day; an undone review takes its XP back.
create function learning.flashcard_review_xp() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  today_count int;
  course uuid;
begin
  if tg_op = 'DELETE' then
    delete from public.xp_events
      where user_id = old.user_id and source = 'cards_reviewed' and source_id = old.id::text;
    return null;
  end if;
  select count(*) into today_count from public.xp_events
    where user_id = new.user_id and source = 'cards_reviewed'
      and local_day = learning.local_day(new.user_id, now());
  if today_count < 50 then
    select d.course_id into course from public.flashcard_decks d where d.id = new.deck_id;
    perform learning.award_xp(new.user_id, 'cards_reviewed', new.id::text, course, 1);
  end if;
  return null;
end
$$;
create trigger award_xp after insert or delete on public.flashcard_reviews
  for each row execute function learning.flashcard_review_xp();

-- The learner's own summary for the dashboard and the progress screen.
create function public.get_my_progress() returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  total bigint;
  level int;
  today date;
  streak record;
begin
  if uid is null then
    raise exception 'Sign in to see your progress.' using errcode = '42501';
  end if;
  select coalesce(sum(amount), 0) into total from public.xp_events where user_id = uid;
  level := learning.level_for(total);
  today := learning.local_day(uid, now());
  select * into streak from learning.streak(learning.active_days(uid), today);
  return jsonb_build_object(
    'xp', total,
    'level', level,
    'level_xp', learning.level_threshold(level),
    'next_level_xp', learning.level_threshold(level + 1),
    'current_streak', streak.current_streak,
    'longest_streak', streak.longest_streak,
    'freezes', streak.freezes,
    'active_today', streak.active_today,
    'today', today,
    'time_zone', learning.time_zone_of(uid)
  );
end
$$;
revoke all on function public.get_my_progress() from public;
grant execute on function public.get_my_progress() to authenticated;

/*
 * A course's leaderboard: XP earned in the course by its enrolled learners who opted in
 * (user_preferences.leaderboard_opt_in, off by default), for those enrolled in the course or
 * teaching it. Names are display names; nobody else's id is returned.
 */
create function public.course_leaderboard(course_id uuid)
returns table (rank bigint, display_name text, xp bigint, is_me boolean)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null
     or not (learning.enrolled(uid, course_leaderboard.course_id)
             or learning.teaches(uid, course_leaderboard.course_id)) then
    raise exception 'Only the course''s learners and instructors see its leaderboard.'
      using errcode = '42501';
  end if;
  return query
    select rank() over (order by coalesce(sum(e.amount), 0) desc),
           coalesce(nullif(p.display_name, ''), 'A learner'),
           coalesce(sum(e.amount), 0)::bigint,
           en.user_id = uid
    from public.enrollments en
    join public.user_preferences pref
      on pref.user_id = en.user_id and pref.leaderboard_opt_in
    left join public.profiles p on p.id = en.user_id
    left join public.xp_events e
      on e.user_id = en.user_id and e.course_id = course_leaderboard.course_id
    where en.course_id = course_leaderboard.course_id
      and learning.enrolled(en.user_id, course_leaderboard.course_id)
    group by en.user_id, p.display_name
    order by 1, 2
    limit 50;
end
$$;
revoke all on function public.course_leaderboard(uuid) from public;
grant execute on function public.course_leaderboard(uuid) to authenticated;
