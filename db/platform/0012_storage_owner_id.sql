-- Supabase Storage records who uploaded an object in `owner_id` (text; the uuid `owner` is
-- deprecated there), and policies written for Supabase compare it with `auth.uid()::text`.
-- Here it follows `owner`, so both forms of a policy decide the same way.
alter table storage.objects add column owner_id text generated always as (owner::text) stored;
alter table storage.buckets add column owner_id text generated always as (owner::text) stored;
