-- The personal-data registry (issue 16, decision 0421): one list of every table and column that
-- names a person, what an access or portability export takes from it, and what an erasure does
-- to it (delete the rows, anonymise the column, or keep it with the legal reason). Export and
-- erasure read this list, and tests/integration/privacy-export-erasure.test.ts fails when a
-- table with a user-like column is missing from it.

create table privacy.personal_data (
  table_name text not null check (table_name ~ '^[a-z_]+\.[a-z_]+$'),
  -- The column that names the person, and how it names them: their id, their id as text, their
  -- email, or a key of a JSON column (json_key) holding their id.
  subject_column text not null check (subject_column ~ '^[a-z_]+$'),
  match text not null default 'id' check (match in ('id', 'id_text', 'email', 'json_key')),
  json_key text check ((match = 'json_key') = (json_key is not null)),
  -- Whether the person's export includes these rows (their own records; not other people's
  -- records that merely name them as the grader or the one who enrolled someone).
  export boolean not null,
  erasure text not null check (erasure in ('delete', 'anonymise', 'keep')),
  -- Besides the subject column, what an anonymisation clears.
  anonymise_columns text[] not null default '{}',
  description text not null,
  -- Why rows are anonymised or kept rather than deleted.
  reason text,
  check (erasure = 'delete' or reason is not null),
  primary key (table_name, subject_column)
);
alter table privacy.personal_data enable row level security;
create policy personal_data_read on privacy.personal_data for select to authenticated
  using (cardinality((select audit.readable_organizations())) > 0 or (select audit.is_platform_admin()));
revoke all on privacy.personal_data from public, anon, authenticated;
grant select on privacy.personal_data to authenticated, service_role;

insert into privacy.personal_data
  (table_name, subject_column, match, json_key, export, erasure, anonymise_columns, description, reason)
values
  ('auth.users', 'id', 'id', null, true, 'delete', '{}', 'the account: email, phone, sign-in times', null),
  ('auth.identities', 'user_id', 'id', null, true, 'delete', '{}', 'sign-in identities (email, SSO)', null),
  ('auth.mfa_factors', 'user_id', 'id', null, true, 'delete', '{}', 'two-factor methods (names, types)', null),
  ('auth.mfa_recovery_codes', 'user_id', 'id', null, false, 'delete', '{}', 'recovery code hashes', null),
  ('auth.sessions', 'user_id', 'id', null, true, 'delete', '{}', 'sessions: address, browser, times', null),
  ('auth.refresh_tokens', 'user_id', 'id', null, false, 'delete', '{}', 'refresh token hashes', null),
  ('auth.one_time_tokens', 'user_id', 'id', null, false, 'delete', '{}', 'confirmation and recovery token hashes', null),
  ('auth.flow_state', 'user_id', 'id', null, false, 'delete', '{}', 'sign-in flows in progress', null),
  ('auth.flow_state', 'link_user_id', 'id', null, false, 'delete', '{}', 'identity-linking flows in progress', null),
  ('auth.failed_sign_ins', 'user_id', 'id', null, true, 'delete', '{}', 'failed sign-ins to the account', null),
  ('auth.failed_sign_ins', 'email', 'email', null, true, 'delete', '{}', 'failed sign-ins naming the email', null),
  ('auth.password_failures', 'email', 'email', null, false, 'delete', '{}', 'the wrong-password lockout counter', null),
  ('public.profiles', 'id', 'id', null, true, 'delete', '{}', 'profile: names, avatar', null),
  ('public.user_roles', 'user_id', 'id', null, true, 'delete', '{}', 'roles held', null),
  ('public.user_preferences', 'user_id', 'id', null, true, 'delete', '{}', 'settings and accessibility preferences', null),
  ('public.user_activity', 'user_id', 'id', null, true, 'delete', '{}', 'last active time', null),
  ('public.memberships', 'user_id', 'id', null, true, 'delete', '{}', 'organization memberships and roles', null),
  ('public.memberships', 'created_by', 'id', null, false, 'anonymise', '{}', 'memberships this person created for others',
   'the membership is the other person''s record; only who created it is cleared'),
  ('public.organizations', 'owner_id', 'id', null, true, 'anonymise', '{}', 'organizations this person owns',
   'the organization and its members'' records outlive its owner; ownership is cleared for the organization to reassign'),
  ('public.courses', 'owner_id', 'id', null, true, 'delete', '{}', 'personal courses', null),
  ('public.course_instructors', 'user_id', 'id', null, true, 'delete', '{}', 'courses taught', null),
  ('public.course_instructors', 'added_by', 'id', null, false, 'anonymise', '{}', 'instructors this person assigned',
   'the assignment belongs to the course; only who made it is cleared'),
  ('public.enrollments', 'user_id', 'id', null, true, 'delete', '{}', 'enrolments', null),
  ('public.enrollments', 'enrolled_by', 'id', null, false, 'anonymise', '{}', 'enrolments this person made for others',
   'the enrolment is the learner''s record; only who made it is cleared'),
  ('public.lesson_progress', 'user_id', 'id', null, true, 'delete', '{}', 'lesson progress', null),
  ('public.assessment_attempts', 'user_id', 'id', null, true, 'delete', '{}', 'quiz attempts and answers', null),
  ('public.assessment_attempts', 'graded_by', 'id', null, false, 'anonymise', '{}', 'attempts this person graded',
   'the attempt and its grade are the learner''s record; only the grader is cleared'),
  ('public.assessments', 'created_by', 'id', null, false, 'anonymise', '{}', 'quizzes this person wrote',
   'course content stays with the course; only its author is cleared'),
  ('public.assignments', 'assigned_by', 'id', null, false, 'anonymise', '{}', 'assignments this person set',
   'the assignment belongs to the course; only who set it is cleared'),
  ('public.goals', 'user_id', 'id', null, true, 'delete', '{}', 'goals', null),
  ('public.goals', 'set_by', 'id', null, false, 'anonymise', '{}', 'goals this person set for learners',
   'the goal is the learner''s; only who set it is cleared'),
  ('public.notes', 'user_id', 'id', null, true, 'delete', '{}', 'notes', null),
  ('public.highlights', 'user_id', 'id', null, true, 'delete', '{}', 'highlights', null),
  ('public.flashcard_decks', 'user_id', 'id', null, true, 'delete', '{}', 'flashcard decks', null),
  ('public.flashcards', 'user_id', 'id', null, true, 'delete', '{}', 'flashcards', null),
  ('public.flashcard_reviews', 'user_id', 'id', null, true, 'delete', '{}', 'flashcard reviews', null),
  ('public.course_posts', 'author_id', 'id', null, true, 'delete', '{}', 'course discussion posts', null),
  ('public.chat_sessions', 'user_id', 'id', null, true, 'delete', '{}', 'study coach sessions', null),
  ('public.chat_messages', 'user_id', 'id', null, true, 'delete', '{}', 'study coach transcripts', null),
  ('public.coach_teaching_log', 'user_id', 'id', null, true, 'delete', '{}', 'study coach teaching history', null),
  ('public.xp_events', 'user_id', 'id', null, true, 'delete', '{}', 'XP earned', null),
  ('public.user_badges', 'user_id', 'id', null, true, 'delete', '{}', 'badges', null),
  ('public.study_time', 'user_id', 'id', null, true, 'delete', '{}', 'time on task', null),
  ('public.user_quotas', 'user_id', 'id', null, true, 'delete', '{}', 'usage allowances', null),
  ('public.usage_events', 'user_id', 'id', null, true, 'delete', '{}', 'metered usage', null),
  ('public.user_consent', 'user_id', 'id', null, true, 'delete', '{}', 'consent choices', null),
  ('public.user_consent_history', 'user_id', 'id', null, true, 'delete', '{}', 'consent changes', null),
  ('public.data_subject_requests', 'user_id', 'id', null, true, 'keep', '{details}', 'data subject requests',
   'the record of a request and its fulfilment is kept to show the request was met (GDPR Art. 5(2), 17(3)(b)); what the person wrote is cleared'),
  ('public.data_subject_requests', 'handled_by', 'id', null, false, 'anonymise', '{}', 'requests this person handled',
   'the request is the requester''s record; only the handler is cleared'),
  ('public.audit_log', 'user_id', 'id', null, true, 'keep', '{}', 'audit entries of what this person did',
   'kept for the audit period (legal obligation, 7 years by retention policy); the recorded values are erased, the identifiers stay because the hash chain covers them'),
  ('public.audit_log', 'subject_user_id', 'id', null, true, 'keep', '{}', 'audit entries about this person''s records',
   'kept for the audit period (legal obligation, 7 years by retention policy); the recorded values are erased, the identifiers stay because the hash chain covers them'),
  ('public.security_incidents', 'reported_by', 'id', null, false, 'anonymise', '{}', 'incidents this person reported',
   'the incident record is kept for the authority; only the reporter is cleared'),
  ('public.security_incidents', 'details', 'json_key', 'user_id', true, 'anonymise', '{}', 'incidents raised from this person''s activity',
   'the incident record is kept for the authority; the person''s id is removed from its details'),
  ('public.incident_response_actions', 'completed_by', 'id', null, false, 'anonymise', '{}', 'response actions this person completed',
   'the incident record is kept for the authority; only who completed the action is cleared'),
  ('learning.account_suspensions', 'user_id', 'id', null, true, 'delete', '{}', 'account suspensions', null),
  ('learning.account_suspensions', 'suspended_by', 'id', null, false, 'anonymise', '{}', 'suspensions this person made',
   'the suspension is the other person''s record; only who made it is cleared'),
  ('learning.enrollment_facts', 'user_id', 'id', null, false, 'delete', '{}', 'counters behind the organization''s figures', null),
  ('learning.organization_learners', 'user_id', 'id', null, false, 'delete', '{}', 'counters behind the organization''s figures', null),
  ('learning.organization_learner_days', 'user_id', 'id', null, false, 'delete', '{}', 'counters behind the organization''s figures', null),
  ('learning.board_learners', 'user_id', 'id', null, false, 'delete', '{}', 'counters behind the board''s figures', null),
  ('learning.board_learner_days', 'user_id', 'id', null, false, 'delete', '{}', 'counters behind the board''s figures', null),
  ('storage.objects', 'owner', 'id', null, true, 'delete', '{}', 'stored files (avatar, uploads); the files are in the export', null),
  ('storage.buckets', 'owner', 'id', null, false, 'anonymise', '{}', 'buckets this person created',
   'a bucket holds other people''s files; only its creator is cleared'),
  ('privacy.data_exports', 'user_id', 'id', null, false, 'delete', '{}', 'exports prepared for this person', null),
  ('privacy.data_exports', 'requested_by', 'id', null, false, 'anonymise', '{}', 'exports this person prepared for others',
   'the export is the other person''s record; only who asked for it is cleared'),
  ('privacy.legal_holds', 'user_id', 'id', null, false, 'keep', '{}', 'released legal holds',
   'the record that data was preserved, and when the hold ended, is kept (an active hold refuses erasure)'),
  ('privacy.legal_holds', 'placed_by', 'id', null, false, 'anonymise', '{}', 'legal holds this person placed',
   'the hold concerns someone else; only who placed it is cleared'),
  -- Billing (db/app 0900) and organization API keys (0920) landed the same day.
  ('public.subscribers', 'user_id', 'id', null, true, 'delete', '{}', 'subscription (tier, status, billing ids)', null),
  ('public.coupon_redemptions', 'user_id', 'id', null, true, 'delete', '{}', 'coupons redeemed', null),
  ('public.coupons', 'created_by', 'id', null, false, 'anonymise', '{}', 'coupons this person created',
   'a coupon is the platform''s offer; only who created it is cleared'),
  ('public.coupons', 'revoked_by', 'id', null, false, 'anonymise', '{}', 'coupons this person revoked',
   'a coupon is the platform''s offer; only who revoked it is cleared'),
  ('platform.organization_api_keys', 'principal_id', 'id', null, false, 'delete', '{}',
   'an organization API key''s own account (a machine principal, never a person)', null),
  ('platform.organization_api_keys', 'created_by', 'id', null, false, 'anonymise', '{}', 'API keys this person created',
   'the key belongs to the organization; only who created it is cleared'),
  ('platform.organization_api_keys', 'revoked_by', 'id', null, false, 'anonymise', '{}', 'API keys this person revoked',
   'the key belongs to the organization; only who revoked it is cleared'),
  -- LE Adapt and the study coach's knowledge base, landed the same day.
  ('public.adapt_jobs', 'owner_id', 'id', null, true, 'delete', '{}', 'LE Adapt jobs', null),
  ('public.adapt_jobs', 'approved_by', 'id', null, false, 'anonymise', '{}', 'LE Adapt jobs this person approved',
   'the job is its owner''s; only who approved it is cleared'),
  ('public.adapt_section_reviews', 'reviewed_by', 'id', null, false, 'anonymise', '{}', 'LE Adapt sections this person reviewed',
   'the review belongs to the job''s owner; only the reviewer is cleared'),
  ('public.kb_documents', 'user_id', 'id', null, true, 'delete', '{}', 'knowledge base documents', null),
  ('public.kb_document_pages', 'user_id', 'id', null, true, 'delete', '{}', 'knowledge base document text', null),
  -- LE Adapt outputs and the live hub, landed the same day.
  ('public.adapt_exports', 'requested_by', 'id', null, false, 'anonymise', '{}', 'LE Adapt exports this person asked for',
   'the export belongs to the jobs owner; only who asked is cleared'),
  ('public.adapt_publications', 'published_by', 'id', null, false, 'anonymise', '{}', 'LE Adapt publications this person made',
   'the publication belongs to the course; only who published it is cleared'),
  ('public.adapt_webhook_deliveries', 'requested_by', 'id', null, false, 'anonymise', '{}', 'LMS deliveries this person asked for',
   'the delivery record belongs to the organization; only who asked is cleared'),
  ('public.adapt_webhook_endpoints', 'updated_by', 'id', null, false, 'anonymise', '{}', 'LMS endpoints this person changed',
   'the endpoint belongs to the organization; only who changed it is cleared'),
  ('public.live_answers', 'user_id', 'id', null, true, 'delete', '{}', 'live poll answers', null),
  ('public.live_hands', 'user_id', 'id', null, true, 'delete', '{}', 'raised hands in live rooms', null),
  ('public.live_messages', 'user_id', 'id', null, true, 'delete', '{}', 'live room chat messages', null),
  ('public.live_messages', 'removed_by', 'id', null, false, 'anonymise', '{}', 'live chat messages this person removed',
   'the message is its authors; only who removed it is cleared'),
  ('public.live_mutes', 'user_id', 'id', null, true, 'delete', '{}', 'mutes in live rooms', null),
  ('public.live_mutes', 'muted_by', 'id', null, false, 'anonymise', '{}', 'mutes this person set',
   'the mute concerns someone else; only who set it is cleared'),
  ('public.live_questions', 'created_by', 'id', null, false, 'anonymise', '{}', 'live questions this person asked the room',
   'the question belongs to the courses live room; only its author is cleared');

-- ----- legal holds -------------------------------------------------------------------------

-- A person whose data must be preserved (litigation, an investigation): erasure is refused
-- while a hold is active, and says why. Platform admins place and release holds.
create table privacy.legal_holds (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  reason text not null check (length(trim(reason)) between 3 and 500),
  placed_by uuid,
  placed_at timestamptz not null default now(),
  released_at timestamptz
);
create unique index legal_holds_active_idx on privacy.legal_holds (user_id) where released_at is null;
alter table privacy.legal_holds enable row level security;
create policy legal_holds_admin on privacy.legal_holds for select to authenticated
  using ((select audit.is_platform_admin()));
revoke all on privacy.legal_holds from public, anon, authenticated;
grant select on privacy.legal_holds to authenticated;
select audit.attach('privacy.legal_holds', 'data subject rights', 'legal_obligation');

create or replace function public.place_legal_hold(person uuid, reason text) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  created uuid;
begin
  if not audit.is_platform_admin() then
    raise exception 'Only a platform admin places a legal hold' using errcode = '42501';
  end if;
  if reason is null or length(trim(reason)) not between 3 and 500 then
    raise exception 'Say why the data must be kept (3 to 500 characters)' using errcode = '22023';
  end if;
  if not exists (select 1 from auth.users u where u.id = person) then
    raise exception 'No such account' using errcode = 'PT404';
  end if;
  insert into privacy.legal_holds (user_id, reason, placed_by)
  values (person, trim(reason), auth.uid())
  on conflict (user_id) where released_at is null do nothing
  returning id into created;
  if created is null then
    raise exception 'This account is already under a legal hold' using errcode = 'PT409';
  end if;
  return created;
end
$$;

create or replace function public.release_legal_hold(person uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if not audit.is_platform_admin() then
    raise exception 'Only a platform admin releases a legal hold' using errcode = '42501';
  end if;
  update privacy.legal_holds h set released_at = now()
   where h.user_id = person and h.released_at is null;
  if not found then
    raise exception 'This account is not under a legal hold' using errcode = 'PT404';
  end if;
end
$$;
revoke all on function public.place_legal_hold(uuid, text), public.release_legal_hold(uuid) from public, anon;
grant execute on function public.place_legal_hold(uuid, text), public.release_legal_hold(uuid) to authenticated;

-- ----- export ------------------------------------------------------------------------------

-- The condition that picks a registry row's rows about one person.
create or replace function privacy.subject_condition(entry privacy.personal_data) returns text
language sql immutable
set search_path = ''
as $$
  select case entry.match
    when 'id' then format('%I = $1', entry.subject_column)
    when 'id_text' then format('%I = $1::text', entry.subject_column)
    when 'email' then format('lower(%I) = lower($2)', entry.subject_column)
    else format('%I ->> %L = $1::text', entry.subject_column, entry.json_key)
  end
$$;

-- Everything the registry exports about one person: a row per registry entry with the rows it
-- found as a JSON array (secrets left out by the audit log's own rule, audit.scrub). The
-- platform's own statement (the export job); no API role may call it.
create or replace function privacy.export_personal_data(person uuid)
returns table (table_name text, subject_column text, description text, rows jsonb)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  entry privacy.personal_data;
  email text := (select u.email from auth.users u where u.id = person);
  found_rows jsonb;
begin
  for entry in
    select * from privacy.personal_data p where p.export order by p.table_name, p.subject_column
  loop
    if entry.match = 'email' and email is null then
      found_rows := '[]'::jsonb;
    else
      execute format(
        'select coalesce(jsonb_agg(audit.scrub(to_jsonb(t), %L) order by t::text), ''[]''::jsonb) from %s t where %s',
        '{encrypted_password,confirmation_token,recovery_token,email_change_token_new,email_change_token_current,phone_change_token,reauthentication_token}',
        entry.table_name::regclass, privacy.subject_condition(entry))
        into found_rows using person, email;
    end if;
    table_name := entry.table_name;
    subject_column := entry.subject_column;
    description := entry.description;
    rows := found_rows;
    return next;
  end loop;
end
$$;
revoke all on function privacy.export_personal_data(uuid) from public;
revoke all on function privacy.subject_condition(privacy.personal_data) from public;

-- Exports and their downloads (decision 0421): one row per prepared zip, kept in the private
-- privacy-exports bucket until it expires.
create table privacy.data_exports (
  id uuid primary key default gen_random_uuid(),
  request_id uuid references public.data_subject_requests (id) on delete set null,
  user_id uuid not null,
  requested_by uuid,
  status text not null default 'queued' check (status in ('queued', 'ready', 'failed', 'expired')),
  object_path text,
  size_bytes bigint,
  sha256 text,
  error text,
  created_at timestamptz not null default now(),
  ready_at timestamptz,
  expires_at timestamptz
);
create index data_exports_user_idx on privacy.data_exports (user_id, created_at desc);
alter table privacy.data_exports enable row level security;
create policy data_exports_read on privacy.data_exports for select to authenticated
  using (user_id = (select auth.uid()) or privacy.handles_requests_of((select auth.uid()), user_id));
revoke all on privacy.data_exports from public, anon, authenticated;
grant select on privacy.data_exports to authenticated;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('privacy-exports', 'privacy-exports', false, null, array['application/zip'])
on conflict (id) do nothing;
-- No storage policy: only the platform writes and reads exports; people download them through
-- /functions/v1/privacy-export with a signed, expiring link and their own session.

insert into public.data_retention_policies
  (table_name, retention_period_days, legal_basis, action, date_column, anonymise_columns, description)
values ('privacy.data_exports', 30, 'legal_obligation', 'delete', 'created_at', '{}',
  'Records of prepared data exports are kept 30 days; the files expire after 7.')
on conflict (table_name) do nothing;

-- A handler (or the person, for their own access request) asks for an export; the gateway then
-- queues the job. Only access and portability requests, open, among those the caller handles.
create or replace function public.request_data_export(request_id uuid) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  request public.data_subject_requests;
  created uuid;
begin
  select * into request from public.data_subject_requests r where r.id = request_data_export.request_id;
  if not found or uid is null or not privacy.handles_requests_of(uid, request.user_id) then
    raise exception 'No such request among those you handle' using errcode = 'PT404';
  end if;
  if request.request_type not in ('access', 'portability') then
    raise exception 'Only an access or portability request is answered with an export' using errcode = '22023';
  end if;
  if request.status not in ('pending', 'in_progress') then
    raise exception 'This request is already %', request.status using errcode = 'PT409';
  end if;
  if exists (select 1 from privacy.data_exports e
              where e.request_id = request.id and e.status = 'queued') then
    raise exception 'An export for this request is already being prepared' using errcode = 'PT409';
  end if;
  insert into privacy.data_exports (request_id, user_id, requested_by)
  values (request.id, request.user_id, uid) returning id into created;
  if request.status = 'pending' then
    update public.data_subject_requests r set status = 'in_progress', handled_by = uid
     where r.id = request.id;
  end if;
  return created;
end
$$;
revoke all on function public.request_data_export(uuid) from public, anon;
grant execute on function public.request_data_export(uuid) to authenticated;

-- ----- erasure -----------------------------------------------------------------------------

-- Redacting values of kept audit entries: the chain still verifies because each row's hash
-- covers its values' hash, not the values (decision 0401).
create or replace function audit.refuse_change() returns trigger
language plpgsql
as $$
begin
  if tg_op = 'DELETE' and current_setting('lyceum.audit_retention', true) = 'on' then
    return old;
  end if;
  if tg_op = 'UPDATE' and current_setting('lyceum.audit_redaction', true) = 'on'
     and new.old_values is null and new.new_values is null
     and (to_jsonb(new) - 'old_values' - 'new_values') = (to_jsonb(old) - 'old_values' - 'new_values') then
    return new;
  end if;
  raise exception using errcode = '42501', message = 'the audit log is append-only';
end
$$;

-- Erases one person per the registry, in one transaction: refuses while a legal hold is
-- active; anonymises the columns that name them in other people's records; deletes their own
-- rows table by table; keeps what the registry keeps (clearing the columns it names) and erases
-- the values of their audit entries; then deletes the account. Returns what it did per table.
-- Storage objects' bytes are removed by the erasure job (src/server/compliance/erasure.ts)
-- before this runs; their rows go here.
create or replace function privacy.erase_personal_data(person uuid)
returns table (table_name text, subject_column text, action text, rows_affected bigint)
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  entry privacy.personal_data;
  email text := (select u.email from auth.users u where u.id = person);
  hold privacy.legal_holds;
  affected bigint;
begin
  select * into hold from privacy.legal_holds h where h.user_id = person and h.released_at is null;
  if found then
    raise exception 'This account is under a legal hold since %: %',
      to_char(hold.placed_at, 'YYYY-MM-DD'), hold.reason using errcode = 'PT409';
  end if;
  -- Anonymise first (other people's records keep existing), then keep-with-clearing, then
  -- delete (the product's tables before the counters their triggers maintain, the account
  -- last); the audit values go at the very end, so the entries the deletions themselves wrote
  -- are erased too.
  for entry in
    select * from privacy.personal_data p
     order by case
                when p.table_name = 'public.audit_log' then 5
                when p.erasure = 'anonymise' then 0
                when p.erasure = 'keep' then 1
                when p.table_name = 'auth.users' then 4
                when p.table_name like 'learning.%' then 3
                else 2
              end, p.table_name, p.subject_column
  loop
    affected := 0;
    if entry.match = 'email' and email is null then
      null;
    elsif entry.table_name = 'public.audit_log' then
      perform set_config('lyceum.audit_redaction', 'on', true);
      execute format('update public.audit_log set old_values = null, new_values = null where %s '
        || 'and (old_values is not null or new_values is not null)', privacy.subject_condition(entry))
        using person;
      get diagnostics affected = row_count;
      perform set_config('lyceum.audit_redaction', 'off', true);
    elsif entry.erasure = 'delete' then
      execute format('delete from %s where %s', entry.table_name::regclass, privacy.subject_condition(entry))
        using person, email;
      get diagnostics affected = row_count;
    elsif entry.erasure = 'anonymise' or cardinality(entry.anonymise_columns) > 0 then
      execute format('update %s set %s where %s', entry.table_name::regclass,
        case
          when entry.erasure = 'keep' then
            (select string_agg(format('%I = default', c), ', ') from unnest(entry.anonymise_columns) c)
          when entry.match = 'json_key' then
            format('%I = %I - %L', entry.subject_column, entry.subject_column, entry.json_key)
          else
            (select string_agg(format('%I = null', c), ', ')
               from unnest(array[entry.subject_column] || entry.anonymise_columns) c)
        end,
        privacy.subject_condition(entry))
        using person, email;
      get diagnostics affected = row_count;
    end if;
    table_name := entry.table_name;
    subject_column := entry.subject_column;
    action := entry.erasure;
    rows_affected := affected;
    return next;
  end loop;
end
$$;
revoke all on function privacy.erase_personal_data(uuid) from public;

-- The stored files that are a person's: those they own, and the exports prepared for them.
create or replace function privacy.storage_objects_of(person uuid)
returns table (bucket_id text, name text)
language sql stable security definer
set search_path = ''
as $$
  select o.bucket_id, o.name from storage.objects o where o.owner = person
  union
  select 'privacy-exports', e.object_path from privacy.data_exports e
   where e.user_id = person and e.object_path is not null
$$;
revoke all on function privacy.storage_objects_of(uuid) from public;

-- The data subject request outlives the account it concerned (it is the record that the
-- request was met), so it no longer cascades from auth.users.
alter table public.data_subject_requests drop constraint data_subject_requests_user_id_fkey;

-- A handler asks for an erasure; the gateway then queues the job, which erases and completes
-- the request. Refused while a legal hold is active, and for one's own account through here
-- (a person files an erasure request; someone else carries it out).
create or replace function public.request_data_erasure(request_id uuid) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  request public.data_subject_requests;
  hold privacy.legal_holds;
begin
  select * into request from public.data_subject_requests r where r.id = request_data_erasure.request_id
    for update;
  if not found or uid is null or not privacy.handles_requests_of(uid, request.user_id) then
    raise exception 'No such request among those you handle' using errcode = 'PT404';
  end if;
  if request.request_type <> 'erasure' then
    raise exception 'Only an erasure request erases an account' using errcode = '22023';
  end if;
  if request.user_id = uid then
    raise exception 'Someone else must carry out the erasure of your own account' using errcode = '42501';
  end if;
  if request.status not in ('pending', 'in_progress') then
    raise exception 'This request is already %', request.status using errcode = 'PT409';
  end if;
  select * into hold from privacy.legal_holds h where h.user_id = request.user_id and h.released_at is null;
  if found then
    raise exception 'This account is under a legal hold since %: %',
      to_char(hold.placed_at, 'YYYY-MM-DD'), hold.reason using errcode = 'PT409';
  end if;
  update public.data_subject_requests r set status = 'in_progress', handled_by = uid
   where r.id = request.id;
  return request.user_id;
end
$$;
revoke all on function public.request_data_erasure(uuid) from public, anon;
grant execute on function public.request_data_erasure(uuid) to authenticated;
