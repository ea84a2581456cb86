-- Realtime (decision 0300), as Supabase Realtime lays it out:
-- * `realtime.messages`: RLS policies on it decide who may join, send and receive on a private
--   channel ("Realtime Authorization"). The server checks them as the subscriber's role and
--   claims with `realtime.topic()` set to the channel's name: a row it inserted (extension
--   `broadcast` or `presence`) that the subscriber can select means read, an insert the
--   subscriber may make means write. Those probe rows are always rolled back.
-- * `realtime.send(...)`: a broadcast from SQL (a trigger, a procedure), delivered after commit.
create schema if not exists realtime;
grant usage on schema realtime to anon, authenticated, service_role;

create table realtime.messages (
  id uuid primary key default gen_random_uuid(),
  topic text not null,
  extension text not null check (extension in ('broadcast', 'presence')),
  event text,
  payload jsonb,
  private boolean not null default true,
  inserted_at timestamptz not null default now()
);
alter table realtime.messages enable row level security;
grant select, insert on realtime.messages to anon, authenticated;
grant all on realtime.messages to service_role;

-- The channel name (without the `realtime:` prefix) a policy is being checked for.
create function realtime.topic() returns text
language sql stable
as $$ select nullif(current_setting('realtime.topic', true), '') $$;
grant execute on function realtime.topic() to anon, authenticated, service_role;

-- NOTIFY carries at most 8000 bytes; the envelope takes a little of it.
create function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql volatile
set search_path = pg_catalog
as $$
declare
  message text := json_build_object(
    'topic', topic, 'event', event, 'private', private, 'payload', payload)::text;
begin
  if topic is null or topic = '' or event is null or event = '' then
    raise warning 'realtime.send: topic and event are required';
    return;
  end if;
  if octet_length(message) > 7900 then
    -- As in Supabase, a failed send never fails the caller's transaction.
    raise warning 'realtime.send: payload of % bytes is over the 7900-byte limit; not sent',
      octet_length(message);
    return;
  end if;
  perform pg_notify('realtime_broadcast', message);
end
$$;
revoke all on function realtime.send(jsonb, text, text, boolean) from public;
-- Request roles could otherwise broadcast to any private channel past its policies: a trigger
-- that broadcasts calls it from a `security definer` function owned by the migrations' role.
grant execute on function realtime.send(jsonb, text, text, boolean) to service_role;
