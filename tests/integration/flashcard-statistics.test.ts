/**
 * Flashcard statistics and imports through supabase-js (decision 0162): reviews per day in the
 * learner's time zone, true retention on learned cards over 30 days and all time, cards by state,
 * per deck or overall, the caller's own rows only; an imported batch is written whole or not at
 * all; a card from a bank question only once it cannot help in a quiz still open.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, insertRow, type LearningFixture } from './learning-fixture';

interface Statistics {
  today: string;
  first_day: string;
  time_zone: string;
  per_day: { day: string; reviews: number; again: number }[];
  retention: Record<'last_30_days' | 'all_time', { learned_reviews: number; recalled: number }>;
  cards: Record<'new' | 'learning' | 'review' | 'relearning' | 'suspended' | 'due_today', number>;
}

const DAY = 86_400_000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

describe.each(databaseKinds)('flashcard statistics on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  // The Personal-mode account: the fixture gives the learner cards and reviews of its own.
  let learner: SupabaseClient;
  let deck: string;
  let otherDeck: string;

  async function statistics(client: SupabaseClient, args: Record<string, unknown> = {}) {
    const { data, error } = await client.rpc('flashcard_statistics', args);
    return { data: data as Statistics | null, error };
  }

  async function card(deckId: string, fields: Record<string, unknown> = {}) {
    const row = await insertRow<{ id: string }>(f.service, 'flashcards', {
      user_id: f.users.personal.id,
      deck_id: deckId,
      front: 'What carries oxygen in the blood?',
      back: 'Haemoglobin',
      ...fields,
    });
    return row.id;
  }

  /** A logged rating, written as the review function would have written it. */
  async function logReview(
    cardId: string,
    deckId: string,
    rating: number,
    stateBefore: number,
    at: Date,
  ) {
    const schedule = { state: stateBefore, due: at.toISOString(), stability: 3, difficulty: 5 };
    await insertRow(f.service, 'flashcard_reviews', {
      user_id: f.users.personal.id,
      card_id: cardId,
      deck_id: deckId,
      rating,
      reviewed_at: at.toISOString(),
      state_before: stateBefore,
      state_after: rating === 1 ? 3 : 2,
      stability_before: 3,
      stability_after: 4,
      difficulty_before: 5,
      difficulty_after: 5,
      due_before: at.toISOString(),
      due_after: new Date(at.getTime() + 3 * DAY).toISOString(),
      card_before: schedule,
    });
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
    learner = f.client('personal');
    for (const name of ['Respiration', 'Vocabulary']) {
      const { data, error } = await learner
        .from('flashcard_decks')
        .insert({ name })
        .select('id')
        .single();
      expect(error).toBeNull();
      if (name === 'Respiration') deck = (data as { id: string }).id;
      else otherDeck = (data as { id: string }).id;
    }
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('is empty, not missing, for a learner who has reviewed nothing', async () => {
    const { data, error } = await statistics(learner);
    expect(error).toBeNull();
    expect(data!.per_day).toEqual([]);
    expect(data!.retention).toEqual({
      last_30_days: { learned_reviews: 0, recalled: 0 },
      all_time: { learned_reviews: 0, recalled: 0 },
    });
    expect(data!.cards).toEqual({
      new: 0,
      learning: 0,
      review: 0,
      relearning: 0,
      suspended: 0,
      due_today: 0,
    });
    expect(data!.time_zone).toBe('UTC');
    expect(data!.today).toBe(utcDay(new Date()));
  });

  it('counts reviews per day, true retention on learned cards, and cards by state', async () => {
    const learned = await card(deck, { state: 2 });
    const fresh = await card(deck);
    await card(deck, { suspended: true });
    const elsewhere = await card(otherDeck, { state: 2 });
    const now = Date.now();
    const recent = [new Date(now - 60_000), new Date(now - 120_000)];
    const tenDaysAgo = new Date(now - 10 * DAY);
    const fortyDaysAgo = new Date(now - 40 * DAY);
    await logReview(learned, deck, 3, 2, recent[0]!);
    await logReview(learned, deck, 1, 2, recent[1]!);
    await logReview(fresh, deck, 3, 0, tenDaysAgo);
    await logReview(learned, deck, 4, 2, fortyDaysAgo);
    await logReview(elsewhere, otherDeck, 2, 2, tenDaysAgo);

    const { data, error } = await statistics(learner, { deck_id: deck });
    expect(error).toBeNull();
    const expected = new Map<string, { reviews: number; again: number }>();
    for (const [at, again] of [
      [recent[0]!, 0],
      [recent[1]!, 1],
      [tenDaysAgo, 0],
      [fortyDaysAgo, 0],
    ] as const) {
      const entry = expected.get(utcDay(at)) ?? { reviews: 0, again: 0 };
      expected.set(utcDay(at), { reviews: entry.reviews + 1, again: entry.again + again });
    }
    expect(data!.per_day).toEqual(
      [...expected].sort(([a], [b]) => a.localeCompare(b)).map(([day, v]) => ({ day, ...v })),
    );
    expect(data!.retention).toEqual({
      last_30_days: { learned_reviews: 2, recalled: 1 },
      all_time: { learned_reviews: 3, recalled: 2 },
    });
    expect(data!.cards).toMatchObject({ new: 1, review: 1, suspended: 1 });

    // Over every deck, the other deck's card and its recalled review count too.
    const overall = (await statistics(learner)).data!;
    expect(overall.cards).toMatchObject({ new: 1, review: 2, suspended: 1 });
    expect(overall.retention.all_time).toEqual({ learned_reviews: 4, recalled: 3 });

    // A shorter window leaves the review of forty days ago out.
    const week = (await statistics(learner, { deck_id: deck, days: 7 })).data!;
    expect(week.per_day.map((d) => d.day)).not.toContain(utcDay(fortyDaysAgo));
    expect(week.per_day.map((d) => d.day)).not.toContain(utcDay(tenDaysAgo));
  });

  it('shows nobody else the learner\u2019s figures, and refuses what it cannot answer', async () => {
    const other = (await statistics(f.client('instructor'), { deck_id: deck })).data!;
    expect(other.per_day).toEqual([]);
    expect(other.cards.review).toBe(0);

    const anon = await statistics(f.client('anon'));
    expect(anon.error?.message).toMatch(/sign in|permission denied/i);

    const tooShort = await statistics(learner, { days: 3 });
    expect(tooShort.error?.message).toBe('days must be between 7 and 366, not 3');
  });

  it('writes an imported batch whole or not at all', async () => {
    const count = async () =>
      (
        await learner
          .from('flashcards')
          .select('id', { count: 'exact', head: true })
          .eq('deck_id', otherDeck)
      ).count;
    const before = await count();
    const good = [1, 2, 3].map((n) => ({
      deck_id: otherDeck,
      front: `Imported question ${n}`,
      back: `Answer ${n}`,
      source: 'import',
    }));
    const imported = await learner.from('flashcards').insert(good).select('id');
    expect(imported.error).toBeNull();
    expect(imported.data).toHaveLength(3);
    expect(await count()).toBe(before! + 3);

    const withBadRow = [
      ...good,
      { deck_id: otherDeck, front: ' ', back: 'empty front', source: 'import' },
    ];
    const refused = await learner.from('flashcards').insert(withBadRow).select('id');
    expect(refused.error?.code).toBe('23514');
    expect(await count()).toBe(before! + 3);

    // Cards cannot be imported into another learner's deck.
    const foreign = await f
      .client('instructor')
      .from('flashcards')
      .insert({ deck_id: deck, front: 'q', back: 'a', source: 'import' });
    expect(foreign.error).not.toBeNull();
  });

  it('makes a card from a bank question only when its answer cannot help in an open quiz', async () => {
    const learnerClient = f.client('learner');
    const make = (questionId: string) =>
      learnerClient.rpc('flashcard_from_question', { question_id: questionId });

    // Never answered: no card, whoever asks.
    const never = await learner.rpc('flashcard_from_question', { question_id: f.question });
    expect(never.error?.message).toBe(
      'Answer this question in a quiz first: its card shows the answer.',
    );

    // Answered correctly in the fixture's quiz: the card has the choices and the answer.
    const made = await make(f.question);
    expect(made.error).toBeNull();
    const { data: card } = await learnerClient
      .from('flashcards')
      .select('front, back, source, question_id')
      .eq('id', made.data as string)
      .single();
    expect(card).toMatchObject({ source: 'question', question_id: f.question });
    expect((card as { front: string }).front).toContain('- Oxygen\n- Nitrogen\n- Carbon dioxide');
    expect((card as { back: string }).back.startsWith('**Oxygen**')).toBe(true);
    // Asking again gives the same card, not a second one.
    expect((await make(f.question)).data).toBe(made.data);

    // Answered wrongly in a quiz with an attempt left: refused; after the last attempt: made.
    const quiz = await insertRow<{ id: string }>(f.service, 'assessments', {
      course_id: f.course,
      module_id: f.module,
      title: 'Breathing rate: practice',
      published: true,
      max_attempts: 2,
    });
    await insertRow(f.service, 'assessment_questions', {
      assessment_id: quiz.id,
      question_id: f.numericQuestion,
      course_id: f.course,
      position: 1,
    });
    const attempt = () =>
      learnerClient.rpc('submit_assessment_attempt', {
        assessment_id: quiz.id,
        answers: { [f.numericQuestion]: { value: 30 } },
      });
    expect((await attempt()).error).toBeNull();
    const early = await make(f.numericQuestion);
    expect(early.error?.message).toMatch(/^You can still take a quiz with this question/);
    expect(early.error?.code).toBe('42501');
    expect((await attempt()).error).toBeNull();
    const late = await make(f.numericQuestion);
    expect(late.error).toBeNull();
    const { data: numericCard } = await learnerClient
      .from('flashcards')
      .select('back')
      .eq('id', late.data as string)
      .single();
    expect((numericCard as { back: string }).back.startsWith('**12 (± 0.5) breaths/min**')).toBe(
      true,
    );
  });
});
