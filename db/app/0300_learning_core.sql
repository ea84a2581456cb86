-- The smallest learning schema the platform metrics count: courses, enrolments with progress,
-- notes, flashcards, and one last-activity row per user. The learning features grow these
-- tables later; `if not exists` keeps this file harmless if they arrive first.

create table if not exists public.courses (
  id uuid primary key default gen_random_uuid(),
  title text not null check (length(trim(title)) between 1 and 200),
  description text,
  owner_id uuid references auth.users (id) on delete set null default auth.uid(),
  published boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists courses_owner_idx on public.courses (owner_id);

create table if not exists public.enrollments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade default auth.uid(),
  course_id uuid not null references public.courses (id) on delete cascade,
  -- 0 = not started, 1..99 = in progress, 100 = completed; the completion split reads this.
  progress_percent smallint not null default 0 check (progress_percent between 0 and 100),
  enrolled_at timestamptz not null default now(),
  completed_at timestamptz,
  unique (user_id, course_id)
);
create index if not exists enrollments_course_idx on public.enrollments (course_id);

create table if not exists public.notes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade default auth.uid(),
  course_id uuid references public.courses (id) on delete set null,
  title text not null default '',
  body text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists notes_user_idx on public.notes (user_id);

create table if not exists public.flashcards (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade default auth.uid(),
  course_id uuid references public.courses (id) on delete set null,
  front text not null check (length(front) between 1 and 2000),
  back text not null check (length(back) between 1 and 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists flashcards_user_idx on public.flashcards (user_id);

-- One row per user, moved forward when the user does something. Indexed by time so "active in
-- the last N hours" is an index range, never a scan of all users.
create table if not exists public.user_activity (
  user_id uuid primary key references auth.users (id) on delete cascade,
  last_active_at timestamptz not null default now()
);
create index if not exists user_activity_last_active_idx on public.user_activity (last_active_at);

alter table public.courses enable row level security;
alter table public.enrollments enable row level security;
alter table public.notes enable row level security;
alter table public.flashcards enable row level security;
alter table public.user_activity enable row level security;

-- Courses: published ones are public; owners see and manage their own.
create policy courses_read on public.courses for select to anon, authenticated
  using (published or owner_id = auth.uid());
create policy courses_insert on public.courses for insert to authenticated
  with check (owner_id = auth.uid());
create policy courses_update on public.courses for update to authenticated
  using (owner_id = auth.uid()) with check (owner_id = auth.uid());
create policy courses_delete on public.courses for delete to authenticated
  using (owner_id = auth.uid());

-- Enrolments: a learner manages their own; a course owner may read the course's enrolments.
create policy enrollments_read on public.enrollments for select to authenticated
  using (
    user_id = auth.uid()
    or exists (select 1 from public.courses c where c.id = course_id and c.owner_id = auth.uid())
  );
create policy enrollments_insert on public.enrollments for insert to authenticated
  with check (user_id = auth.uid());
create policy enrollments_update on public.enrollments for update to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy enrollments_delete on public.enrollments for delete to authenticated
  using (user_id = auth.uid());

create policy notes_owner on public.notes for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy flashcards_owner on public.flashcards for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());

-- Activity is written only through platform.touch_user_activity (SECURITY DEFINER), so a
-- client cannot forge another user's activity or its own timestamps.
create policy user_activity_read_own on public.user_activity for select to authenticated
  using (user_id = auth.uid());
revoke insert, update, delete, truncate on public.user_activity from anon, authenticated;
