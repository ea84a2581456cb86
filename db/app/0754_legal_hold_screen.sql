-- Legal holds from the compliance console (issue 16, decision 0423): a platform admin names the
-- person by email or id, and says why the hold is placed and why it is released; the console
-- lists holds with the person's and the placer's addresses. Holds stay audited (0751 attached
-- the trigger), and an erasure is refused while one is active (0751).

alter table privacy.legal_holds
  add column released_by uuid,
  add column release_reason text check (release_reason is null or length(trim(release_reason)) between 3 and 500);

insert into privacy.personal_data
  (table_name, subject_column, match, json_key, export, erasure, anonymise_columns, description, reason)
values
  ('privacy.legal_holds', 'released_by', 'id', null, false, 'anonymise', '{}', 'legal holds this person released',
   'the hold concerns someone else; only who released it is cleared');

-- The account a platform admin names: an email (any case) or a user id; PT404 when none.
create or replace function privacy.account_named(person text) returns uuid
language plpgsql stable security definer
set search_path = ''
as $$
declare
  found_id uuid;
begin
  if person ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    select u.id into found_id from auth.users u where u.id = person::uuid;
  else
    select u.id into found_id from auth.users u where lower(u.email) = lower(trim(person));
  end if;
  if found_id is null then
    raise exception 'No account with the email or id %', left(person, 200) using errcode = 'PT404';
  end if;
  return found_id;
end
$$;
revoke all on function privacy.account_named(text) from public;

create or replace function public.place_legal_hold_on(person text, reason text) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if not audit.is_platform_admin() then
    raise exception 'Only a platform admin places a legal hold' using errcode = '42501';
  end if;
  return public.place_legal_hold(privacy.account_named(person), reason);
end
$$;

-- Releasing says why, and who released is kept beside who placed.
drop function public.release_legal_hold(uuid);
create or replace function public.release_legal_hold(person uuid, reason text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if not audit.is_platform_admin() then
    raise exception 'Only a platform admin releases a legal hold' using errcode = '42501';
  end if;
  if release_legal_hold.reason is null
     or length(trim(release_legal_hold.reason)) not between 3 and 500 then
    raise exception 'Say why the hold ends (3 to 500 characters)' using errcode = '22023';
  end if;
  update privacy.legal_holds h
     set released_at = now(), released_by = auth.uid(), release_reason = trim(release_legal_hold.reason)
   where h.user_id = person and h.released_at is null;
  if not found then
    raise exception 'This account is not under a legal hold' using errcode = 'PT404';
  end if;
end
$$;

-- Every hold, active first, with the addresses of the person, who placed and who released it.
create or replace function public.legal_hold_list()
returns table (id uuid, user_id uuid, email text, reason text, placed_by_email text,
  placed_at timestamptz, released_at timestamptz, released_by_email text, release_reason text)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not audit.is_platform_admin() then
    raise exception 'Only platform admins review legal holds' using errcode = '42501';
  end if;
  return query
    select h.id, h.user_id, u.email::text, h.reason, p.email::text, h.placed_at, h.released_at,
           r.email::text, h.release_reason
      from privacy.legal_holds h
      left join auth.users u on u.id = h.user_id
      left join auth.users p on p.id = h.placed_by
      left join auth.users r on r.id = h.released_by
     order by h.released_at is not null, coalesce(h.released_at, h.placed_at) desc
     limit 500;
end
$$;

revoke all on function public.place_legal_hold_on(text, text), public.release_legal_hold(uuid, text),
  public.legal_hold_list() from public, anon;
grant execute on function public.place_legal_hold_on(text, text), public.release_legal_hold(uuid, text),
  public.legal_hold_list() to authenticated;
