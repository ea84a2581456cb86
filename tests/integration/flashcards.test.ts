/**
 * Flashcards through supabase-js (decision 0160): decks and cards are their owner's alone, a
 * rating moves the card by FSRS on the server and is logged, the schedule and the log cannot be
 * written by a client, a rating of somebody else's card is refused by row-level security, and
 * undo puts the card back.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, insertRow, type LearningFixture } from './learning-fixture';

interface Card {
  id: string;
  deck_id: string;
  state: number;
  due: string;
  stability: number;
  difficulty: number;
  reps: number;
  lapses: number;
  last_review: string | null;
}

async function review(client: SupabaseClient, cardId: string, rating: unknown) {
  const { data, error, response } = await client.functions.invoke('flashcards/review', {
    body: { cardId, rating },
  });
  const status = response?.status ?? 0;
  const body = error ? await (response?.json() as Promise<unknown>) : data;
  return {
    status,
    body: body as { reviewId?: string; card?: Card; error?: string; code?: string },
  };
}

describe.each(databaseKinds)('flashcards on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  let learner: SupabaseClient;
  let personalDeck: string;
  let courseDeck: string;

  const cardRow = async (id: string) =>
    (await f.service.from('flashcards').select('*').eq('id', id).single()).data as Card;
  const reviewsOf = async (cardId: string) =>
    (await f.service.from('flashcard_reviews').select('*').eq('card_id', cardId)).data ?? [];

  async function newCard(front = 'What carries oxygen in the blood?'): Promise<string> {
    const { data, error } = await learner
      .from('flashcards')
      .insert({ deck_id: personalDeck, front, back: 'Haemoglobin in red blood cells' })
      .select('id')
      .single();
    expect(error).toBeNull();
    return (data as { id: string }).id;
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
    learner = f.client('learner');
    const personal = await learner
      .from('flashcard_decks')
      .insert({ name: 'Vocabulary' })
      .select('id')
      .single();
    expect(personal.error).toBeNull();
    personalDeck = (personal.data as { id: string }).id;
    const course = await learner
      .from('flashcard_decks')
      .insert({ name: 'Respiration', course_id: f.course, desired_retention: 0.85 })
      .select('id')
      .single();
    expect(course.error).toBeNull();
    courseDeck = (course.data as { id: string }).id;
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('keeps a course deck to courses the owner studies or teaches', async () => {
    const other = await f
      .client('other_learner')
      .from('flashcard_decks')
      .insert({ name: 'Not my course', course_id: f.course });
    expect(other.error?.code).toBe('42501');
    const taught = await f
      .client('instructor')
      .from('flashcard_decks')
      .insert({ name: 'Teaching', course_id: f.course })
      .select('id')
      .single();
    expect(taught.error).toBeNull();
    const badRetention = await learner
      .from('flashcard_decks')
      .update({ desired_retention: 0.5 })
      .eq('id', courseDeck);
    expect(badRetention.error?.code).toBe('23514');
  });

  it('puts a card made without a deck into the owner\u2019s own deck', async () => {
    const { data, error } = await f
      .client('personal')
      .from('flashcards')
      .insert({ front: 'ATP?', back: 'The cell\u2019s energy currency' })
      .select('deck_id')
      .single();
    expect(error).toBeNull();
    const deck = await f.service
      .from('flashcard_decks')
      .select('name, user_id, course_id')
      .eq('id', (data as { deck_id: string }).deck_id)
      .single();
    expect(deck.data).toEqual({ name: 'My cards', user_id: f.users.personal.id, course_id: null });
  });

  it('gives a card its deck\u2019s course', async () => {
    const { data } = await learner
      .from('flashcards')
      .insert({ deck_id: courseDeck, front: 'Where does gas exchange happen?', back: 'Alveoli' })
      .select('course_id')
      .single();
    expect(data).toEqual({ course_id: f.course });
  });

  it('moves the due date by FSRS and logs the rating', async () => {
    const id = await newCard();
    const before = await cardRow(id);
    expect(before.state).toBe(0);

    const good = await review(learner, id, 3);
    expect(good.status).toBe(200);
    const afterGood = await cardRow(id);
    // A new card rated Good enters its learning steps: due within the hour, not now.
    expect(afterGood.state).toBe(1);
    expect(afterGood.reps).toBe(1);
    expect(new Date(afterGood.due).getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(new Date(afterGood.due).getTime()).toBeLessThan(Date.now() + 3_600_000);
    expect(good.body.card?.due).toBe(new Date(afterGood.due).toISOString());

    const easy = await review(learner, id, 4);
    expect(easy.status).toBe(200);
    const afterEasy = await cardRow(id);
    expect(afterEasy.state).toBe(2);
    expect(new Date(afterEasy.due).getTime()).toBeGreaterThan(Date.now() + 86_400_000);

    const log = await reviewsOf(id);
    expect(log.map((r) => [r.rating, r.state_before, r.state_after]).sort()).toEqual([
      [3, 0, 1],
      [4, 1, 2],
    ]);
    const learnerReads = await learner.from('flashcard_reviews').select('id').eq('card_id', id);
    expect(learnerReads.data).toHaveLength(2);
  });

  it('schedules Again sooner than Easy', async () => {
    const again = await newCard('Again card');
    const easy = await newCard('Easy card');
    expect((await review(learner, again, 1)).status).toBe(200);
    expect((await review(learner, easy, 4)).status).toBe(200);
    const dueAgain = new Date((await cardRow(again)).due).getTime();
    const dueEasy = new Date((await cardRow(easy)).due).getTime();
    expect(dueAgain).toBeLessThan(Date.now() + 10 * 60_000);
    expect(dueEasy).toBeGreaterThan(dueAgain + 86_400_000);
  });

  it('refuses a rating of somebody else\u2019s card, and writes nothing', async () => {
    const id = await newCard();
    for (const actor of ['other_learner', 'instructor', 'org_admin'] as const) {
      const attempt = await review(f.client(actor), id, 4);
      expect(attempt.status).toBe(404);
      expect(attempt.body.code).toBe('not_found');
    }
    const anon = await review(f.client('anon'), id, 4);
    expect(anon.status).toBe(403);
    expect(await reviewsOf(id)).toEqual([]);
    expect((await cardRow(id)).reps).toBe(0);
  });

  it('refuses a schedule or a review log written by the client', async () => {
    const id = await newCard();
    const moved = await learner
      .from('flashcards')
      .update({ due: '2099-01-01T00:00:00Z' })
      .eq('id', id);
    expect(moved.error?.code).toBe('42501');
    const stable = await learner
      .from('flashcards')
      .insert({ deck_id: personalDeck, front: 'x', back: 'y', stability: 400, state: 2 });
    expect(stable.error?.code).toBe('42501');
    const forged = await learner.from('flashcard_reviews').insert({
      user_id: f.users.learner.id,
      card_id: id,
      deck_id: personalDeck,
      rating: 4,
      state_before: 0,
      state_after: 2,
      stability_before: 0,
      stability_after: 30,
      difficulty_before: 0,
      difficulty_after: 5,
      due_before: new Date().toISOString(),
      due_after: new Date().toISOString(),
      card_before: {},
    });
    expect(forged.error?.code).toBe('42501');
    const rpc = await learner.rpc('record_flashcard_review', { card: id });
    expect(rpc.error).not.toBeNull();
    expect(await reviewsOf(id)).toEqual([]);
    // Content stays the owner's to change.
    const edited = await learner.from('flashcards').update({ back: 'Edited' }).eq('id', id);
    expect(edited.error).toBeNull();
    expect((await cardRow(id)) as unknown as { back: string }).toMatchObject({ back: 'Edited' });
  });

  it('refuses bad ratings and suspended cards', async () => {
    const id = await newCard();
    for (const rating of [0, 5, 2.5, '3', null]) {
      const attempt = await review(learner, id, rating);
      expect(attempt.status).toBe(400);
    }
    const missing = await review(learner, '00000000-0000-4000-8000-000000000000', 3);
    expect(missing.status).toBe(404);
    await learner.from('flashcards').update({ suspended: true }).eq('id', id);
    const suspended = await review(learner, id, 3);
    expect(suspended.status).toBe(409);
    expect(suspended.body.error).toMatch(/suspended/);
    expect(await reviewsOf(id)).toEqual([]);
  });

  it('undoes the latest rating of a card, and only that', async () => {
    const id = await newCard();
    const first = await review(learner, id, 3);
    const afterFirst = await cardRow(id);
    const second = await review(learner, id, 1);
    expect(second.status).toBe(200);

    const early = await learner.rpc('undo_flashcard_review', { review_id: first.body.reviewId });
    expect(early.error?.message).toMatch(/latest rating/);

    const stranger = await f
      .client('other_learner')
      .rpc('undo_flashcard_review', { review_id: second.body.reviewId });
    expect(stranger.error).not.toBeNull();
    expect(await reviewsOf(id)).toHaveLength(2);

    const undone = await learner.rpc('undo_flashcard_review', { review_id: second.body.reviewId });
    expect(undone.error).toBeNull();
    const { updated_at: _restoredAt, ...restored } = (await cardRow(id)) as Card & {
      updated_at: string;
    };
    const { updated_at: _firstAt, ...expected } = afterFirst as Card & { updated_at: string };
    expect(restored).toEqual(expected);
    expect((await reviewsOf(id)).map((r) => r.id)).toEqual([first.body.reviewId]);
  });

  it('shows nobody else a learner\u2019s decks, cards or reviews', async () => {
    const id = await newCard();
    await review(learner, id, 3);
    await insertRow(f.service, 'flashcards', {
      user_id: f.users.learner.id,
      deck_id: courseDeck,
      front: 'Seen by service only',
      back: 'yes',
    });
    for (const actor of ['instructor', 'org_admin', 'owner', 'other_learner', 'anon'] as const) {
      const client = f.client(actor);
      for (const table of ['flashcard_decks', 'flashcards', 'flashcard_reviews']) {
        const { data } = await client.from(table).select('id').eq('user_id', f.users.learner.id);
        expect({ actor, table, rows: data ?? [] }).toEqual({ actor, table, rows: [] });
      }
      const changed = await client.from('flashcards').update({ back: 'Mine now' }).eq('id', id);
      expect(changed.data ?? []).toEqual([]);
      expect(((await cardRow(id)) as unknown as { back: string }).back).not.toBe('Mine now');
    }
  });
});
