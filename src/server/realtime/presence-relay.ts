/**
 * Presence across gateway processes on one PostgreSQL database (decision 0303), over the
 * NOTIFY channel `realtime_presence`. Each process keeps its own subscribers' presences and
 * tells the others every change; they keep those beside their own, so a client sees the same
 * presence state and diffs whichever process it is connected to.
 * - `track` / `untrack`: one presence of the sender, with the `phx_ref` it was given there.
 * - `hello`: a process that starts (or whose listener reconnected and may have missed
 *   changes) asks; every process answers with a `track` for each of its presences.
 * - `alive`: sent every third of the peer timeout. A process not heard from for the timeout
 *   (killed, hung, cut off from the database) is gone: its presences leave everywhere. If it
 *   is heard again, it is asked (`hello`) for its presences once more.
 * - `bye`: a process stopping cleanly; its presences leave at once.
 * One process's notifications are sent one after another, so the others apply its changes in
 * the order it made them.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/types';
import type { Logger } from '../logger';
import type { PresenceChange, RealtimeHub } from './hub';
import type { PresenceMeta } from './presence';

export const PRESENCE_CHANNEL = 'realtime_presence';
const MAX_NOTIFY_BYTES = 7900;

type Kind = 'track' | 'untrack' | 'hello' | 'alive' | 'bye';

interface Message {
  origin: string;
  kind: Kind;
  topic?: string;
  private?: boolean;
  id?: string;
  key?: string;
  meta?: PresenceMeta;
}

function readMessage(text: string): Message | undefined {
  try {
    const message = JSON.parse(text) as Partial<Message>;
    if (typeof message.origin !== 'string') return undefined;
    if (!['track', 'untrack', 'hello', 'alive', 'bye'].includes(message.kind as string))
      return undefined;
    if (message.kind === 'track' || message.kind === 'untrack') {
      if (typeof message.topic !== 'string' || typeof message.id !== 'string') return undefined;
      if (message.kind === 'track' && (typeof message.key !== 'string' || !message.meta))
        return undefined;
    }
    return message as Message;
  } catch {
    return undefined;
  }
}

function asChange(message: Message): PresenceChange {
  return {
    topic: message.topic!,
    isPrivate: message.private === true,
    id: message.id!,
    ...(message.kind === 'track' ? { key: message.key, meta: message.meta } : {}),
  };
}

export async function startPresenceRelay(deps: {
  db: Database;
  hub: RealtimeHub;
  log: Logger;
  /** A process not heard from for this long is gone (its presences leave). */
  peerTimeoutMs: number;
}): Promise<{ stop(): Promise<void> }> {
  const { db, hub, log, peerTimeoutMs } = deps;
  const now = () => performance.now();
  const origin = randomUUID();
  /** Other processes, and when each was last heard from. */
  const peers = new Map<string, number>();
  let sending: Promise<unknown> = Promise.resolve();

  function notify(message: Message) {
    const text = JSON.stringify(message);
    if (Buffer.byteLength(text) > MAX_NOTIFY_BYTES) {
      log.warn('realtime presence too large to share with other processes', {
        bytes: Buffer.byteLength(text),
      });
      return;
    }
    sending = sending
      .then(() => db.query('select pg_notify($1, $2)', [PRESENCE_CHANNEL, text]))
      .catch((error: unknown) =>
        log.warn('could not share a realtime presence', { error: (error as Error).message }),
      );
  }

  function share(change: PresenceChange) {
    notify({
      origin,
      kind: change.key === undefined ? 'untrack' : 'track',
      topic: change.topic,
      private: change.isPrivate,
      id: change.id,
      ...(change.key === undefined ? {} : { key: change.key, meta: change.meta }),
    });
  }

  function receive(text: string) {
    if (text === '') {
      // The listener reconnected: changes may have been missed. Start over from everyone.
      for (const peer of peers.keys()) hub.dropOrigin(peer);
      peers.clear();
      notify({ origin, kind: 'hello' });
      return;
    }
    const message = readMessage(text);
    if (!message) {
      log.warn('ignored a realtime presence notification that is not one');
      return;
    }
    if (message.origin === origin) return;
    const known = peers.has(message.origin);
    switch (message.kind) {
      case 'bye':
        peers.delete(message.origin);
        hub.dropOrigin(message.origin);
        return;
      case 'hello':
        peers.set(message.origin, now());
        for (const change of hub.ownPresences()) share(change);
        return;
      case 'alive':
        peers.set(message.origin, now());
        // Declared gone earlier (or never heard): ask again for what it holds.
        if (!known) notify({ origin, kind: 'hello' });
        return;
      default:
        peers.set(message.origin, now());
        hub.applyRemote(message.origin, asChange(message));
    }
  }

  const unlisten = await db.listen(PRESENCE_CHANNEL, receive);
  hub.presenceRelay = share;
  notify({ origin, kind: 'hello' });

  const beat = setInterval(
    () => {
      notify({ origin, kind: 'alive' });
      const cutoff = now() - peerTimeoutMs;
      for (const [peer, heard] of peers) {
        if (heard >= cutoff) continue;
        peers.delete(peer);
        log.info('realtime peer process gone; its presences leave', { peer });
        hub.dropOrigin(peer);
      }
    },
    Math.max(20, peerTimeoutMs / 3),
  );
  beat.unref();

  return {
    async stop() {
      clearInterval(beat);
      hub.presenceRelay = undefined;
      notify({ origin, kind: 'bye' });
      await sending;
      await unlisten();
    },
  };
}
