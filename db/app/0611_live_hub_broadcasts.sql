-- The live room's changes delivered as they happen (decision 0310, amended): every write to a
-- room's chat, question (an answer updates its tally), hands or mutes broadcasts `changed`
-- with the part that changed on the room's private channel `live:<course id>`, after commit (realtime.send,
-- decision 0301). The broadcast carries no row: each member's screen reads the part again
-- through row-level security, so nobody receives a row they could not select (an answer, a
-- mute) and a reconnecting client reads the same tables. Postgres changes had not landed when
-- this was written.

create or replace function learning.live_broadcast() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  part text := tg_argv[0];
begin
  perform realtime.send(
    jsonb_build_object('part', part),
    'changed',
    'live:' || coalesce(new.course_id, old.course_id)::text,
    true
  );
  return null;
end
$$;
revoke all on function learning.live_broadcast() from public, anon, authenticated;

create trigger live_messages_broadcast after insert or update on public.live_messages
  for each row execute function learning.live_broadcast('messages');
create trigger live_questions_broadcast after insert or update on public.live_questions
  for each row execute function learning.live_broadcast('question');
-- An answer changes its question's tally, whose update broadcasts.
create trigger live_hands_broadcast after insert or delete on public.live_hands
  for each row execute function learning.live_broadcast('hands');
create trigger live_mutes_broadcast after insert or delete on public.live_mutes
  for each row execute function learning.live_broadcast('mutes');
