-- Per-organization API keys for the public API (decision 0610). A key is a long-lived token
-- signed by the server whose subject is the key's own principal: an account made for the key
-- alone, an organization-wide org_admin of exactly one organization, which can never sign in
-- (no password, no address, banned for ever). Row-level security and the procedures that
-- check `learning.is_org_admin` therefore confine a key to its organization with the rules
-- the screens already obey; nothing here widens a policy. Only the SHA-256 of a key is kept.
-- The table lives in the platform schema beside the deployment's own keys (decision 0005):
-- REST never exposes it; the server reads and writes it through the functions below.

create table platform.organization_api_keys (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  principal_id uuid not null unique references auth.users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 80 and name = btrim(name)),
  -- Set in the transaction that creates the key, once the server has signed it.
  key_hash text unique check (key_hash ~ '^[0-9a-f]{64}$'),
  -- The key's last characters, so an admin can tell keys apart without the secret.
  hint text check (hint is null or char_length(hint) <= 8),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid references auth.users (id) on delete set null
);
create index organization_api_keys_org on platform.organization_api_keys (organization_id, created_at desc);
alter table platform.organization_api_keys enable row level security;
revoke all on platform.organization_api_keys from public, anon, authenticated;
-- Row changes audited like every table that names an account (the hash is never copied into
-- the log); a key merely being used is not a change worth a line.
select audit.attach('platform.organization_api_keys', 'organization administration', 'contract',
                    array['last_used_at']);

-- At most this many keys in use per organization: enough for every integration, few enough
-- that a leaked admin session cannot mint keys without bound.
create or replace function platform.organization_api_key_limit() returns int
language sql immutable
as $$ select 20 $$;

-- Whether the account is an API key's principal: keys never manage keys (a leaked key must
-- not outlive its own revocation by minting another).
create or replace function platform.is_api_key_principal(uid uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from platform.organization_api_keys k where k.principal_id = uid)
$$;

create or replace function platform.require_api_key_manager(actor uuid, org uuid) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if actor is null or platform.is_api_key_principal(actor) then
    raise exception 'API keys are managed by signed-in administrators, not by API keys'
      using errcode = '42501';
  end if;
  if not learning.is_org_admin(actor, org) then
    raise exception 'Only an administrator of this organization can manage its API keys'
      using errcode = '42501';
  end if;
end
$$;

-- Creates a key's row and its principal; the server signs the token and stores its hash with
-- platform.set_organization_api_key_hash in the same transaction.
create or replace function platform.create_organization_api_key(actor uuid, org uuid, key_name text)
returns table (key_id uuid, principal_id uuid, organization_name text)
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  new_key uuid := gen_random_uuid();
  principal uuid := gen_random_uuid();
  label text := btrim(coalesce(key_name, ''));
begin
  perform platform.require_api_key_manager(actor, org);
  if char_length(label) not between 1 and 80 then
    raise exception 'Name the key in 1 to 80 characters' using errcode = '22023';
  end if;
  -- Serialises creations per organization, so two at once cannot both pass the limit.
  perform 1 from public.organizations o where o.id = org for update;
  if (select count(*) from platform.organization_api_keys k
       where k.organization_id = org and k.revoked_at is null)
     >= platform.organization_api_key_limit() then
    raise exception 'This organization already has % API keys in use',
      platform.organization_api_key_limit()
      using errcode = '54000', hint = 'Revoke a key you no longer use first.';
  end if;
  if exists (select 1 from platform.organization_api_keys k
              where k.organization_id = org and k.revoked_at is null and k.name = label) then
    raise exception 'A key in use is already named "%"', label
      using errcode = '23505', hint = 'Choose another name.';
  end if;

  insert into auth.users (id, email, encrypted_password, banned_until, raw_app_meta_data,
                          raw_user_meta_data)
  values (principal, null, null, 'infinity',
          jsonb_build_object('provider', 'api_key', 'providers', jsonb_build_array('api_key'),
                             'api_key_id', new_key, 'organization_id', org),
          jsonb_build_object('display_name', left('API key: ' || label, 80),
                             'full_name', left('API key: ' || label, 120)));
  -- A principal is no person: the public user count (decision 0040) stays a count of people,
  -- and listing the organization's users (`profiles`) lists people only.
  perform platform.bump_counter('users', -1);
  delete from public.profiles p where p.id = principal;
  insert into platform.organization_api_keys (id, organization_id, principal_id, name, created_by)
  values (new_key, org, principal, label, actor);
  insert into public.memberships (user_id, organization_id, board_id, role, active, created_by)
  values (principal, org, null, 'org_admin', true, actor);
  perform public.record_audit_event(
    'api_key.create', 'organization administration', 'contract',
    'platform.organization_api_keys', new_key::text,
    jsonb_build_object('organization_id', org, 'name', label), actor);
  return query
    select new_key, principal, o.name from public.organizations o where o.id = org;
end
$$;

create or replace function platform.set_organization_api_key_hash(key uuid, digest text, key_hint text)
returns void
language sql volatile security definer
set search_path = ''
as $$
  update platform.organization_api_keys set key_hash = digest, hint = key_hint
   where id = key and key_hash is null
$$;

-- Revokes a key at once: its principal loses its membership, so row-level security and every
-- procedure refuse it in the database from this commit on, and its token is recorded as an
-- ended session (decision 0071), so every gateway process answers 401 within milliseconds.
create or replace function platform.revoke_organization_api_key(actor uuid, org uuid, key uuid)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  principal uuid;
begin
  perform platform.require_api_key_manager(actor, org);
  update platform.organization_api_keys k set revoked_at = now(), revoked_by = actor
   where k.id = key and k.organization_id = org and k.revoked_at is null
  returning k.principal_id into principal;
  if principal is null then
    if exists (select 1 from platform.organization_api_keys k
                where k.id = key and k.organization_id = org) then
      raise exception 'This key is already revoked' using errcode = '55000';
    end if;
    raise exception 'This organization has no such API key' using errcode = 'P0002';
  end if;
  delete from public.memberships m where m.user_id = principal;
  insert into platform.ended_sessions (session_id) values (key)
    on conflict (session_id) do update set ended_at = excluded.ended_at;
  perform pg_notify('lyceum_session_ended', key::text);
  perform public.record_audit_event(
    'api_key.revoke', 'organization administration', 'contract',
    'platform.organization_api_keys', key::text,
    jsonb_build_object('organization_id', org), actor);
end
$$;

-- The gateway's check of a verified key token: whether this exact key is still in use. Marks
-- it used (at most once a minute, so a busy key does not write a row per request).
create or replace function platform.use_organization_api_key(key uuid, digest text)
returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  in_use boolean;
begin
  update platform.organization_api_keys k set last_used_at = now()
   where k.id = key and k.key_hash = digest and k.revoked_at is null
     and (k.last_used_at is null or k.last_used_at < now() - interval '1 minute');
  select true into in_use from platform.organization_api_keys k
   where k.id = key and k.key_hash = digest and k.revoked_at is null;
  return coalesce(in_use, false);
end
$$;

revoke all on function platform.organization_api_key_limit(),
  platform.is_api_key_principal(uuid), platform.require_api_key_manager(uuid, uuid),
  platform.create_organization_api_key(uuid, uuid, text),
  platform.set_organization_api_key_hash(uuid, text, text),
  platform.revoke_organization_api_key(uuid, uuid, uuid),
  platform.use_organization_api_key(uuid, text)
  from public, anon, authenticated;
