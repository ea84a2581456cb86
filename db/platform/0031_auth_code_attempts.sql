-- Mailed links and typed codes become separate secrets: the link carries 32 random bytes
-- (stored as token_hash = sha256), the code is checked by otp_hash = sha256(email || code).
-- A six-digit code has only a million values, so wrong guesses are counted per address and
-- the code dies after five; the link cannot be guessed at all.
alter table auth.one_time_tokens
  add column if not exists otp_hash text,
  add column if not exists failed_attempts int not null default 0;
create index if not exists one_time_tokens_otp on auth.one_time_tokens (otp_hash);
