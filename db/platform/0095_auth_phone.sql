-- Phone sign-in (issue 19, decision 0039): a confirmed phone number per account, a pending
-- phone change, and the SMS codes that prove them. Numbers are stored as GoTrue stores them:
-- E.164 digits without the "+".
alter table auth.users
  add column if not exists phone_confirmed_at timestamptz,
  add column if not exists phone_change text,
  add column if not exists phone_change_sent_at timestamptz;

-- One account per number, as GoTrue's unique phone column; empty means none.
create unique index if not exists users_phone_unique on auth.users (phone)
  where phone is not null and phone <> '';

-- SMS codes share the mailed codes' table: `sms` proves the account's own number (sign-up and
-- sign-in), `phone_change` a new one. relates_to holds the number the code was sent to.
alter table auth.one_time_tokens drop constraint if exists one_time_tokens_token_type_check;
alter table auth.one_time_tokens add constraint one_time_tokens_token_type_check check (
  token_type in ('confirmation', 'recovery', 'email_change', 'reauthentication', 'sms', 'phone_change')
);
