/**
 * Flashcard ratings made offline and sent later (issue 18, decision 0181), through supabase-js:
 * a rating's opId makes a second send find the first (one review row, XP once; two sends at
 * once included, decision 0173), reviewedAt dates it, a card reviewed later elsewhere keeps the
 * server's schedule, and a card deleted or suspended meanwhile, a bad time or a reused opId are
 * refused with the reason.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

interface Card {
  id: string;
  reps: number;
  state: number;
  due: string;
  last_review: string | null;
}

interface Answer {
  reviewId?: string;
  card?: Card;
  replayed?: boolean;
  error?: string;
  code?: string;
}

async function send(client: SupabaseClient, body: Record<string, unknown>) {
  const { data, error, response } = await client.functions.invoke('flashcards/review', { body });
  const status = response?.status ?? 0;
  const answer = error ? await (response?.json() as Promise<unknown>) : data;
  return { status, body: answer as Answer };
}

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

describe.each(databaseKinds)('flashcard ratings made offline on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;
  const learners: { id: string; client: SupabaseClient }[] = [];

  async function newLearner() {
    const { data, error } = await service.auth.admin.createUser({
      email: `offline-${randomUUID()}@example.edu`,
      password: 'correct horse battery staple',
      email_confirm: true,
    });
    expect(error).toBeNull();
    const id = data.user!.id;
    const learner = { id, client: server.withToken(await signUserToken(server, id)) };
    learners.push(learner);
    return learner;
  }

  async function newCard(client: SupabaseClient): Promise<string> {
    const { data, error } = await client
      .from('flashcards')
      .insert({ front: 'Which gas do plants take in?', back: 'Carbon dioxide' })
      .select('id')
      .single();
    expect(error).toBeNull();
    return (data as { id: string }).id;
  }

  const cardRow = async (id: string) =>
    (await service.from('flashcards').select('*').eq('id', id).single()).data as Card;
  const reviewsOf = async (cardId: string) =>
    ((await service.from('flashcard_reviews').select('*').eq('card_id', cardId)).data ?? []) as {
      id: string;
      reviewed_at: string;
      client_op_id: string | null;
      rating: number;
    }[];
  const xpFor = async (userId: string) =>
    ((await service.from('xp_events').select('amount').eq('user_id', userId)).data ?? []).length;

  beforeAll(async () => {
    server = await startTestServer(kind);
    service = server.service();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('records a queued rating once however often it is sent, dated when it was made', async () => {
    const { id: userId, client } = await newLearner();
    const card = await newCard(client);
    const opId = randomUUID();
    const reviewedAt = hoursAgo(2);

    const first = await send(client, { cardId: card, rating: 3, opId, reviewedAt });
    expect(first.status).toBe(200);
    expect(first.body.replayed).toBeUndefined();
    const again = await send(client, { cardId: card, rating: 3, opId, reviewedAt });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ reviewId: first.body.reviewId, replayed: true });
    expect(again.body.card?.reps).toBe(1);

    const log = await reviewsOf(card);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ client_op_id: opId, rating: 3 });
    expect(new Date(log[0]!.reviewed_at).toISOString()).toBe(reviewedAt);
    const after = await cardRow(card);
    expect(after.reps).toBe(1);
    expect(new Date(after.last_review!).toISOString()).toBe(reviewedAt);
    expect(await xpFor(userId)).toBe(1);
  });

  it('records one rating sent twice at once only once, and answers both sends with it', async () => {
    const { id: userId, client } = await newLearner();
    const card = await newCard(client);
    const opId = randomUUID();
    const [a, b] = await Promise.all([
      send(client, { cardId: card, rating: 3, opId }),
      send(client, { cardId: card, rating: 3, opId }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.reviewId).toBe(b.body.reviewId);
    expect(await reviewsOf(card)).toHaveLength(1);
    expect((await cardRow(card)).reps).toBe(1);
    expect(await xpFor(userId)).toBe(1);
  });

  it('takes two ratings of one card sent at once, one on top of the other', async () => {
    const { client } = await newLearner();
    const card = await newCard(client);
    const [a, b] = await Promise.all([
      send(client, { cardId: card, rating: 3, opId: randomUUID() }),
      send(client, { cardId: card, rating: 1, opId: randomUUID() }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.reviewId).not.toBe(b.body.reviewId);
    expect(await reviewsOf(card)).toHaveLength(2);
    expect((await cardRow(card)).reps).toBe(2);
  });

  it('sends two offline ratings of one card in order, the second on top of the first', async () => {
    const { client } = await newLearner();
    const card = await newCard(client);
    const first = await send(client, {
      cardId: card,
      rating: 1,
      opId: randomUUID(),
      reviewedAt: hoursAgo(3),
    });
    const second = await send(client, {
      cardId: card,
      rating: 3,
      opId: randomUUID(),
      reviewedAt: hoursAgo(2.5),
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await cardRow(card)).reps).toBe(2);
    expect(await reviewsOf(card)).toHaveLength(2);
  });

  it('keeps the server’s schedule when the card was reviewed later elsewhere', async () => {
    const { client } = await newLearner();
    const card = await newCard(client);
    // Online on another device, now.
    expect((await send(client, { cardId: card, rating: 4 })).status).toBe(200);
    const serverState = await cardRow(card);

    const late = await send(client, {
      cardId: card,
      rating: 1,
      opId: randomUUID(),
      reviewedAt: hoursAgo(1),
    });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('superseded');
    expect(late.body.error).toMatch(/reviewed later on another device/);
    expect(await cardRow(card)).toEqual(serverState);
    expect(await reviewsOf(card)).toHaveLength(1);
  });

  it('applies an offline rating made after a review elsewhere on top of it', async () => {
    const { client } = await newLearner();
    const card = await newCard(client);
    const earlier = await send(client, {
      cardId: card,
      rating: 3,
      opId: randomUUID(),
      reviewedAt: hoursAgo(5),
    });
    expect(earlier.status).toBe(200);
    // The device's copy still had reps 0; the server's card has moved on, but earlier.
    const later = await send(client, {
      cardId: card,
      rating: 3,
      opId: randomUUID(),
      reviewedAt: hoursAgo(1),
    });
    expect(later.status).toBe(200);
    expect((await cardRow(card)).reps).toBe(2);
  });

  it('refuses a rating of a card deleted or suspended meanwhile, writing nothing', async () => {
    const { client } = await newLearner();
    const deleted = await newCard(client);
    expect((await client.from('flashcards').delete().eq('id', deleted)).error).toBeNull();
    const gone = await send(client, {
      cardId: deleted,
      rating: 3,
      opId: randomUUID(),
      reviewedAt: hoursAgo(1),
    });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('not_found');

    const suspended = await newCard(client);
    await client.from('flashcards').update({ suspended: true }).eq('id', suspended);
    const paused = await send(client, {
      cardId: suspended,
      rating: 3,
      opId: randomUUID(),
      reviewedAt: hoursAgo(1),
    });
    expect(paused.status).toBe(409);
    expect(paused.body.code).toBe('suspended');
    expect(await reviewsOf(suspended)).toEqual([]);
  });

  it('refuses bad times and ids with the reason', async () => {
    const { client } = await newLearner();
    const card = await newCard(client);
    const noOp = await send(client, { cardId: card, rating: 3, reviewedAt: hoursAgo(1) });
    expect(noOp.status).toBe(400);
    expect(noOp.body.error).toMatch(/opId/);
    const badId = await send(client, { cardId: card, rating: 3, opId: 'queued-1' });
    expect(badId.status).toBe(400);
    const badTime = await send(client, {
      cardId: card,
      rating: 3,
      opId: randomUUID(),
      reviewedAt: 'yesterday',
    });
    expect(badTime.status).toBe(400);
    const future = await send(client, {
      cardId: card,
      rating: 3,
      opId: randomUUID(),
      reviewedAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.status).toBe(422);
    expect(future.body.error).toMatch(/future/);
    const old = await send(client, {
      cardId: card,
      rating: 3,
      opId: randomUUID(),
      reviewedAt: hoursAgo(24 * 31),
    });
    expect(old.status).toBe(422);
    expect(old.body.code).toBe('too_old');
    expect(await reviewsOf(card)).toEqual([]);

    const opId = randomUUID();
    expect((await send(client, { cardId: card, rating: 3, opId })).status).toBe(200);
    const other = await newCard(client);
    const reused = await send(client, { cardId: other, rating: 3, opId });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('op_reused');
    expect(await reviewsOf(other)).toEqual([]);
  });

  it('scopes an opId to its learner: another learner’s same id is their own rating', async () => {
    const a = await newLearner();
    const b = await newLearner();
    const opId = randomUUID();
    const cardA = await newCard(a.client);
    const cardB = await newCard(b.client);
    expect((await send(a.client, { cardId: cardA, rating: 3, opId })).status).toBe(200);
    const fromB = await send(b.client, { cardId: cardB, rating: 3, opId });
    expect(fromB.status).toBe(200);
    expect(fromB.body.replayed).toBeUndefined();
    // B cannot rate A's card with A's id either: the card is not there for B.
    const intoA = await send(b.client, { cardId: cardA, rating: 1, opId });
    expect(intoA.status).toBe(404);
    expect((await cardRow(cardA)).reps).toBe(1);
  });

  it('refuses a queued rating sent without a valid session, and keeps nothing', async () => {
    const { id, client } = await newLearner();
    const card = await newCard(client);
    const expired = server.withToken(
      await signUserToken(server, id, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
    );
    const attempt = await send(expired, {
      cardId: card,
      rating: 3,
      opId: randomUUID(),
      reviewedAt: hoursAgo(1),
    });
    expect(attempt.status).toBe(401);
    expect(await reviewsOf(card)).toEqual([]);
  });
});
