-- The live hub's personal data (decision 0310; tables in 0610): audited like every table that
-- names an account, and kept for a year. This file sits after 0700-0702, whose audit and
-- retention functions it needs; 0610 itself runs before them on a new database.
select audit.attach('public.live_messages', 'live teaching sessions', 'contract');
select audit.attach('public.live_mutes', 'live teaching sessions', 'contract');
select audit.attach('public.live_questions', 'live teaching sessions', 'contract');
select audit.attach('public.live_answers', 'live teaching sessions', 'contract');
select audit.attach('public.live_hands', 'live teaching sessions', 'contract');

insert into public.data_retention_policies
  (table_name, retention_period_days, legal_basis, action, date_column, anonymise_columns, description)
values
  ('public.live_messages', 365, 'contract', 'delete', 'created_at', '{}',
   'Live-room chat is deleted a year after it was written.'),
  ('public.live_answers', 365, 'contract', 'delete', 'created_at', '{}',
   'Answers to live questions are deleted after a year (the question keeps its tally).'),
  ('public.live_hands', 1, 'contract', 'delete', 'raised_at', '{}',
   'A raised hand left in the queue is cleared the next day.')
on conflict (table_name) do nothing;
