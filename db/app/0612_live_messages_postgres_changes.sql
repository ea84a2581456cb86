-- The live room's chat is delivered by postgres changes (issue 15; decision 0310, amended): each
-- member's channel subscribes to `live_messages` of its course, and realtime sends a new or
-- removed message only to subscribers whose own token can select it (decision 0302). The
-- trigger broadcast that told screens to read the chat again (0611) goes. The table keeps
-- replica identity DEFAULT, so a removal's old record is its key, never the removed text.
select realtime.enable_changes('public.live_messages');
drop trigger live_messages_broadcast on public.live_messages;
