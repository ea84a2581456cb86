-- Consent (issue 16, decision 0410): the signed-in user's current choice per category in
-- public.user_consent, and every change, with its time, policy version and where it was made,
-- in public.user_consent_history. Both are written only through the procedures below, so a
-- change is always recorded; users read their own rows, platform admins read all.

create schema if not exists privacy;
grant usage on schema privacy to authenticated, service_role;

-- The consent texts the product has published (src/common/consent.ts). A choice names one.
create table privacy.consent_policy_versions (
  version text primary key,
  published_at timestamptz not null default now()
);
insert into privacy.consent_policy_versions (version) values ('2026-11-23');

create table public.user_consent (
  user_id uuid not null references auth.users (id) on delete cascade,
  category text not null check (category in ('essential', 'analytics', 'marketing', 'functional')),
  granted boolean not null,
  policy_version text not null references privacy.consent_policy_versions (version),
  source text not null check (source in ('banner', 'settings', 'withdrawal')),
  decided_at timestamptz not null default now(),
  primary key (user_id, category),
  check (category <> 'essential' or granted)
);

create table public.user_consent_history (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  category text not null check (category in ('essential', 'analytics', 'marketing', 'functional')),
  granted boolean not null,
  policy_version text not null references privacy.consent_policy_versions (version),
  source text not null check (source in ('banner', 'settings', 'withdrawal')),
  recorded_at timestamptz not null default now()
);
create index user_consent_history_user_idx on public.user_consent_history (user_id, recorded_at);

alter table public.user_consent enable row level security;
alter table public.user_consent_history enable row level security;
create policy user_consent_select on public.user_consent for select to authenticated
  using (user_id = (select auth.uid()) or public.has_role((select auth.uid()), 'admin'));
create policy user_consent_history_select on public.user_consent_history for select to authenticated
  using (user_id = (select auth.uid()) or public.has_role((select auth.uid()), 'admin'));
-- Public tables get every privilege by default (0001_roles); these are written only through
-- the procedures, so the direct write grants are taken back.
revoke all on public.user_consent, public.user_consent_history from anon, authenticated;
grant select on public.user_consent, public.user_consent_history to authenticated;

-- Writes one category's choice for the caller, and a history row when it changed (or when the
-- policy version did, or when it is a withdrawal, which is always worth recording).
create or replace function privacy.put_consent(
  p_user uuid, p_category text, p_granted boolean, p_version text, p_source text
) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  previous public.user_consent;
begin
  select * into previous from public.user_consent
   where user_id = p_user and category = p_category for update;
  if found and previous.granted = p_granted and previous.policy_version = p_version
     and p_source <> 'withdrawal' then
    return;
  end if;
  insert into public.user_consent (user_id, category, granted, policy_version, source, decided_at)
  values (p_user, p_category, p_granted, p_version, p_source, now())
  on conflict (user_id, category) do update
    set granted = excluded.granted, policy_version = excluded.policy_version,
        source = excluded.source, decided_at = excluded.decided_at;
  insert into public.user_consent_history (user_id, category, granted, policy_version, source)
  values (p_user, p_category, p_granted, p_version, p_source);
end
$$;
revoke all on function privacy.put_consent(uuid, text, boolean, text, text) from public;

-- The caller's choice as the client keeps it: { policy_version, decided_at, choices }, or null.
create or replace function privacy.consent_of(p_user uuid) returns json
language sql stable security definer
set search_path = ''
as $$
  select case when count(*) = 0 then null else json_build_object(
    'policy_version', min(c.policy_version),
    'decided_at', max(c.decided_at),
    'choices', json_object_agg(c.category, c.granted) filter (where c.category <> 'essential')
  ) end
  from public.user_consent c where c.user_id = p_user
$$;
revoke all on function privacy.consent_of(uuid) from public;

create or replace function public.get_my_consent() returns json
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Sign in to read your consent choices' using errcode = '42501';
  end if;
  return privacy.consent_of(auth.uid());
end
$$;

-- Records the caller's choice for every optional category at once (the banner's Accept,
-- Reject or Save, and the settings). `choices` must name analytics, marketing and functional
-- with true or false; essential may be given only as true.
create or replace function public.set_user_consent(
  choices jsonb, policy_version text, source text default 'banner'
) returns json
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  category text;
  extra text;
begin
  if uid is null then
    raise exception 'Sign in to record consent choices; a visitor''s choice stays in the browser'
      using errcode = '42501';
  end if;
  if set_user_consent.choices is null or jsonb_typeof(set_user_consent.choices) <> 'object' then
    raise exception 'choices must be an object such as {"analytics": false, "marketing": false, "functional": true}'
      using errcode = '22023';
  end if;
  select k into extra from jsonb_object_keys(set_user_consent.choices) k
   where k not in ('essential', 'analytics', 'marketing', 'functional') limit 1;
  if extra is not null then
    raise exception 'Unknown consent category "%": the categories are essential, analytics, marketing and functional', left(extra, 40)
      using errcode = '22023';
  end if;
  if set_user_consent.choices ? 'essential'
     and set_user_consent.choices -> 'essential' <> 'true'::jsonb then
    raise exception 'Essential storage keeps you signed in and cannot be switched off'
      using errcode = '22023';
  end if;
  foreach category in array array['analytics', 'marketing', 'functional'] loop
    if jsonb_typeof(set_user_consent.choices -> category) is distinct from 'boolean' then
      raise exception 'choices.% must be true or false', category using errcode = '22023';
    end if;
  end loop;
  if set_user_consent.source is null or set_user_consent.source not in ('banner', 'settings') then
    raise exception 'source must be banner or settings' using errcode = '22023';
  end if;
  if not exists (
    select 1 from privacy.consent_policy_versions v where v.version = set_user_consent.policy_version
  ) then
    raise exception 'Unknown consent policy version "%": reload the page to see the current text', left(coalesce(set_user_consent.policy_version, ''), 40)
      using errcode = '22023';
  end if;

  perform privacy.put_consent(uid, 'essential', true, set_user_consent.policy_version, set_user_consent.source);
  foreach category in array array['analytics', 'marketing', 'functional'] loop
    perform privacy.put_consent(uid, category, (set_user_consent.choices ->> category)::boolean,
      set_user_consent.policy_version, set_user_consent.source);
  end loop;
  return privacy.consent_of(uid);
end
$$;

-- The spec's withdrawal: records that the caller withdrew one optional category (under the
-- policy version of their last choice, or the newest one). The browser then clears the
-- category's cookies and storage (src/web/lib/consent.ts).
create or replace function public.withdraw_user_consent(category text) returns json
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  version text;
begin
  if uid is null then
    raise exception 'Sign in to withdraw consent; a visitor withdraws it in the browser'
      using errcode = '42501';
  end if;
  if withdraw_user_consent.category = 'essential' then
    raise exception 'Essential storage keeps you signed in and cannot be withdrawn; sign out, or ask for erasure of your account'
      using errcode = '22023';
  end if;
  if withdraw_user_consent.category is null
     or withdraw_user_consent.category not in ('analytics', 'marketing', 'functional') then
    raise exception 'category must be analytics, marketing or functional' using errcode = '22023';
  end if;
  select coalesce(
    (select c.policy_version from public.user_consent c
      where c.user_id = uid order by c.decided_at desc limit 1),
    (select v.version from privacy.consent_policy_versions v order by v.published_at desc limit 1)
  ) into version;
  perform privacy.put_consent(uid, 'essential', true, version, 'settings');
  perform privacy.put_consent(uid, withdraw_user_consent.category, false, version, 'withdrawal');
  return privacy.consent_of(uid);
end
$$;

revoke all on function public.get_my_consent(), public.set_user_consent(jsonb, text, text),
  public.withdraw_user_consent(text) from public, anon;
grant execute on function public.get_my_consent(), public.set_user_consent(jsonb, text, text),
  public.withdraw_user_consent(text) to authenticated;
