-- General Knowledge mode searches the course material offline (issue 13, decision 0211):
-- Markdown lessons, and the teaching material of bank questions (prompt, worked example and
-- the prerequisite's refresher, never the answers or key points, which only teachers read).
-- Expression indexes over the same text the search function reads.

create or replace function learning.lesson_search_text(title text, body text) returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A')
      || setweight(to_tsvector('english'::regconfig, coalesce(left(body, 200000), '')), 'B')
$$;

create or replace function learning.question_search_text(prompt text, worked text, prerequisite jsonb)
returns tsvector
language sql immutable parallel safe
set search_path = ''
as $$
  select setweight(to_tsvector('english'::regconfig, coalesce(prompt, '')), 'B')
      || setweight(to_tsvector('english'::regconfig, coalesce(prerequisite ->> 'concept', '')), 'A')
      || setweight(to_tsvector('english'::regconfig,
           coalesce(worked, '') || ' ' || coalesce(prerequisite ->> 'refresher', '')), 'C')
$$;

create index lessons_search_idx on public.lessons
  using gin (learning.lesson_search_text(title, body)) where kind = 'markdown';
create index questions_search_idx on public.questions
  using gin (learning.question_search_text(prompt, worked_example, prerequisite));
