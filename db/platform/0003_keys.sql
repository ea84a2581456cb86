-- Signing keys and issued API keys, shared by every gateway process on this database.
create table if not exists platform.signing_keys (
  kid text primary key,
  alg text not null check (alg in ('ES256', 'RS256')),
  private_jwk jsonb not null,
  public_jwk jsonb not null,
  -- current: signs new tokens; previous: still verifies tokens it signed; retired: ignored.
  status text not null check (status in ('current', 'previous', 'retired')),
  created_at timestamptz not null default now()
);
create unique index if not exists signing_keys_one_current on platform.signing_keys (status)
  where status = 'current';

create table if not exists platform.settings (
  key text primary key,
  value text not null,
  updated_at timestamptz not null default now()
);
