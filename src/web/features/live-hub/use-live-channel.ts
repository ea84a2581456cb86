/**
 * The live room's realtime channel (decision 0310): presence on the private channel
 * `live:<course id>` — who is here, with their status —, the chat's rows by postgres changes
 * (each checked against the member's own row-level security before it is sent), the
 * database's word that another part of the room changed, and, on every (re)subscription after
 * the first, a catch-up of the room's tables, so chat missed while the connection was down
 * comes back from the table. Realtime decides who may join through the room's policies on
 * `realtime.messages`.
 */
import { useEffect, useRef, useState } from 'react';
import type { RealtimeChannel } from '@supabase/supabase-js';
import { useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { CHAT_HISTORY, messageFrom, type LiveMessage, type MessageRow } from './api/get-live-room';
import { liveKeys } from './api/live-keys';

export type PresenceStatus = 'here' | 'away' | 'question';

export const presenceStatusLabels: Record<PresenceStatus, string> = {
  here: 'Here',
  away: 'Away',
  question: 'Has a question',
};

export interface PresentPerson {
  userId: string;
  name: string;
  role: 'instructor' | 'learner';
  status: PresenceStatus;
}

export type Connection = 'connecting' | 'live' | 'reconnecting';

interface PresenceMeta {
  name?: unknown;
  role?: unknown;
  status?: unknown;
}

/** The chat with a message added or replaced (a removal), in the order the room reads it. */
export function withMessage(
  messages: LiveMessage[] | undefined,
  message: LiveMessage,
): LiveMessage[] | undefined {
  if (!messages) return messages;
  const others = messages.filter((m) => m.id !== message.id);
  const at = (m: LiveMessage) => Date.parse(m.createdAt);
  return [...others, message]
    .sort((a, b) => at(a) - at(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(-CHAT_HISTORY);
}

function peopleFrom(state: Record<string, PresenceMeta[]>): PresentPerson[] {
  const people: PresentPerson[] = [];
  for (const [userId, metas] of Object.entries(state)) {
    const meta = metas[metas.length - 1];
    if (!meta) continue;
    const status = meta.status;
    people.push({
      userId,
      name: typeof meta.name === 'string' && meta.name ? meta.name.slice(0, 120) : 'Someone',
      role: meta.role === 'instructor' ? 'instructor' : 'learner',
      status: status === 'away' || status === 'question' ? status : 'here',
    });
  }
  return people.sort((a, b) =>
    a.role === b.role ? a.name.localeCompare(b.name) : a.role === 'instructor' ? -1 : 1,
  );
}

export function useLiveChannel(options: {
  userId: string;
  courseId: string;
  name: string;
  role: 'instructor' | 'learner';
  status: PresenceStatus;
  enabled: boolean;
}) {
  const { userId, courseId, name, role, status, enabled } = options;
  const queryClient = useQueryClient();
  const [people, setPeople] = useState<PresentPerson[]>([]);
  const [connection, setConnection] = useState<Connection>('connecting');
  const channelRef = useRef<RealtimeChannel | null>(null);
  // Counts joins: every (re)join tracks the user again, since the server dropped them with the
  // old connection.
  const [joins, setJoins] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let subscribedBefore = false;
    let channel: RealtimeChannel | null = null;
    let remove: ((channel: RealtimeChannel) => unknown) | null = null;
    void getSupabase().then(async (client) => {
      remove = (joined) => client.removeChannel(joined);
      if (cancelled) return;
      // The private channel's join is authorized with the user's token (decision 0300).
      const { data } = await client.auth.getSession();
      if (data.session) client.realtime.setAuth(data.session.access_token);
      if (cancelled) return;
      channel = client.channel(`live:${courseId}`, {
        config: { private: true, presence: { key: userId } },
      });
      channelRef.current = channel;
      channel
        .on('presence', { event: 'sync' }, () => {
          if (channel) setPeople(peopleFrom(channel.presenceState<PresenceMeta>()));
        })
        // New and removed messages arrive as rows, each one the member may select (db/app 0612).
        .on(
          'postgres_changes',
          {
            event: '*',
            schema: 'public',
            table: 'live_messages',
            filter: `course_id=eq.${courseId}`,
          },
          (change) => {
            if (change.eventType !== 'INSERT' && change.eventType !== 'UPDATE') return;
            const message = messageFrom(change.new as MessageRow);
            queryClient.setQueryData<LiveMessage[]>(liveKeys.messages(userId, courseId), (old) =>
              withMessage(old, message),
            );
          },
        )
        // The database's triggers say which other part of the room changed (db/app/0611); the
        // part is read again through row-level security, never taken from the broadcast.
        .on('broadcast', { event: 'changed' }, ({ payload }) => {
          const part = (payload as { part?: unknown } | undefined)?.part;
          if (part === 'question' || part === 'hands' || part === 'mutes')
            void queryClient.invalidateQueries({ queryKey: liveKeys[part](userId, courseId) });
        })
        .subscribe((state) => {
          if (cancelled || !channel) return;
          if (state === 'SUBSCRIBED') {
            // The effect below tracks the user once the channel is joined.
            setConnection('live');
            setJoins((n) => n + 1);
            // Back after a drop: what was said meanwhile is read again from the tables.
            if (subscribedBefore)
              void queryClient.invalidateQueries({ queryKey: liveKeys.room(userId, courseId) });
            subscribedBefore = true;
          } else if (state === 'CHANNEL_ERROR' || state === 'TIMED_OUT' || state === 'CLOSED') {
            setConnection(subscribedBefore ? 'reconnecting' : 'connecting');
          }
        });
    });
    return () => {
      cancelled = true;
      channelRef.current = null;
      if (channel && remove) void remove(channel);
    };
  }, [enabled, courseId, userId, queryClient]);

  // A changed status or name is tracked again (a re-track replaces the meta).
  useEffect(() => {
    const channel = channelRef.current;
    if (channel && joins > 0) void channel.track({ name, role, status });
  }, [name, role, status, joins]);

  return { people, connection };
}
