import { describe, expect, it } from 'vitest';
import {
  drainQueue,
  outcomeOf,
  sendOrder,
  type QueuedReview,
  type QueueStore,
  type SendOutcome,
} from './review-queue';

const me = 'user-a';

function queued(opId: string, reviewedAt: string, extra: Partial<QueuedReview> = {}): QueuedReview {
  return {
    opId,
    userId: me,
    cardId: `card-${opId}`,
    rating: 3,
    reviewedAt,
    cardFront: `Question ${opId}`,
    status: 'waiting',
    ...extra,
  };
}

function memoryStore(initial: QueuedReview[]): QueueStore & { items: QueuedReview[] } {
  const store = {
    items: [...initial],
    list: async () => store.items.map((item) => ({ ...item })),
    remove: async (opId: string) => {
      store.items = store.items.filter((item) => item.opId !== opId);
    },
    refuse: async (opId: string, reason: string) => {
      store.items = store.items.map((item) =>
        item.opId === opId ? { ...item, status: 'refused' as const, reason } : item,
      );
    },
  };
  return store;
}

describe('what a send came to', () => {
  it('takes a success, first or repeated, as recorded', () => {
    expect(outcomeOf({ status: 200, body: null })).toEqual({ kind: 'recorded' });
  });

  it('keeps the queue when there is no answer or a passing failure', () => {
    expect(outcomeOf({ status: null, body: null }).kind).toBe('unreachable');
    for (const status of [408, 429, 500, 502, 503])
      expect(outcomeOf({ status, body: null }).kind).toBe('unreachable');
  });

  it('asks for a new sign-in when the session is gone', () => {
    expect(outcomeOf({ status: 401, body: { error: 'JWT expired' } })).toEqual({
      kind: 'signed-out',
    });
    expect(outcomeOf({ status: 403, body: null }).kind).toBe('signed-out');
  });

  it('gives up on a rating the server will never take, with its reason', () => {
    expect(outcomeOf({ status: 404, body: { code: 'not_found' } })).toEqual({
      kind: 'refused',
      reason: 'The card was deleted.',
    });
    const superseded = outcomeOf({
      status: 409,
      body: { code: 'superseded', error: 'This card was reviewed later on another device.' },
    });
    expect(superseded).toEqual({
      kind: 'refused',
      reason: 'This card was reviewed later on another device.',
    });
    expect(outcomeOf({ status: 422, body: null })).toEqual({
      kind: 'refused',
      reason: 'Refused (HTTP 422).',
    });
  });
});

describe('the order of sending', () => {
  it('sends the oldest rating first and only this user’s waiting ones', () => {
    const queue = [
      queued('b', '2026-11-24T10:05:00.000Z'),
      queued('a', '2026-11-24T10:00:00.000Z'),
      queued('c', '2026-11-24T09:00:00.000Z', { userId: 'user-b' }),
      queued('d', '2026-11-24T08:00:00.000Z', {
        status: 'refused',
        reason: 'The card was deleted.',
      }),
    ];
    expect(sendOrder(queue, me).map((review) => review.opId)).toEqual(['a', 'b']);
  });
});

describe('draining the queue', () => {
  it('removes what was recorded and marks what was refused', async () => {
    const store = memoryStore([
      queued('1', '2026-11-24T10:00:00.000Z'),
      queued('2', '2026-11-24T10:01:00.000Z'),
      queued('3', '2026-11-24T10:02:00.000Z'),
    ]);
    const answers: Record<string, SendOutcome> = {
      '1': { kind: 'recorded' },
      '2': { kind: 'refused', reason: 'The card was deleted.' },
      '3': { kind: 'recorded' },
    };
    const result = await drainQueue(me, store, async (review) => answers[review.opId]!);
    expect(result).toEqual({ recorded: 2, refused: 1, stopped: null });
    expect(store.items).toEqual([
      {
        ...queued('2', '2026-11-24T10:01:00.000Z'),
        status: 'refused',
        reason: 'The card was deleted.',
      },
    ]);
  });

  it('stops at the first rating without an answer and keeps it and the rest', async () => {
    const store = memoryStore([
      queued('1', '2026-11-24T10:00:00.000Z'),
      queued('2', '2026-11-24T10:01:00.000Z'),
      queued('3', '2026-11-24T10:02:00.000Z'),
    ]);
    const sent: string[] = [];
    const result = await drainQueue(me, store, async (review) => {
      sent.push(review.opId);
      return review.opId === '2'
        ? { kind: 'unreachable', reason: 'No connection to Lyceum.' }
        : { kind: 'recorded' };
    });
    expect(sent).toEqual(['1', '2']);
    expect(result.stopped).toEqual({ kind: 'unreachable', reason: 'No connection to Lyceum.' });
    expect(store.items.map((item) => item.opId)).toEqual(['2', '3']);
  });

  it('keeps everything when the session has ended', async () => {
    const store = memoryStore([queued('1', '2026-11-24T10:00:00.000Z')]);
    const result = await drainQueue(me, store, async () => ({ kind: 'signed-out' }));
    expect(result).toEqual({ recorded: 0, refused: 0, stopped: { kind: 'signed-out' } });
    expect(store.items).toHaveLength(1);
  });

  it('never sends another account’s ratings', async () => {
    const store = memoryStore([queued('1', '2026-11-24T10:00:00.000Z', { userId: 'user-b' })]);
    const sent: string[] = [];
    await drainQueue(me, store, async (review) => {
      sent.push(review.opId);
      return { kind: 'recorded' };
    });
    expect(sent).toEqual([]);
    expect(store.items).toHaveLength(1);
  });

  it('sends a rating again after a lost answer with the same id, so it counts once', async () => {
    const store = memoryStore([queued('1', '2026-11-24T10:00:00.000Z')]);
    const server = new Map<string, number>();
    let dropAnswer = true;
    const send = async (review: QueuedReview): Promise<SendOutcome> => {
      server.set(review.opId, (server.get(review.opId) ?? 0) + 1);
      if (dropAnswer) {
        dropAnswer = false;
        return { kind: 'unreachable', reason: 'No connection to Lyceum.' };
      }
      return { kind: 'recorded' };
    };
    await drainQueue(me, store, send);
    expect(store.items).toHaveLength(1);
    await drainQueue(me, store, send);
    expect(store.items).toHaveLength(0);
    // Both sends carried the one id the rating was given, which the server records once.
    expect([...server.keys()]).toEqual(['1']);
  });
});
