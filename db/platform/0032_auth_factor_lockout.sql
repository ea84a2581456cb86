-- Wrong TOTP codes are counted per factor: after ten in a row the factor refuses codes for ten
-- minutes, so the per-address limit cannot be sidestepped by guessing from many addresses.
alter table auth.mfa_factors
  add column if not exists failed_attempts int not null default 0,
  add column if not exists locked_until timestamptz;
