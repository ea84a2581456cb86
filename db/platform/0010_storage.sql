-- Supabase Storage's schema: buckets and object metadata under row-level security. The bytes
-- live on disk under DATA_DIR/storage, in files named by `file_id` (never by the object name).
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  public boolean not null default false,
  -- Bytes; null means only the gateway's global cap applies.
  file_size_limit bigint check (file_size_limit is null or file_size_limit > 0),
  -- Exact types ("image/png") or wildcards ("image/*"); null allows every type.
  allowed_mime_types text[],
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text not null references storage.buckets (id),
  name text not null,
  owner uuid,
  -- System metadata as Supabase keeps it: size, mimetype, eTag, cacheControl, lastModified.
  metadata jsonb,
  -- Metadata the uploader supplied (x-metadata header or the multipart "metadata" field).
  user_metadata jsonb,
  -- Name of the file holding the bytes; a new file on every overwrite.
  file_id uuid not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_accessed_at timestamptz not null default now(),
  constraint objects_bucket_name_unique unique (bucket_id, name)
);
create index if not exists objects_name_prefix on storage.objects (bucket_id, name text_pattern_ops);

-- RLS on and no policies: nobody but service_role (BYPASSRLS) sees anything until the app
-- adds policies such as `bucket_id = 'avatars' and owner = auth.uid()`.
alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
grant select, insert, update, delete on storage.buckets, storage.objects
  to anon, authenticated, service_role;

-- Path helpers with Supabase's names and results, for use in policies.
create or replace function storage.foldername(name text) returns text[]
language sql immutable
as $$
  select (string_to_array(name, '/'))[1:array_length(string_to_array(name, '/'), 1) - 1]
$$;

create or replace function storage.filename(name text) returns text
language sql immutable
as $$
  select (string_to_array(name, '/'))[array_length(string_to_array(name, '/'), 1)]
$$;

create or replace function storage.extension(name text) returns text
language sql immutable
as $$
  select reverse(split_part(reverse(storage.filename(name)), '.', 1))
$$;

grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role;
