/**
 * Presence of one channel topic, as Phoenix Presence keeps it: per presence key a list of
 * metas, each the payload a subscriber tracked plus its `phx_ref`. A subscriber holds at most
 * one meta (tracking again replaces it: the diff then both joins the new meta and leaves the
 * old one, and the new meta carries `phx_ref_prev`).
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

interface Entry {
  key: string;
  meta: PresenceMeta;
}

export class PresenceRoom {
  /** Subscriber id → what it tracks. */
  private readonly bySubscriber = new Map<string, Entry>();

  get size(): number {
    return this.bySubscriber.size;
  }

  track(subscriberId: string, key: string, payload: Record<string, unknown>): PresenceDiff {
    const previous = this.bySubscriber.get(subscriberId);
    const meta: PresenceMeta = { ...payload, phx_ref: nextRef() };
    if (previous && previous.key === key) meta.phx_ref_prev = previous.meta.phx_ref;
    this.bySubscriber.set(subscriberId, { key, meta });
    const diff: PresenceDiff = { joins: { [key]: { metas: [meta] } }, leaves: {} };
    if (previous) diff.leaves[previous.key] = { metas: [previous.meta] };
    return diff;
  }

  /** Removes what the subscriber tracks; `undefined` when it tracked nothing. */
  untrack(subscriberId: string): PresenceDiff | undefined {
    const previous = this.bySubscriber.get(subscriberId);
    if (!previous) return undefined;
    this.bySubscriber.delete(subscriberId);
    return { joins: {}, leaves: { [previous.key]: { metas: [previous.meta] } } };
  }

  state(): PresenceState {
    const state: PresenceState = {};
    for (const { key, meta } of this.bySubscriber.values()) {
      (state[key] ??= { metas: [] }).metas.push(meta);
    }
    return state;
  }
}
