-- The learning app's data model (issue 11, decision 0100): organizations and their boards,
-- memberships with roles, courses with modules, lessons and a question bank, enrolments,
-- progress, assignments, quizzes and attempts, course discussion. Policies are in 0322,
-- procedures in 0323. Composite foreign keys such as (module_id, course_id) make a row that
-- mixes two courses (or two organizations) impossible, whoever writes it.

create table public.organizations (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(trim(name)) between 1 and 200),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 63),
  tier text not null default 'free' check (tier in ('free', 'pro', 'enterprise')),
  -- The top-level administrator: manages boards and sees the whole organization.
  owner_id uuid references auth.users (id) on delete set null,
  -- Wrong answers in a row before the study coach offers a study session.
  struggle_threshold smallint not null default 3 check (struggle_threshold between 1 and 10),
  -- Further organization settings the screens add; always a JSON object.
  settings jsonb not null default '{}'::jsonb check (jsonb_typeof(settings) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index organizations_owner_idx on public.organizations (owner_id);

create table public.boards (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (length(trim(name)) between 1 and 200),
  slug text not null check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 63),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, slug),
  unique (id, organization_id)
);

create table public.memberships (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- null: the whole organization; a board: that faculty (an org_admin of a board is its
  -- board admin).
  board_id uuid,
  role text not null check (role in ('learner', 'instructor', 'org_admin', 'compliance_officer')),
  active boolean not null default true,
  created_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (board_id, organization_id)
    references public.boards (id, organization_id) on delete cascade
);
create unique index memberships_unique on public.memberships
  (user_id, organization_id, coalesce(board_id, '00000000-0000-0000-0000-000000000000'::uuid), role);
-- The role checks: "does this user hold an active role in this organization".
create index memberships_check_idx on public.memberships (user_id, organization_id, role)
  where active;
create index memberships_org_idx on public.memberships (organization_id, role);
create index memberships_board_idx on public.memberships (board_id) where board_id is not null;

-- Courses (0300 made the table): an organization's course (organization_id set, taught by
-- course_instructors, distributed to boards) or a personal course (organization_id null,
-- owned by owner_id).
alter table public.courses
  add column organization_id uuid references public.organizations (id) on delete cascade,
  add column slug text check (slug is null or (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 80)),
  add column subject text not null default '' check (length(subject) <= 120),
  add column visibility text not null default 'private'
    check (visibility in ('private', 'organization', 'public')),
  add column sample boolean not null default false;
alter table public.courses
  add constraint courses_description_length check (description is null or length(description) <= 5000),
  add constraint courses_id_org_unique unique (id, organization_id);
create unique index courses_org_slug_unique on public.courses (organization_id, slug)
  where organization_id is not null and slug is not null;
create index courses_org_idx on public.courses (organization_id);
create index courses_public_idx on public.courses (visibility) where published;

create table public.course_boards (
  course_id uuid not null,
  board_id uuid not null,
  organization_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (course_id, board_id),
  foreign key (course_id, organization_id)
    references public.courses (id, organization_id) on delete cascade,
  foreign key (board_id, organization_id)
    references public.boards (id, organization_id) on delete cascade
);
create index course_boards_board_idx on public.course_boards (board_id);

create table public.course_instructors (
  course_id uuid not null references public.courses (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  added_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  primary key (course_id, user_id)
);
-- "Which courses does this user teach" (the instructor's dashboard and the role check).
create index course_instructors_user_idx on public.course_instructors (user_id, course_id);

create table public.modules (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  position int not null check (position >= 1),
  slug text check (slug is null or (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 80)),
  title text not null check (length(trim(title)) between 1 and 200),
  summary text not null default '' check (length(summary) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, course_id),
  -- Checked at the end of each statement, so one UPDATE can permute the order.
  constraint modules_position_unique unique (course_id, position) deferrable initially immediate
);
create unique index modules_slug_unique on public.modules (course_id, slug) where slug is not null;

create table public.lessons (
  id uuid primary key default gen_random_uuid(),
  module_id uuid not null,
  course_id uuid not null,
  position int not null check (position >= 1),
  slug text check (slug is null or (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 80)),
  title text not null check (length(trim(title)) between 1 and 200),
  kind text not null check (kind in ('markdown', 'pdf', 'epub', 'video')),
  -- Markdown lessons: the body, at most 1 MiB.
  body text check (body is null or octet_length(body) <= 1048576),
  -- PDF and ePub lessons: the object name in the private course-files bucket, under the
  -- course's id (`<course id>/…`), which is what the storage policies check.
  file_path text check (file_path is null or (length(file_path) <= 1024 and file_path not like '%..%')),
  -- Video lessons: an https address.
  video_url text check (video_url is null or (video_url ~ '^https://[^\s]+$' and length(video_url) <= 2048)),
  estimated_minutes smallint not null default 10 check (estimated_minutes between 1 and 600),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, course_id),
  constraint lessons_position_unique unique (module_id, position) deferrable initially immediate,
  foreign key (module_id, course_id) references public.modules (id, course_id) on delete cascade,
  constraint lessons_content_matches_kind check (
    case kind
      when 'markdown' then body is not null and file_path is null and video_url is null
      when 'video' then video_url is not null and body is null and file_path is null
      else file_path is not null and body is null and video_url is null
        and split_part(file_path, '/', 1) = course_id::text
    end
  )
);
create unique index lessons_slug_unique on public.lessons (module_id, slug) where slug is not null;
create index lessons_course_idx on public.lessons (course_id);

-- The shape rules of one bank question (issue 11; the same as content/courses/*/questions.json).
create or replace function learning.valid_answer(q_type text, choices jsonb, answer jsonb)
returns boolean
language sql immutable
set search_path = ''
as $$
  select case q_type
    when 'multiple_choice' then
      jsonb_typeof(choices) = 'array'
      and jsonb_array_length(choices) between 3 and 5
      and not exists (
        select 1 from jsonb_array_elements(choices) c
         where jsonb_typeof(c -> 'id') is distinct from 'string'
            or jsonb_typeof(c -> 'text') is distinct from 'string'
      )
      and (select count(distinct c ->> 'id') from jsonb_array_elements(choices) c)
          = jsonb_array_length(choices)
      and jsonb_typeof(answer -> 'choice') = 'string'
      and exists (select 1 from jsonb_array_elements(choices) c where c ->> 'id' = answer ->> 'choice')
    when 'numeric' then
      choices is null
      and jsonb_typeof(answer -> 'value') = 'number'
      and jsonb_typeof(answer -> 'tolerance') = 'number'
      and (answer ->> 'tolerance')::numeric >= 0
      and jsonb_typeof(answer -> 'unit') = 'string'
    when 'short_text' then
      choices is null
      and jsonb_typeof(answer -> 'text') = 'string'
      and length(trim(answer ->> 'text')) > 0
    else false
  end
$$;

create or replace function learning.string_array_between(value jsonb, low int, high int)
returns boolean
language sql immutable
set search_path = ''
as $$
  select jsonb_typeof(value) = 'array'
     and jsonb_array_length(value) between low and high
     and not exists (
       select 1 from jsonb_array_elements(value) e
        where jsonb_typeof(e) <> 'string' or length(trim(e #>> '{}')) = 0
     )
$$;

create or replace function learning.valid_misconceptions(value jsonb) returns boolean
language sql immutable
set search_path = ''
as $$
  select jsonb_typeof(value) = 'array'
     and jsonb_array_length(value) between 1 and 3
     and not exists (
       select 1 from jsonb_array_elements(value) m
        where jsonb_typeof(m -> 'misconception') is distinct from 'string'
           or jsonb_typeof(m -> 'feedback') is distinct from 'string'
           or (m ? 'choice' and jsonb_typeof(m -> 'choice') <> 'string')
     )
$$;

create or replace function learning.valid_prerequisite(value jsonb) returns boolean
language sql immutable
set search_path = ''
as $$
  select jsonb_typeof(value) = 'object'
     and jsonb_typeof(value -> 'concept') = 'string'
     and jsonb_typeof(value -> 'refresher') = 'string'
     and jsonb_typeof(value -> 'questions') = 'array'
     and jsonb_array_length(value -> 'questions') between 2 and 4
     and not exists (
       select 1 from jsonb_array_elements(value -> 'questions') q
        where jsonb_typeof(q -> 'prompt') is distinct from 'string'
           or not coalesce(learning.valid_answer(q ->> 'type', q -> 'choices', q -> 'answer'), false)
     )
$$;

create table public.questions (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null,
  module_id uuid not null,
  -- Stable name within the course (the content files' "id").
  slug text not null check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 80),
  type text not null check (type in ('multiple_choice', 'numeric', 'short_text')),
  prompt text not null check (length(trim(prompt)) between 1 and 20000),
  -- multiple_choice: [{ id, text }] (3–5); otherwise null.
  choices jsonb,
  -- multiple_choice { choice }, numeric { value, tolerance, unit }, short_text { text }.
  answer jsonb not null,
  key_points jsonb not null check (learning.string_array_between(key_points, 2, 5)),
  -- Ordered from least to most revealing.
  hints jsonb not null check (learning.string_array_between(hints, 2, 4)),
  worked_example text not null check (length(trim(worked_example)) between 1 and 20000),
  -- [{ misconception, feedback, choice? }] (1–3); `choice` ties feedback to a wrong option.
  misconceptions jsonb not null check (learning.valid_misconceptions(misconceptions)),
  difficulty smallint not null check (difficulty between 1 and 3),
  -- { concept, refresher (Markdown), questions: [2–4 of { prompt, type, choices?, answer }] }
  prerequisite jsonb not null check (learning.valid_prerequisite(prerequisite)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (course_id, slug),
  unique (id, course_id),
  foreign key (module_id, course_id) references public.modules (id, course_id) on delete cascade,
  constraint questions_answer_matches_type check (learning.valid_answer(type, choices, answer))
);
create index questions_module_idx on public.questions (module_id);

-- Enrolments (0300 made the table; the platform metrics count it under this name).
alter table public.enrollments
  add column status text not null default 'active' check (status in ('active', 'completed', 'dropped')),
  add column enrolled_by uuid references auth.users (id) on delete set null default auth.uid(),
  add column updated_at timestamptz not null default now();
-- The learner's dashboard: "my enrolments, newest first".
create index enrollments_user_idx on public.enrollments (user_id, enrolled_at desc);

create table public.lesson_progress (
  user_id uuid not null references auth.users (id) on delete cascade default auth.uid(),
  lesson_id uuid not null,
  course_id uuid not null,
  status text not null default 'in_progress'
    check (status in ('not_started', 'in_progress', 'completed')),
  -- Where the reader was: a scroll fraction, a PDF page, an ePub CFI, a video second.
  position jsonb check (position is null or (jsonb_typeof(position) = 'object' and length(position::text) <= 2000)),
  time_spent_seconds int not null default 0 check (time_spent_seconds between 0 and 31536000),
  completed_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (user_id, lesson_id),
  foreign key (lesson_id, course_id) references public.lessons (id, course_id) on delete cascade,
  check ((status = 'completed') = (completed_at is not null))
);
-- An instructor's progress table reads one course's rows; the learner's own rows come by key.
create index lesson_progress_course_idx on public.lesson_progress (course_id, user_id);
create index lesson_progress_recent_idx on public.lesson_progress (user_id, updated_at desc);

create table public.assessments (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null,
  module_id uuid not null,
  title text not null check (length(trim(title)) between 1 and 200),
  instructions text not null default '' check (length(instructions) <= 5000),
  published boolean not null default false,
  max_attempts smallint not null default 1 check (max_attempts between 1 and 20),
  -- No attempt is accepted after this moment; null: always open.
  due_at timestamptz,
  created_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, course_id),
  foreign key (module_id, course_id) references public.modules (id, course_id) on delete cascade
);
create index assessments_course_idx on public.assessments (course_id);

-- The bank questions a quiz draws, in order; the foreign keys keep them in the quiz's course.
create table public.assessment_questions (
  assessment_id uuid not null,
  question_id uuid not null,
  course_id uuid not null,
  position int not null check (position >= 1),
  primary key (assessment_id, question_id),
  foreign key (assessment_id, course_id) references public.assessments (id, course_id) on delete cascade,
  foreign key (question_id, course_id) references public.questions (id, course_id) on delete cascade
);
create index assessment_questions_question_idx on public.assessment_questions (question_id);

create table public.assignments (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  lesson_id uuid,
  assessment_id uuid,
  title text not null check (length(trim(title)) between 1 and 200),
  instructions text not null default '' check (length(instructions) <= 5000),
  due_at timestamptz not null,
  assigned_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (lesson_id, course_id) references public.lessons (id, course_id) on delete cascade,
  foreign key (assessment_id, course_id) references public.assessments (id, course_id) on delete cascade,
  check ((lesson_id is null) <> (assessment_id is null))
);
create index assignments_course_due_idx on public.assignments (course_id, due_at);

create table public.assessment_attempts (
  id uuid primary key default gen_random_uuid(),
  assessment_id uuid not null,
  course_id uuid not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  attempt_number smallint not null check (attempt_number >= 1),
  -- { "<question id>": { choice } | { value } | { text } }
  answers jsonb not null check (jsonb_typeof(answers) = 'object'),
  -- [{ question_id, verdict: correct|incorrect|pending, feedback }]
  verdicts jsonb not null check (jsonb_typeof(verdicts) = 'array'),
  status text not null check (status in ('awaiting_grading', 'graded')),
  -- Percent of questions answered correctly; null until every question is graded.
  score numeric(5, 2) check (score is null or score between 0 and 100),
  feedback text check (feedback is null or length(feedback) <= 10000),
  graded_by uuid references auth.users (id) on delete set null,
  graded_at timestamptz,
  started_at timestamptz not null default now(),
  submitted_at timestamptz not null default now(),
  unique (assessment_id, user_id, attempt_number),
  foreign key (assessment_id, course_id) references public.assessments (id, course_id) on delete cascade
);
create index assessment_attempts_user_idx on public.assessment_attempts (user_id, submitted_at desc);
create index assessment_attempts_course_idx on public.assessment_attempts (course_id, status);

create table public.course_posts (
  id uuid primary key default gen_random_uuid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  author_id uuid not null references auth.users (id) on delete cascade default auth.uid(),
  -- A reply names the thread's first post; threads are one level deep.
  parent_id uuid,
  body text not null check (length(trim(body)) between 1 and 10000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, course_id),
  foreign key (parent_id, course_id) references public.course_posts (id, course_id) on delete cascade
);
create index course_posts_course_idx on public.course_posts (course_id, created_at desc);
create index course_posts_parent_idx on public.course_posts (parent_id) where parent_id is not null;

-- updated_at follows every update.
create or replace function learning.touch_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- Columns that say where a row belongs never move: a row changes place by being deleted and
-- created again, so an update policy needs to look at one organization only. (Columns that a
-- foreign key sets to null when a user is deleted stay out of these lists.)
create or replace function learning.keep_columns() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  column_name text;
begin
  foreach column_name in array tg_argv loop
    if (to_jsonb(old) -> column_name) is distinct from (to_jsonb(new) -> column_name) then
      raise exception '% cannot be changed on %', column_name, tg_table_name
        using errcode = '42501', hint = 'Create a new row instead.';
    end if;
  end loop;
  return new;
end
$$;

do $$
declare
  t text;
begin
  foreach t in array array['organizations', 'boards', 'memberships', 'courses', 'modules',
    'lessons', 'questions', 'enrollments', 'assessments', 'assignments', 'course_posts'] loop
    execute format(
      'create trigger touch_updated_at before update on public.%I
         for each row execute function learning.touch_updated_at()', t);
  end loop;
end
$$;

create trigger keep_columns before update on public.boards
  for each row execute function learning.keep_columns('organization_id');
create trigger keep_columns before update on public.memberships
  for each row execute function learning.keep_columns('user_id', 'organization_id');
create trigger keep_columns before update on public.courses
  for each row execute function learning.keep_columns('organization_id');
create trigger keep_columns before update on public.modules
  for each row execute function learning.keep_columns('course_id');
create trigger keep_columns before update on public.lessons
  for each row execute function learning.keep_columns('course_id');
create trigger keep_columns before update on public.questions
  for each row execute function learning.keep_columns('course_id');
create trigger keep_columns before update on public.enrollments
  for each row execute function learning.keep_columns('user_id', 'course_id');
create trigger keep_columns before update on public.lesson_progress
  for each row execute function learning.keep_columns('user_id', 'lesson_id', 'course_id');
create trigger keep_columns before update on public.assessments
  for each row execute function learning.keep_columns('course_id');
create trigger keep_columns before update on public.assignments
  for each row execute function learning.keep_columns('course_id');
create trigger keep_columns before update on public.course_posts
  for each row execute function learning.keep_columns('course_id', 'author_id', 'parent_id');

-- A learner's writes in the new tables count as activity, as enrolments already do.
create trigger record_activity after insert or update or delete on public.lesson_progress
  for each statement execute function platform.record_writer_activity();
create trigger record_activity after insert or update or delete on public.course_posts
  for each statement execute function platform.record_writer_activity();
create trigger record_activity after insert or update or delete on public.assessment_attempts
  for each statement execute function platform.record_writer_activity();
