-- The private course-files bucket: PDF and ePub lessons and other course material, stored
-- under the course's id (`<course id>/<name>`). Enrolled learners and whoever teaches the
-- course read; whoever teaches writes.
insert into storage.buckets (id, name, public, file_size_limit)
values ('course-files', 'course-files', false, 104857600)
on conflict (id) do nothing;

-- The course an object belongs to, or null when its first folder is not a course id.
create or replace function learning.object_course(name text) returns uuid
language plpgsql immutable
set search_path = ''
as $$
begin
  if split_part(name, '/', 1) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return split_part(name, '/', 1)::uuid;
  end if;
  return null;
end
$$;
revoke all on function learning.object_course(text) from public;
grant execute on function learning.object_course(text) to anon, authenticated, service_role;

create policy course_files_read on storage.objects for select to authenticated
  using (
    bucket_id = 'course-files'
    and (learning.teaches(auth.uid(), learning.object_course(name))
         or learning.enrolled(auth.uid(), learning.object_course(name)))
  );
create policy course_files_insert on storage.objects for insert to authenticated
  with check (
    bucket_id = 'course-files' and learning.teaches(auth.uid(), learning.object_course(name))
  );
create policy course_files_update on storage.objects for update to authenticated
  using (bucket_id = 'course-files' and learning.teaches(auth.uid(), learning.object_course(name)))
  with check (
    bucket_id = 'course-files' and learning.teaches(auth.uid(), learning.object_course(name))
  );
create policy course_files_delete on storage.objects for delete to authenticated
  using (bucket_id = 'course-files' and learning.teaches(auth.uid(), learning.object_course(name)));
