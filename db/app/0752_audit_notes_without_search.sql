-- Notes gained a generated full-text `search` column (0421, notes and card sources): it is
-- derived from the title, tags and body already recorded, so the audit log leaves it out.
select audit.attach('public.notes', 'providing the learning service', 'contract', array['search']);
