-- The daily cleanup of idle anonymous accounts (decision 0059) finds them without reading
-- every account: only anonymous ones are in this index, oldest first.
create index if not exists users_anonymous on auth.users (created_at) where is_anonymous;
