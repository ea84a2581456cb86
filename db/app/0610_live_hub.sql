-- The live hub (issue 15, decision 0310): a live room per course with a persisted chat that
-- instructors moderate (remove a message, mute a learner), the instructor's live question (a
-- poll or a short question, one answer per learner, tallies the whole room sees) and a
-- raise-hand queue. The room of a course is open to its enrolled learners and to whoever
-- teaches it (its instructors, the organization's admins and owner, a personal course's owner:
-- learning.teaches); nobody else reads or writes anything of it. Presence is not stored: it
-- lives in the realtime channel.

-- Whether the user is in the course's room: teaches it, or is enrolled (and not barred).
create or replace function learning.in_live_room(uid uuid, course uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select uid is not null and (learning.teaches(uid, course) or learning.enrolled(uid, course))
$$;

-- The name the room shows for a user: their profile's full name, else their display name. Learners may not
-- read each other's profiles, so rows carry the name they were written with.
create or replace function learning.live_name(uid uuid) returns text
language sql stable security definer
set search_path = ''
as $$
  select coalesce(nullif(trim(p.full_name), ''), nullif(trim(p.display_name), ''), 'Someone')
    from public.profiles p where p.id = uid
  union all select 'Someone'
  limit 1
$$;

-- ----- tables --------------------------------------------------------------------------------

create table public.live_messages (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  author_name text not null default '',
  -- Whether the author teaches the course when they wrote it: the screen marks instructors.
  from_instructor boolean not null default false,
  body text not null,
  created_at timestamptz not null default now(),
  -- A message an instructor removes keeps its place; its text is gone.
  removed_at timestamptz,
  removed_by uuid references auth.users (id) on delete set null,
  -- Written by the demo seed (decision 0101): the screen marks it as a sample.
  sample boolean not null default false,
  constraint live_messages_body check (
    (removed_at is null and char_length(btrim(body)) between 1 and 2000)
    or (removed_at is not null and body = '')
  )
);
create index live_messages_course_idx on public.live_messages (course_id, created_at, id);

create table public.live_mutes (
  course_id uuid not null references public.courses (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  user_name text not null default '',
  muted_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (course_id, user_id)
);

create table public.live_questions (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  kind text not null check (kind in ('poll', 'short')),
  prompt text not null check (char_length(btrim(prompt)) between 1 and 500),
  -- A poll's choices: 2 to 6 texts of 1 to 200 characters; a short question has none.
  choices jsonb not null default '[]',
  status text not null default 'open' check (status in ('open', 'closed')),
  -- Maintained by the answers' trigger, never by clients: counts per choice (a poll) and in all.
  tally integer[] not null default '{}',
  answers integer not null default 0,
  opened_at timestamptz not null default now(),
  closed_at timestamptz,
  constraint live_questions_choices check (
    jsonb_typeof(choices) = 'array'
    and case kind
      when 'poll' then jsonb_array_length(choices) between 2 and 6
      else jsonb_array_length(choices) = 0
    end
  ),
  constraint live_questions_closed check ((status = 'closed') = (closed_at is not null))
);
-- One open question per room.
create unique index live_questions_one_open on public.live_questions (course_id)
  where status = 'open';
create index live_questions_course_idx on public.live_questions (course_id, opened_at desc);

create table public.live_answers (
  id uuid primary key default gen_random_uuid(),
  question_id uuid not null references public.live_questions (id) on delete cascade,
  course_id uuid not null references public.courses (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  user_name text not null default '',
  choice integer,
  text text,
  created_at timestamptz not null default now(),
  -- One answer per learner and question, whoever writes it.
  constraint live_answers_once unique (question_id, user_id),
  constraint live_answers_shape check (
    (choice is not null and text is null and choice >= 0)
    or (choice is null and text is not null and char_length(btrim(text)) between 1 and 500)
  )
);
create index live_answers_course_idx on public.live_answers (course_id);

create table public.live_hands (
  course_id uuid not null references public.courses (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  user_name text not null default '',
  raised_at timestamptz not null default now(),
  primary key (course_id, user_id)
);
create index live_hands_queue_idx on public.live_hands (course_id, raised_at);

-- ----- what the database sets, whatever the client sends ------------------------------------
-- A signed-in client's rows are stamped with who wrote them and when. Writes without a user
-- (the server, the demo seed, the service role) keep the values they give, so moderation can
-- be undone and sample rooms seeded.

create or replace function learning.live_message_stamp() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    if tg_op = 'INSERT' and new.author_name = '' then
      new.author_name := learning.live_name(new.user_id);
    end if;
    return new;
  end if;
  if tg_op = 'INSERT' then
    new.user_id := auth.uid();
    new.author_name := learning.live_name(new.user_id);
    new.from_instructor := learning.teaches(new.user_id, new.course_id);
    new.sample := false;
    new.created_at := now();
    new.removed_at := null;
    new.removed_by := null;
    new.body := btrim(new.body);
    return new;
  end if;
  -- An update is a removal: nothing else of a message changes.
  if new.course_id <> old.course_id or new.user_id <> old.user_id
     or new.created_at <> old.created_at or new.author_name <> old.author_name
     or new.from_instructor <> old.from_instructor then
    raise exception 'Only removing a message is possible' using errcode = '22023';
  end if;
  if old.removed_at is not null then
    return old;
  end if;
  new.body := '';
  new.removed_at := now();
  new.removed_by := auth.uid();
  return new;
end
$$;
create trigger live_message_stamp before insert or update on public.live_messages
  for each row execute function learning.live_message_stamp();

create or replace function learning.live_named_row() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' and new.user_id is not null then
    new.user_name := learning.live_name(new.user_id);
  end if;
  return new;
end
$$;
create trigger live_mutes_named before insert on public.live_mutes
  for each row execute function learning.live_named_row();
create trigger live_hands_named before insert on public.live_hands
  for each row execute function learning.live_named_row();

create or replace function learning.live_question_stamp() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    if tg_op = 'INSERT' and new.kind = 'poll' and cardinality(new.tally) = 0 then
      new.tally := array_fill(0, array[jsonb_array_length(new.choices)]);
    end if;
    return new;
  end if;
  if tg_op = 'INSERT' then
    new.created_by := auth.uid();
    new.status := 'open';
    new.opened_at := now();
    new.closed_at := null;
    new.answers := 0;
    new.tally := case when new.kind = 'poll'
                      then array_fill(0, array[jsonb_array_length(new.choices)])
                      else '{}' end;
    if new.kind = 'poll' and exists (
      select 1 from jsonb_array_elements(new.choices) c
       where jsonb_typeof(c) <> 'string' or char_length(btrim(c #>> '{}')) not between 1 and 200
    ) then
      raise exception 'Each choice is a text of 1 to 200 characters' using errcode = '22023';
    end if;
    return new;
  end if;
  -- The tally trigger's own update (a nested trigger) passes as it is.
  if pg_trigger_depth() > 1 then
    return new;
  end if;
  -- Instructors only close a question: its text, choices and counts stay as they were.
  if new.status = 'open' and old.status = 'closed' then
    raise exception 'A closed question stays closed; ask a new one' using errcode = '22023';
  end if;
  new.course_id := old.course_id;
  new.kind := old.kind;
  new.prompt := old.prompt;
  new.choices := old.choices;
  new.created_by := old.created_by;
  new.opened_at := old.opened_at;
  new.tally := old.tally;
  new.answers := old.answers;
  new.closed_at := case when new.status = 'closed' then coalesce(old.closed_at, now()) end;
  return new;
end
$$;
create trigger live_question_stamp before insert or update on public.live_questions
  for each row execute function learning.live_question_stamp();

-- An answer: stamped with its author, refused unless the question is open, of the shape the
-- question asks for; then counted on the question (so the room sees the tally change).
create or replace function learning.live_answer_stamp() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  q public.live_questions;
begin
  new.user_id := coalesce(auth.uid(), new.user_id);
  new.user_name := learning.live_name(new.user_id);
  new.created_at := now();
  select * into q from public.live_questions where id = new.question_id for update;
  if not found then
    raise exception 'No such question' using errcode = 'P0002';
  end if;
  new.course_id := q.course_id;
  if q.status <> 'open' then
    raise exception 'This question is closed' using errcode = '22023';
  end if;
  if q.kind = 'poll' then
    if new.choice is null or new.text is not null
       or new.choice >= jsonb_array_length(q.choices) then
      raise exception 'Choose one of the poll''s choices' using errcode = '22023';
    end if;
  elsif new.choice is not null or new.text is null then
    raise exception 'Answer this question in words' using errcode = '22023';
  else
    new.text := btrim(new.text);
  end if;
  return new;
end
$$;
create trigger live_answer_stamp before insert on public.live_answers
  for each row execute function learning.live_answer_stamp();

create or replace function learning.live_answer_count() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.choice is null then
    update public.live_questions set answers = answers + 1 where id = new.question_id;
  else
    update public.live_questions
       set answers = answers + 1, tally[new.choice + 1] = tally[new.choice + 1] + 1
     where id = new.question_id;
  end if;
  return null;
end
$$;
create trigger live_answer_count after insert on public.live_answers
  for each row execute function learning.live_answer_count();

-- ----- row-level security --------------------------------------------------------------------

alter table public.live_messages enable row level security;
alter table public.live_mutes enable row level security;
alter table public.live_questions enable row level security;
alter table public.live_answers enable row level security;
alter table public.live_hands enable row level security;

revoke all on public.live_messages, public.live_mutes, public.live_questions,
  public.live_answers, public.live_hands from anon, authenticated;
grant select, insert on public.live_messages to authenticated;
grant update (body) on public.live_messages to authenticated;
grant select, insert, delete on public.live_mutes to authenticated;
grant select, insert on public.live_questions to authenticated;
grant update (status) on public.live_questions to authenticated;
grant select, insert on public.live_answers to authenticated;
grant select, insert, delete on public.live_hands to authenticated;
grant all on public.live_messages, public.live_mutes, public.live_questions,
  public.live_answers, public.live_hands to service_role;

-- The room's members read its chat, questions and queue; sets computed once per statement.
create policy live_messages_read on public.live_messages for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );
-- A member posts as themself; a muted learner does not (an instructor is never muted).
create policy live_messages_insert on public.live_messages for insert to authenticated
  with check (
    user_id = auth.uid()
    and (
      learning.teaches(auth.uid(), course_id)
      or (learning.enrolled(auth.uid(), course_id)
          and not exists (
            select 1 from public.live_mutes m
             where m.course_id = live_messages.course_id and m.user_id = auth.uid()
          ))
    )
  );
-- Removing a message (the trigger empties it) is the course's instructors' work.
create policy live_messages_remove on public.live_messages for update to authenticated
  using (learning.teaches(auth.uid(), course_id))
  with check (learning.teaches(auth.uid(), course_id));

-- Instructors see and manage the room's mutes; a learner sees whether they are muted.
create policy live_mutes_read on public.live_mutes for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or (user_id = (select auth.uid())
        and course_id in (select learning.courses_enrolled((select auth.uid()))))
  );
create policy live_mutes_insert on public.live_mutes for insert to authenticated
  with check (
    learning.teaches(auth.uid(), course_id)
    and learning.enrolled(user_id, course_id)
    and not learning.teaches(user_id, course_id)
  );
create policy live_mutes_delete on public.live_mutes for delete to authenticated
  using (learning.teaches(auth.uid(), course_id));

create policy live_questions_read on public.live_questions for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );
create policy live_questions_insert on public.live_questions for insert to authenticated
  with check (learning.teaches(auth.uid(), course_id));
create policy live_questions_close on public.live_questions for update to authenticated
  using (learning.teaches(auth.uid(), course_id))
  with check (learning.teaches(auth.uid(), course_id));

-- Answers: instructors read the room's; a learner reads and gives their own (the trigger
-- fills in the course from the question, so the check sees the real one).
create policy live_answers_read on public.live_answers for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or (user_id = (select auth.uid())
        and course_id in (select learning.courses_enrolled((select auth.uid()))))
  );
create policy live_answers_insert on public.live_answers for insert to authenticated
  with check (user_id = auth.uid() and learning.enrolled(auth.uid(), course_id));

-- The raise-hand queue: the room sees it; a learner raises and lowers their own hand; an
-- instructor lowers anyone's (they took the question).
create policy live_hands_read on public.live_hands for select to authenticated
  using (
    course_id in (select learning.courses_taught((select auth.uid())))
    or course_id in (select learning.courses_enrolled((select auth.uid())))
  );
create policy live_hands_insert on public.live_hands for insert to authenticated
  with check (user_id = auth.uid() and learning.enrolled(auth.uid(), course_id));
create policy live_hands_delete on public.live_hands for delete to authenticated
  using (user_id = auth.uid() or learning.teaches(auth.uid(), course_id));

revoke all on function learning.in_live_room(uuid, uuid), learning.live_name(uuid),
  learning.live_message_stamp(), learning.live_named_row(), learning.live_question_stamp(),
  learning.live_answer_stamp(), learning.live_answer_count()
  from public, anon;
grant execute on function learning.in_live_room(uuid, uuid) to authenticated, service_role;

-- ----- the room's realtime channel ---------------------------------------------------------
-- Presence (who is here, with a status) travels on the private channel `live:<course id>`.
-- Realtime Authorization (decision 0300) asks these policies as the joining user: only the
-- room's members join it and track themselves there; nobody else learns who is in the room.

create or replace function learning.live_topic_course(topic text) returns uuid
language sql immutable
set search_path = ''
as $$
  select case
    when topic ~ '^live:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    then substring(topic from 6)::uuid
  end
$$;
grant execute on function learning.live_topic_course(text) to authenticated, service_role;

create policy live_room_join on realtime.messages for select to authenticated
  using (
    extension in ('broadcast', 'presence')
    and learning.in_live_room(auth.uid(), learning.live_topic_course(realtime.topic()))
  );
create policy live_room_presence on realtime.messages for insert to authenticated
  with check (
    extension = 'presence'
    and learning.in_live_room(auth.uid(), learning.live_topic_course(realtime.topic()))
  );

-- The audit triggers and retention rules of these tables are in 0799 (the audit log's
-- functions arrive with 0700, after this file on a new database).
