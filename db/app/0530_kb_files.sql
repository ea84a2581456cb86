-- The learner's own knowledge base (issue 13, decision 0221): the private `kb_files` bucket
-- the spec names, and the text extracted from its files, which General Knowledge mode searches
-- for their owner alone. Any signed-in user keeps files in their own folder (`<user id>/<name>`),
-- reads, replaces and deletes them there, and nobody else reads them (no instructor, no admin;
-- the service role for the server's extraction). Text is written only by the server
-- (POST /functions/v1/library/extract-own, through the library's extraction code); deleting the
-- file deletes its text.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('kb_files', 'kb_files', false, 20971520,
        array['application/pdf', 'application/epub+zip', 'text/plain', 'text/markdown'])
on conflict (id) do nothing;

create policy kb_files_read_own on storage.objects for select to authenticated
  using (bucket_id = 'kb_files' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy kb_files_insert_own on storage.objects for insert to authenticated
  with check (bucket_id = 'kb_files' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy kb_files_update_own on storage.objects for update to authenticated
  using (bucket_id = 'kb_files' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'kb_files' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy kb_files_delete_own on storage.objects for delete to authenticated
  using (bucket_id = 'kb_files' and (storage.foldername(name))[1] = (select auth.uid())::text);

create table public.kb_documents (
  -- The stored object; removing the file removes its text.
  object_id uuid primary key references storage.objects (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  file_path text not null unique check (length(file_path) between 1 and 1024),
  kind text not null check (kind in ('pdf', 'epub', 'text')),
  title text not null default '' check (length(title) <= 500),
  -- PDF pages, ePub spine items, or parts of a text file.
  section_count int not null check (section_count between 1 and 5000),
  text_chars int not null check (text_chars >= 0),
  extracted_at timestamptz not null default now()
);
create index kb_documents_user_idx on public.kb_documents (user_id);

create table public.kb_document_pages (
  object_id uuid not null references public.kb_documents (object_id) on delete cascade,
  user_id uuid not null,
  position int not null check (position >= 1),
  label text not null default '' check (length(label) <= 500),
  href text check (href is null or length(href) <= 1024),
  body text not null check (length(body) <= 2000000),
  search tsvector generated always as (to_tsvector('english', left(body, 300000))) stored,
  primary key (object_id, position)
);
create index kb_document_pages_search_idx on public.kb_document_pages using gin (search);
create index kb_document_pages_user_idx on public.kb_document_pages (user_id);

alter table public.kb_documents enable row level security;
alter table public.kb_document_pages enable row level security;

create policy kb_documents_own on public.kb_documents for select to authenticated
  using (user_id = (select auth.uid()));
create policy kb_document_pages_own on public.kb_document_pages for select to authenticated
  using (user_id = (select auth.uid()));

revoke all on public.kb_documents, public.kb_document_pages from anon, authenticated;
grant select on public.kb_documents, public.kb_document_pages to authenticated;
grant all on public.kb_documents, public.kb_document_pages to service_role;
