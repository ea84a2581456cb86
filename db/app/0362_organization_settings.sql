-- Organization settings (issue 11, decision 0136): organization admins change the name and the
-- study coach's struggle threshold; only the owner changes the slug (the organization's address,
-- which links and sign-in pages carry). The checks of 0321 stay; this trigger refuses the same
-- bad values first with a message a person can act on instead of a constraint's name.

grant update (slug) on public.organizations to authenticated;

create or replace function learning.check_organization_update() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.struggle_threshold is null or new.struggle_threshold not between 1 and 10 then
    raise exception 'The struggle threshold must be a whole number from 1 to 10'
      using errcode = '23514',
            detail = format('It was %s.', coalesce(new.struggle_threshold::text, 'empty'));
  end if;
  new.name := trim(new.name);
  if length(new.name) not between 1 and 200 then
    raise exception 'The organization''s name must be 1 to 200 characters' using errcode = '23514';
  end if;
  if new.slug is distinct from old.slug then
    if auth.role() is distinct from 'service_role'
       and not learning.is_owner(auth.uid(), old.id) then
      raise exception 'Only the organization''s owner can change its address (slug)'
        using errcode = '42501';
    end if;
    if new.slug is null or length(new.slug) > 63 or new.slug !~ '^[a-z0-9]+(-[a-z0-9]+)*$' then
      raise exception 'The address must be 1 to 63 lower-case letters, digits and single hyphens, not starting or ending with a hyphen'
        using errcode = '23514';
    end if;
    if exists (select 1 from public.organizations o where o.slug = new.slug and o.id <> old.id) then
      raise exception 'The address "%" is taken by another organization', new.slug
        using errcode = '23505';
    end if;
  end if;
  return new;
end
$$;
revoke all on function learning.check_organization_update() from public;

create trigger check_organization_update before update on public.organizations
  for each row execute function learning.check_organization_update();
