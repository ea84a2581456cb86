/**
 * Presence of one channel topic, as Phoenix Presence keeps it: per presence key a list of
 * metas, each the payload a subscriber tracked plus its `phx_ref`. A subscriber holds at most
 * one meta (tracking again replaces it: the diff then both joins the new meta and leaves the
 * old one, and the new meta carries `phx_ref_prev`). Presences tracked on other gateway
 * processes (presence-relay.ts) sit beside this process's own, marked with their origin and
 * keeping the `phx_ref` they were given there, so every process shows the same state.
 */
import { randomBytes } from 'node:crypto';

export type PresenceMeta = Record<string, unknown> & { phx_ref: string; phx_ref_prev?: string };
export type PresenceState = Record<string, { metas: PresenceMeta[] }>;
export interface PresenceDiff {
  joins: PresenceState;
  leaves: PresenceState;
}

/** Refs unique across processes and restarts: a random prefix and a counter. */
const refPrefix = randomBytes(6).toString('base64url');
let refCounter = 0;
function nextRef(): string {
  refCounter += 1;
  return `${refPrefix}${refCounter.toString(36)}`;
}

export interface PresenceEntry {
  key: string;
  meta: PresenceMeta;
  /** The gateway process that tracked it; absent for this process's own subscribers. */
  origin?: string;
}

export class PresenceRoom {
  /** Subscriber id (prefixed by its origin when remote) → what it tracks. */
  private readonly entries = new Map<string, PresenceEntry>();

  get size(): number {
    return this.entries.size;
  }

  track(subscriberId: string, key: string, payload: Record<string, unknown>): PresenceDiff {
    const meta: PresenceMeta = { ...payload, phx_ref: nextRef() };
    const previous = this.entries.get(subscriberId);
    if (previous && previous.key === key) meta.phx_ref_prev = previous.meta.phx_ref;
    return this.put(subscriberId, { key, meta });
  }

  /**
   * Puts a presence tracked elsewhere, with its own ref; `undefined` when it is already here
   * (a process answering a `hello` repeats what others may have).
   */
  putRemote(id: string, entry: Required<PresenceEntry>): PresenceDiff | undefined {
    const previous = this.entries.get(id);
    if (previous && previous.key === entry.key && previous.meta.phx_ref === entry.meta.phx_ref)
      return undefined;
    return this.put(id, entry);
  }

  private put(id: string, entry: PresenceEntry): PresenceDiff {
    const previous = this.entries.get(id);
    this.entries.set(id, entry);
    const diff: PresenceDiff = { joins: { [entry.key]: { metas: [entry.meta] } }, leaves: {} };
    if (previous) diff.leaves[previous.key] = { metas: [previous.meta] };
    return diff;
  }

  /** Removes what the subscriber tracks; `undefined` when it tracked nothing. */
  untrack(subscriberId: string): PresenceDiff | undefined {
    const previous = this.entries.get(subscriberId);
    if (!previous) return undefined;
    this.entries.delete(subscriberId);
    return { joins: {}, leaves: { [previous.key]: { metas: [previous.meta] } } };
  }

  /** This process's own presences, or the ones from `origin`, with their ids. */
  list(origin?: string): [string, PresenceEntry][] {
    return [...this.entries].filter(([, entry]) => entry.origin === origin);
  }

  state(): PresenceState {
    const state: PresenceState = {};
    for (const { key, meta } of this.entries.values()) {
      (state[key] ??= { metas: [] }).metas.push(meta);
    }
    return state;
  }
}
