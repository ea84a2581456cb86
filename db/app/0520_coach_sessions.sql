-- The study coach's conversations (issue 13, decision 0210): a learner's chat sessions, their
-- messages and the teaching-history log (question, approach, learner answer, verdict, time).
-- Only the ai-study-chat function writes them (it checks the session is the caller's and the
-- course is theirs to study); the learner reads and deletes their own rows. Instructors and
-- organization admins never read them: struggle insights come from an aggregate (0521).

create table public.chat_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  mode text not null check (mode in ('study', 'quiz', 'general')),
  course_id uuid references public.courses (id) on delete cascade,
  topic text check (topic is null or length(topic) <= 200),
  title text not null check (length(title) between 1 and 200),
  state text not null default 'new_question' check (state in ('new_question', 'awaiting_answer')),
  offer text check (offer in ('refresher', 'another_question', 'study_session')),
  question_id uuid references public.questions (id) on delete set null,
  -- The state machine's memory (src/server/coach/state-machine.ts: MachineState).
  machine jsonb not null default '{}'::jsonb check (jsonb_typeof(machine) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- "My sessions, latest first" (the coach page's list).
create index chat_sessions_user_idx on public.chat_sessions (user_id, updated_at desc);
create index chat_sessions_course_idx on public.chat_sessions (course_id);

create table public.chat_messages (
  id bigint generated always as identity primary key,
  session_id uuid not null references public.chat_sessions (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  sender text not null check (sender in ('learner', 'coach')),
  content text not null check (octet_length(content) <= 65536),
  -- The coach's replies: the state and offer they left the session in, and who wrote them.
  state text check (state in ('new_question', 'awaiting_answer')),
  offer text check (offer in ('refresher', 'another_question', 'study_session')),
  question_id uuid,
  engine text check (engine is null or length(engine) <= 200),
  created_at timestamptz not null default clock_timestamp()
);
create index chat_messages_session_idx on public.chat_messages (session_id, id);

create table public.coach_teaching_log (
  id bigint generated always as identity primary key,
  session_id uuid not null references public.chat_sessions (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  course_id uuid references public.courses (id) on delete cascade,
  question_id uuid references public.questions (id) on delete set null,
  approach text not null check (length(approach) between 1 and 40),
  -- The approach's step (`hint:1`): the state machine never uses one twice on a question.
  move text check (move is null or length(move) <= 200),
  learner_answer text check (learner_answer is null or octet_length(learner_answer) <= 8192),
  verdict text check (verdict in ('correct', 'partially_correct', 'incorrect')),
  created_at timestamptz not null default clock_timestamp()
);
create index coach_teaching_log_session_idx on public.coach_teaching_log (session_id, id);
create index coach_teaching_log_course_idx on public.coach_teaching_log (course_id, approach);

alter table public.chat_sessions enable row level security;
alter table public.chat_messages enable row level security;
alter table public.coach_teaching_log enable row level security;

create policy chat_sessions_own on public.chat_sessions for select to authenticated
  using (user_id = auth.uid());
create policy chat_sessions_delete_own on public.chat_sessions for delete to authenticated
  using (user_id = auth.uid());
create policy chat_messages_own on public.chat_messages for select to authenticated
  using (user_id = auth.uid());
create policy coach_teaching_log_own on public.coach_teaching_log for select to authenticated
  using (user_id = auth.uid());

revoke all on public.chat_sessions, public.chat_messages, public.coach_teaching_log
  from anon, authenticated;
grant select, delete on public.chat_sessions to authenticated;
grant select on public.chat_messages, public.coach_teaching_log to authenticated;
grant all on public.chat_sessions, public.chat_messages, public.coach_teaching_log to service_role;
