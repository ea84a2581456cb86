/**
 * Broadcasts between the database and the processes' hubs, over one NOTIFY channel:
 * - `realtime.send(payload, event, topic, private)` in SQL (a trigger, a procedure) notifies
 *   after commit; every process listening delivers it to its subscribers.
 * - On PostgreSQL, where several gateway processes may serve one deployment (decision 0072),
 *   each process also notifies the broadcasts its own clients and API calls make, tagged with
 *   its origin so it does not deliver them twice. Notifications are sent one after another from
 *   this process, so the others receive its broadcasts in the order they were made.
 * NOTIFY carries at most 8000 bytes: a larger broadcast reaches only this process's subscribers
 * (decision 0301).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/types';
import type { Logger } from '../logger';
import type { Broadcast, RealtimeHub } from './hub';

export const BROADCAST_CHANNEL = 'realtime_broadcast';
const MAX_NOTIFY_BYTES = 7900;
const TOPIC_PREFIX = 'realtime:';

interface Notified {
  origin?: unknown;
  topic?: unknown;
  event?: unknown;
  private?: unknown;
  payload?: unknown;
  binary?: unknown;
}

/** A notification as a broadcast, or `undefined` when it is not one of ours. */
export function readNotification(text: string): (Broadcast & { origin?: string }) | undefined {
  let message: Notified;
  try {
    message = JSON.parse(text) as Notified;
  } catch {
    return undefined;
  }
  if (typeof message.topic !== 'string' || message.topic === '') return undefined;
  if (typeof message.event !== 'string' || message.event === '') return undefined;
  const body =
    typeof message.binary === 'string'
      ? { kind: 'binary' as const, bytes: new Uint8Array(Buffer.from(message.binary, 'base64')) }
      : { kind: 'json' as const, json: JSON.stringify(message.payload ?? {}) };
  return {
    origin: typeof message.origin === 'string' ? message.origin : undefined,
    topic: `${TOPIC_PREFIX}${message.topic}`,
    isPrivate: message.private !== false,
    event: message.event,
    body,
  };
}

function notification(origin: string, broadcast: Broadcast): string {
  const head = JSON.stringify({
    origin,
    topic: broadcast.topic.slice(TOPIC_PREFIX.length),
    event: broadcast.event,
    private: broadcast.isPrivate,
  }).slice(0, -1);
  return broadcast.body.kind === 'json'
    ? `${head},"payload":${broadcast.body.json}}`
    : `${head},"binary":"${Buffer.from(broadcast.body.bytes).toString('base64')}"}`;
}

export async function startRealtimeRelay(deps: {
  db: Database;
  hub: RealtimeHub;
  log: Logger;
}): Promise<{ stop(): Promise<void> }> {
  const { db, hub, log } = deps;
  const origin = randomUUID();
  const unlisten = await db.listen(BROADCAST_CHANNEL, (text) => {
    const broadcast = readNotification(text);
    if (!broadcast) {
      log.warn('ignored a realtime notification that is not a broadcast');
      return;
    }
    if (broadcast.origin !== origin) hub.deliver(broadcast);
  });
  let sending: Promise<unknown> = Promise.resolve();
  if (db.kind === 'postgres') {
    hub.relay = (broadcast) => {
      const text = notification(origin, broadcast);
      if (Buffer.byteLength(text) > MAX_NOTIFY_BYTES) {
        log.debug('realtime broadcast too large to relay to other processes', {
          bytes: Buffer.byteLength(text),
        });
        return;
      }
      sending = sending
        .then(() => db.query('select pg_notify($1, $2)', [BROADCAST_CHANNEL, text]))
        .catch((error: unknown) =>
          log.warn('could not relay a realtime broadcast', { error: (error as Error).message }),
        );
    };
  }
  return {
    async stop() {
      hub.relay = undefined;
      await sending;
      await unlisten();
    },
  };
}
