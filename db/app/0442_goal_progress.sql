-- Goals with progress from real events (issue 12, decision 0172). Two recurring kinds join
-- the goals of 0340: review N flashcards a day and study N minutes a week (optionally within
-- one course). Progress is measured from lesson_progress, assessment_attempts,
-- flashcard_reviews and study_time, never stored from a client; a goal that reaches 100 %
-- earns 25 XP once (per day or week for the recurring kinds, and only by its date when it
-- has one). Custom goals are ticked by the learner and earn no XP.

alter table public.goals drop constraint goals_kind_check;
alter table public.goals add constraint goals_kind_check check (kind in (
  'complete_course', 'complete_module', 'reach_score', 'review_cards_daily',
  'study_minutes_weekly', 'custom'));
-- review_cards_daily: cards a day; study_minutes_weekly: minutes a week.
alter table public.goals add column target_count int
  check (target_count is null or target_count between 1 and 10000);
alter table public.goals drop constraint goals_target_matches_kind;
alter table public.goals add constraint goals_target_matches_kind check (
  case kind
    when 'complete_course' then
      course_id is not null and module_id is null and assessment_id is null
      and target_score is null and target_count is null
    when 'complete_module' then
      module_id is not null and assessment_id is null and target_score is null
      and target_count is null
    when 'reach_score' then
      assessment_id is not null and target_score is not null and module_id is null
      and target_count is null
    when 'review_cards_daily' then
      target_count is not null and module_id is null and assessment_id is null
      and target_score is null
    when 'study_minutes_weekly' then
      target_count is not null and module_id is null and assessment_id is null
      and target_score is null
    else module_id is null and assessment_id is null and target_score is null
      and target_count is null
  end
);
grant insert (target_count), update (target_count) on public.goals to authenticated;

/*
 * Where a goal stands: `current` of `target`, and the period a recurring goal is measured in
 * (the learner's local day or ISO week), null for one-off goals.
 */
create function learning.goal_measure(g public.goals,
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
      select count(*) into current from public.flashcard_reviews r
        join public.flashcard_decks d on d.id = r.deck_id
       where r.user_id = g.user_id
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
revoke all on function learning.goal_measure(public.goals) from public;

-- Awards the goals of `uid` (of the given kinds) that reached 100 %, once each.
create function learning.evaluate_goals(uid uuid, kinds text[]) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  g public.goals;
  m record;
  today date := learning.local_day(uid, now());
begin
  for g in
    select * from public.goals
     where user_id = uid and kind = any (kinds) and kind <> 'custom'
       and (due_on is null or due_on >= today)
  loop
    select * into m from learning.goal_measure(g);
    if m.target > 0 and m.current >= m.target then
      perform learning.award_xp(uid, 'goal_met', g.id::text || coalesce(':' || m.period, ''),
        g.course_id, 25);
      if m.period is null and g.achieved_at is null then
        update public.goals set achieved_at = now() where id = g.id;
      end if;
    end if;
  end loop;
end
$$;
revoke all on function learning.evaluate_goals(uuid, text[]) from public;

create function learning.goals_after_lesson() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform learning.evaluate_goals(new.user_id,
    array['complete_course', 'complete_module', 'study_minutes_weekly']);
  return null;
end
$$;
-- Named to fire after award_xp (triggers fire in name order), which records the study time.
create trigger evaluate_goals after insert or update on public.lesson_progress
  for each row execute function learning.goals_after_lesson();

create function learning.goals_after_attempt() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform learning.evaluate_goals(new.user_id, array['reach_score']);
  return null;
end
$$;
create trigger evaluate_goals after insert or update of status, score
  on public.assessment_attempts
  for each row execute function learning.goals_after_attempt();

create function learning.goals_after_review() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform learning.evaluate_goals(new.user_id, array['review_cards_daily']);
  return null;
end
$$;
create trigger evaluate_goals after insert on public.flashcard_reviews
  for each row execute function learning.goals_after_review();

-- A goal set when it is already met (the lessons were done before) is met at once.
create function learning.goals_after_goal() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform learning.evaluate_goals(new.user_id, array[new.kind]);
  return null;
end
$$;
create trigger evaluate_goals
  after insert or update of kind, module_id, assessment_id, target_score, target_count, due_on
  on public.goals
  for each row execute function learning.goals_after_goal();

/*
 * The caller's goals with their progress, for the dashboard and the progress screen: every
 * goal they may read (their own, and those an instructor set for them), newest first.
 */
create function public.get_my_goals()
returns table (
  id uuid, course_id uuid, course_title text, kind text, title text, note text,
  module_id uuid, assessment_id uuid, target_score numeric, target_count int,
  due_on date, achieved_at timestamptz, set_by_me boolean,
  current numeric, target numeric, percent int, period text, created_at timestamptz)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null then
    raise exception 'Sign in to see your goals.' using errcode = '42501';
  end if;
  return query
    select g.id, g.course_id, c.title, g.kind, g.title, g.note, g.module_id, g.assessment_id,
           g.target_score, g.target_count, g.due_on, g.achieved_at, g.set_by = uid,
           m.current, m.target,
           case when m.target > 0 then least(100, floor(m.current * 100 / m.target))::int
                else 0 end,
           m.period, g.created_at
      from public.goals g
      left join public.courses c on c.id = g.course_id
      cross join lateral learning.goal_measure(g) m
     where g.user_id = uid
       and (g.course_id is null
            or g.course_id not in (select learning.courses_barred(uid)))
     order by g.created_at desc;
end
$$;
revoke all on function public.get_my_goals() from public;
grant execute on function public.get_my_goals() to authenticated;
