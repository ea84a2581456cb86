-- A note's `search` column (0421) is a tsvector generated from its title, body and tags: the
-- audit log already holds those, so copying the derived index into every entry only doubles the
-- personal text kept. The note's audit trigger leaves it out.
select audit.attach('public.notes', 'providing the learning service', 'contract', array['search']);
