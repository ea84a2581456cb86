-- Which one-time seeds have run on this database (the demo organization of decision 0101), so
-- a second start, or a second process, does not seed again and an admin's deletions stay.
create table learning.seed_runs (
  name text primary key,
  state text not null check (state in ('running', 'done')),
  updated_at timestamptz not null default now()
);
alter table learning.seed_runs enable row level security;
revoke all on learning.seed_runs from anon, authenticated;
