-- The private data-room bucket, readable only with a live data-room grant, and the procedures
-- the data room page calls. Figures are computed from the registry and the bucket together:
-- a registered document whose file is missing counts as unavailable.
insert into storage.buckets (id, name, public, file_size_limit)
values ('data-room', 'data-room', false, 1048576)
on conflict (id) do nothing;

create policy data_room_objects_with_grant on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'data-room' and data_room.has_grant());

create or replace function data_room.require_grant() returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not data_room.has_grant() then
    raise exception 'A valid data room grant is required'
      using errcode = '42501', hint = 'Enter the access PIN to get a grant.';
  end if;
end
$$;
revoke all on function data_room.require_grant() from public;
grant execute on function data_room.require_grant() to anon, authenticated, service_role;

create or replace function public.get_data_room_documents()
returns table (
  id uuid,
  tab text,
  section_number text,
  section_title text,
  "position" int,
  name text,
  path text,
  version text,
  document_date date,
  status text,
  available boolean,
  size_bytes bigint
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform data_room.require_grant();
  return query
    select d.id, d.tab, d.section_number, d.section_title, d.position, d.name, d.path,
           d.version, d.document_date, d.status, o.id is not null,
           nullif(o.metadata ->> 'size', '')::bigint
      from data_room.documents d
      left join storage.objects o on o.bucket_id = 'data-room' and o.name = d.path
     where d.status = 'active'
     order by d.position;
end
$$;

create or replace function public.get_data_room_overview() returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  result jsonb;
begin
  perform data_room.require_grant();
  select jsonb_build_object(
           'total_documents', count(*)::int,
           'categories', count(distinct split_part(d.path, '/', 1))::int,
           'available_documents', count(o.id)::int,
           -- Rounded down: one missing file out of 35 must not read as 100%.
           'availability_percent',
             case when count(*) = 0 then 0 else floor(100.0 * count(o.id) / count(*))::int end,
           'last_updated', max(d.document_date),
           'edition', (select s.value from data_room.settings s where s.key = 'edition')
         )
    into result
    from data_room.documents d
    left join storage.objects o on o.bucket_id = 'data-room' and o.name = d.path
   where d.status = 'active';
  return result;
end
$$;

revoke all on function public.get_data_room_documents() from public;
revoke all on function public.get_data_room_overview() from public;
grant execute on function public.get_data_room_documents(), public.get_data_room_overview()
  to anon, authenticated, service_role;
