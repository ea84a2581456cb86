/**
 * The channel registry of one process: who is subscribed to which topic, broadcast fan-out
 * and presence. Public and private channels of one name are separate rooms (as in Supabase
 * Realtime), so a public subscriber never sees what a private channel carries. The hub knows
 * nothing of sockets or frames: a subscriber is anything that can take a delivery, and the
 * frame cache lets the transport encode one message once for all its recipients.
 */
import { PresenceRoom, type PresenceDiff, type PresenceMeta, type PresenceState } from './presence';

export type BroadcastBody = { kind: 'json'; json: string } | { kind: 'binary'; bytes: Uint8Array };

/** Encoded frames of one delivery, shared by its recipients (keyed by the transport). */
export type FrameCache = Map<string, string | Uint8Array | undefined>;

export interface Subscriber {
  readonly id: string;
  /** The full topic, `realtime:<name>`. */
  readonly topic: string;
  readonly isPrivate: boolean;
  /** Receives its own broadcasts (`config.broadcast.self`). */
  readonly selfBroadcast: boolean;
  /** Receives presence state and diffs (`config.presence.enabled`). */
  readonly presenceEnabled: boolean;
  /** Private channels: what the subscriber's `realtime.messages` policies let it read. */
  readonly canReadBroadcast: boolean;
  readonly canReadPresence: boolean;
  deliverBroadcast(event: string, body: BroadcastBody, frames: FrameCache): void;
  deliverPresenceDiff(diff: PresenceDiff, frames: FrameCache): void;
}

interface Room {
  subscribers: Map<string, Subscriber>;
  presence: PresenceRoom;
}

function roomKey(topic: string, isPrivate: boolean): string {
  return `${isPrivate ? 'private' : 'public'}|${topic}`;
}

/**
 * A presence of this process's subscribers as it travels to the other processes
 * (presence-relay.ts): tracked with its key and meta, or gone (no key).
 */
export interface PresenceChange {
  topic: string;
  isPrivate: boolean;
  /** The subscriber's id, unique across processes. */
  id: string;
  key?: string;
  meta?: PresenceMeta;
}

/** A broadcast as it travels between processes (relay.ts). */
export interface Broadcast {
  topic: string;
  isPrivate: boolean;
  event: string;
  body: BroadcastBody;
}

export class RealtimeHub {
  private readonly rooms = new Map<string, Room>();
  private subscriberCount = 0;
  /** Hands every broadcast of this process to the others (set by relay.ts on PostgreSQL). */
  relay: ((broadcast: Broadcast) => void) | undefined;
  /** Hands every presence change of this process to the others (presence-relay.ts). */
  presenceRelay: ((change: PresenceChange) => void) | undefined;

  get subscriptions(): number {
    return this.subscriberCount;
  }

  private room(topic: string, isPrivate: boolean): Room {
    const key = roomKey(topic, isPrivate);
    let room = this.rooms.get(key);
    if (!room) {
      room = { subscribers: new Map(), presence: new PresenceRoom() };
      this.rooms.set(key, room);
    }
    return room;
  }

  /** A room nobody here subscribes to and nobody anywhere is present in is forgotten. */
  private forgetIfEmpty(topic: string, isPrivate: boolean, room: Room): void {
    if (room.subscribers.size === 0 && room.presence.size === 0)
      this.rooms.delete(roomKey(topic, isPrivate));
  }

  join(subscriber: Subscriber): void {
    const room = this.room(subscriber.topic, subscriber.isPrivate);
    if (!room.subscribers.has(subscriber.id)) this.subscriberCount += 1;
    room.subscribers.set(subscriber.id, subscriber);
  }

  /** Removes the subscriber and whatever it tracked (the others get the presence diff). */
  leave(subscriber: Subscriber): void {
    const key = roomKey(subscriber.topic, subscriber.isPrivate);
    const room = this.rooms.get(key);
    if (!room || !room.subscribers.delete(subscriber.id)) return;
    this.subscriberCount -= 1;
    this.untrackIn(room, subscriber);
    this.forgetIfEmpty(subscriber.topic, subscriber.isPrivate, room);
  }

  /**
   * Fans a broadcast out to the topic's subscribers (`from` is skipped unless it asked for
   * self) and relays it to the other processes.
   */
  broadcast(broadcast: Broadcast, from?: Subscriber): number {
    const delivered = this.deliver(broadcast, from);
    this.relay?.(broadcast);
    return delivered;
  }

  /** Fans a broadcast out to this process's subscribers only (one relayed from elsewhere). */
  deliver({ topic, isPrivate, event, body }: Broadcast, from?: Subscriber): number {
    const room = this.rooms.get(roomKey(topic, isPrivate));
    if (!room) return 0;
    const frames: FrameCache = new Map();
    let delivered = 0;
    for (const subscriber of room.subscribers.values()) {
      if (subscriber === from && !subscriber.selfBroadcast) continue;
      if (isPrivate && !subscriber.canReadBroadcast) continue;
      subscriber.deliverBroadcast(event, body, frames);
      delivered += 1;
    }
    return delivered;
  }

  track(subscriber: Subscriber, key: string, payload: Record<string, unknown>): void {
    const room = this.rooms.get(roomKey(subscriber.topic, subscriber.isPrivate));
    if (!room?.subscribers.has(subscriber.id)) return;
    const diff = room.presence.track(subscriber.id, key, payload);
    this.sendDiff(room, diff);
    this.presenceRelay?.({
      topic: subscriber.topic,
      isPrivate: subscriber.isPrivate,
      id: subscriber.id,
      key,
      meta: diff.joins[key]!.metas[0]!,
    });
  }

  untrack(subscriber: Subscriber): void {
    const room = this.rooms.get(roomKey(subscriber.topic, subscriber.isPrivate));
    if (room) this.untrackIn(room, subscriber);
  }

  private untrackIn(room: Room, subscriber: Subscriber): void {
    const diff = room.presence.untrack(subscriber.id);
    if (!diff) return;
    this.sendDiff(room, diff);
    this.presenceRelay?.({
      topic: subscriber.topic,
      isPrivate: subscriber.isPrivate,
      id: subscriber.id,
    });
  }

  /** Every presence of this process's subscribers, as changes (for a process that asks). */
  ownPresences(): PresenceChange[] {
    const changes: PresenceChange[] = [];
    for (const [key, room] of this.rooms) {
      const [scope, ...rest] = key.split('|');
      const topic = rest.join('|');
      for (const [id, entry] of room.presence.list())
        changes.push({
          topic,
          isPrivate: scope === 'private',
          id,
          key: entry.key,
          meta: entry.meta,
        });
    }
    return changes;
  }

  /** Applies a presence change another process made. */
  applyRemote(origin: string, change: PresenceChange): void {
    const room = this.room(change.topic, change.isPrivate);
    const id = `${origin}/${change.id}`;
    const diff =
      change.key !== undefined && change.meta !== undefined
        ? room.presence.putRemote(id, { key: change.key, meta: change.meta, origin })
        : room.presence.untrack(id);
    if (diff) this.sendDiff(room, diff);
    this.forgetIfEmpty(change.topic, change.isPrivate, room);
  }

  /** Removes every presence another process tracked (it stopped, or stopped answering). */
  dropOrigin(origin: string): void {
    for (const [key, room] of [...this.rooms]) {
      for (const [id] of room.presence.list(origin)) {
        const diff = room.presence.untrack(id);
        if (diff) this.sendDiff(room, diff);
      }
      if (room.subscribers.size === 0 && room.presence.size === 0) this.rooms.delete(key);
    }
  }

  presenceState(topic: string, isPrivate: boolean): PresenceState {
    return this.rooms.get(roomKey(topic, isPrivate))?.presence.state() ?? {};
  }

  private sendDiff(room: Room, diff: PresenceDiff): void {
    const frames: FrameCache = new Map();
    for (const subscriber of room.subscribers.values()) {
      if (!subscriber.presenceEnabled) continue;
      if (subscriber.isPrivate && !subscriber.canReadPresence) continue;
      subscriber.deliverPresenceDiff(diff, frames);
    }
  }
}
