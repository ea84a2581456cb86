/**
 * Sending the ratings and note changes queued offline (decisions 0181 and 0182, queued by
 * `rate-card.ts` and `offline-notes.ts`): when the connection returns and when the app opens,
 * by the session of the user who made them only.
 * One status per page tells the screens what is happening: offline, n waiting, sending, sent,
 * failed (with the reason), or signed out.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { SupabaseClient } from '@supabase/supabase-js';
import { getSupabase } from '@/lib/supabase';
import { isOnline } from '@/lib/use-online';
import { deleteQueuedReview, putQueuedReview, queuedReviews, writeMeta } from './device-store';
import type { QueuedNoteChange } from './note-queue';
import { deleteNoteChange, drainNoteQueue, noteChanges, sendNoteChange } from './offline-notes';
import { drainQueue, outcomeOf, type QueuedReview, type SendOutcome } from './review-queue';

export type SyncPhase = 'idle' | 'offline' | 'syncing' | 'synced' | 'failed' | 'signed-out';

export interface SyncStatus {
  userId: string | null;
  phase: SyncPhase;
  /** Ratings and note changes on this device waiting to be sent. */
  waiting: number;
  /** Ratings the server refused for good, with the reason, until the learner dismisses them. */
  refused: QueuedReview[];
  /**
   * Note changes sent but not applied as made (kept as a second note beside a version changed
   * elsewhere, or refused), with the reason, until the learner dismisses them.
   */
  noteNotices: QueuedNoteChange[];
  /** Counts note changes the server took since the page opened: note screens re-read then. */
  notesSent: number;
  /** Why the last run stopped (phase `failed`). */
  message: string | null;
  syncedAt: string | null;
}

const initial: SyncStatus = {
  userId: null,
  phase: 'idle',
  waiting: 0,
  refused: [],
  noteNotices: [],
  notesSent: 0,
  message: null,
  syncedAt: null,
};
let status = initial;
const listeners = new Set<() => void>();

/** Ratings and note changes the server refused for good. */
export function notRecorded(current: SyncStatus): number {
  return (
    current.refused.length +
    current.noteNotices.filter((change) => change.status === 'refused').length
  );
}

/** Notes whose offline change was kept as a second note beside a version changed elsewhere. */
export function keptTwice(current: SyncStatus): number {
  return current.noteNotices.filter((change) => change.status === 'conflict').length;
}

function publish(patch: Partial<SyncStatus>) {
  status = { ...status, ...patch };
  for (const listener of listeners) listener();
}

/** Recounts the user's queue into the status (another tab may have changed it). */
export async function refreshQueueStatus(userId: string): Promise<void> {
  const [queue, notes] = await Promise.all([queuedReviews(userId), noteChanges(userId)]);
  if (status.userId !== userId) status = { ...initial, userId };
  const waiting =
    queue.filter((review) => review.status === 'waiting').length +
    notes.filter((change) => change.status === 'waiting' && change.userId === userId).length;
  publish({
    waiting,
    refused: queue.filter((review) => review.status === 'refused'),
    noteNotices: notes
      .filter((change) => change.status !== 'waiting')
      .sort((a, b) => a.changedAt.localeCompare(b.changedAt)),
    phase: !isOnline() ? 'offline' : status.phase === 'offline' ? 'idle' : status.phase,
  });
}

async function send(client: SupabaseClient, review: QueuedReview): Promise<SendOutcome> {
  const { error, response } = await client.functions.invoke('flashcards/review', {
    body: {
      cardId: review.cardId,
      rating: review.rating,
      opId: review.opId,
      reviewedAt: review.reviewedAt,
    },
  });
  if (!error) return outcomeOf({ status: 200, body: null });
  if (!response) return outcomeOf({ status: null, body: null });
  const body = (await response.json().catch(() => null)) as { error?: string } | null;
  return outcomeOf({ status: response.status, body });
}

/** Whether the client's session is this user's, refreshing it once if it has run out. */
async function sessionIsUsers(client: SupabaseClient, userId: string, refresh: boolean) {
  const { data } = refresh ? await client.auth.refreshSession() : await client.auth.getSession();
  return data.session?.user.id === userId;
}

const running = new Map<string, Promise<void>>();

/**
 * Sends the user's waiting ratings if there is a connection and the session is theirs. Runs
 * once at a time per user; a call during a run waits for it.
 */
export function syncNow(userId: string): Promise<void> {
  const current = running.get(userId);
  if (current) return current;
  const run = (async () => {
    await refreshQueueStatus(userId);
    if (!isOnline()) return;
    if (status.waiting === 0) {
      publish({ phase: notRecorded(status) > 0 ? 'failed' : 'idle', message: null });
      return;
    }
    publish({ phase: 'syncing', message: null });
    try {
      const client = await getSupabase();
      const store = {
        list: () => queuedReviews(userId),
        remove: (opId: string) => deleteQueuedReview(userId, opId),
        refuse: async (opId: string, reason: string) => {
          const review = (await queuedReviews(userId)).find((r) => r.opId === opId);
          if (review) await putQueuedReview(userId, { ...review, status: 'refused', reason });
        },
      };
      // Ratings first, then notes: each queue in the order its changes were made.
      const drainBoth = async () => {
        const reviews = await drainQueue(userId, store, (review) => send(client, review));
        if (reviews.stopped) return reviews;
        const notes = await drainNoteQueue(userId, (change) =>
          sendNoteChange(client, userId, change),
        );
        if (notes.recorded + notes.noticed > 0)
          publish({ notesSent: status.notesSent + notes.recorded + notes.noticed });
        return notes;
      };
      let result = (await sessionIsUsers(client, userId, false))
        ? await drainBoth()
        : { stopped: { kind: 'signed-out' as const } };
      // An access token that ran out is renewed once; a session that ended is not.
      if (result.stopped?.kind === 'signed-out' && (await sessionIsUsers(client, userId, true)))
        result = await drainBoth();
      await refreshQueueStatus(userId);
      if (result.stopped?.kind === 'signed-out') {
        publish({ phase: 'signed-out', message: 'Your session has ended. Sign in again.' });
      } else if (result.stopped) {
        publish({ phase: isOnline() ? 'failed' : 'offline', message: result.stopped.reason });
      } else {
        const syncedAt = new Date().toISOString();
        await writeMeta(userId, 'syncedAt', syncedAt);
        publish({ phase: notRecorded(status) > 0 ? 'failed' : 'synced', syncedAt });
      }
    } catch (error) {
      await refreshQueueStatus(userId).catch(() => undefined);
      publish({ phase: 'failed', message: (error as Error).message });
    }
  })().finally(() => running.delete(userId));
  running.set(userId, run);
  return run;
}

/** Forgets the ratings and note changes the server refused or kept twice, once read. */
export async function dismissRefused(userId: string): Promise<void> {
  for (const review of await queuedReviews(userId)) {
    if (review.status === 'refused') await deleteQueuedReview(userId, review.opId);
  }
  for (const change of await noteChanges(userId)) {
    if (change.status !== 'waiting') await deleteNoteChange(userId, change.opId);
  }
  await refreshQueueStatus(userId);
  if (status.phase === 'failed' && status.waiting === 0) publish({ phase: 'idle', message: null });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The sync status for the user's screens, kept current while they are shown. */
export function useSyncStatus(userId: string): SyncStatus {
  const current = useSyncExternalStore(
    subscribe,
    () => status,
    () => initial,
  );
  useEffect(() => {
    void refreshQueueStatus(userId).catch(() => undefined);
    const onNetwork = () => void refreshQueueStatus(userId).catch(() => undefined);
    window.addEventListener('online', onNetwork);
    window.addEventListener('offline', onNetwork);
    return () => {
      window.removeEventListener('online', onNetwork);
      window.removeEventListener('offline', onNetwork);
    };
  }, [userId]);
  return current.userId === userId ? current : { ...initial, userId };
}
