/**
 * XP, streaks, badges, goals and the leaderboard (decisions 0171, 0172) through supabase-js:
 * XP comes only from events the database saw (no client can insert, update or send an
 * amount), each award happens once, days are the learner's own calendar days, goals move with
 * real lesson, quiz, flashcard and study-time events and pay once at 100 %, nobody reads
 * another learner's XP, and the leaderboard lists only those who opted in.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';
import { flashcardReviewRow, insertRow, questionRow, unique } from './learning-fixture';

interface Learner {
  id: string;
  client: SupabaseClient;
}

interface Progress {
  xp: number;
  level: number;
  level_xp: number;
  next_level_xp: number;
  current_streak: number;
  longest_streak: number;
  freezes: number;
  active_today: boolean;
  today: string;
  time_zone: string;
}

/** The calendar date now in a time zone, as YYYY-MM-DD. */
function dateIn(timeZone: string, at = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

describe.each(databaseKinds)('XP, streaks and goals on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;
  let ada: Learner;
  let ben: Learner;
  let cy: Learner;
  let dee: Learner;
  let course: string;
  let module: string;
  let lessons: string[];
  let quiz: string;
  let question: string;
  let deck: string;
  let card: string;

  async function learner(label: string, displayName: string): Promise<Learner> {
    const email = `${unique(label)}@example.com`;
    const password = `pass-${randomUUID()}`;
    const created = await service.auth.admin.createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: { display_name: displayName },
    });
    if (created.error) throw new Error(created.error.message);
    const signIn = await server.anon().auth.signInWithPassword({ email, password });
    if (signIn.error) throw new Error(signIn.error.message);
    return {
      id: created.data.user.id,
      client: testClient(server, server.anonKey, signIn.data.session.access_token),
    };
  }

  async function progress(who: Learner): Promise<Progress> {
    const { data, error } = await who.client.rpc('get_my_progress');
    if (error) throw new Error(error.message);
    return data as Progress;
  }

  async function xpRows(who: Learner) {
    const { data } = await service
      .from('xp_events')
      .select('source, source_id, amount, local_day')
      .eq('user_id', who.id)
      .order('id');
    return data ?? [];
  }

  const complete = (who: Learner, lesson: string, seconds = 0) =>
    who.client.from('lesson_progress').upsert(
      {
        lesson_id: lesson,
        course_id: course,
        status: 'completed',
        completed_at: new Date().toISOString(),
        time_spent_seconds: seconds,
      },
      { onConflict: 'user_id,lesson_id' },
    );

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    service = server.service();
    ada = await learner('ada', 'Ada');
    ben = await learner('ben', 'Ben');
    cy = await learner('cy', 'Cy');
    dee = await learner('dee', 'Dee');
    const org = await insertRow<{ id: string }>(service, 'organizations', {
      name: 'Progress University',
      slug: unique('progress'),
    });
    for (const who of [ada, ben, cy, dee]) {
      await insertRow(service, 'memberships', {
        user_id: who.id,
        organization_id: org.id,
        role: 'learner',
      });
    }
    course = (
      await insertRow<{ id: string }>(service, 'courses', {
        organization_id: org.id,
        title: 'The respiratory system',
        published: true,
        visibility: 'organization',
      })
    ).id;
    module = (
      await insertRow<{ id: string }>(service, 'modules', {
        course_id: course,
        position: 1,
        title: 'The lungs',
      })
    ).id;
    lessons = [];
    for (const position of [1, 2]) {
      const lesson = await insertRow<{ id: string }>(service, 'lessons', {
        module_id: module,
        course_id: course,
        position,
        title: `Lesson ${position}`,
        kind: 'markdown',
        body: 'Air enters through the trachea.',
      });
      lessons.push(lesson.id);
    }
    question = (
      await insertRow<{ id: string }>(service, 'questions', questionRow(course, module, 'gas'))
    ).id;
    quiz = (
      await insertRow<{ id: string }>(service, 'assessments', {
        course_id: course,
        module_id: module,
        title: 'The lungs: quiz',
        published: true,
      })
    ).id;
    await insertRow(service, 'assessment_questions', {
      assessment_id: quiz,
      question_id: question,
      course_id: course,
      position: 1,
    });
    for (const who of [ada, ben, cy]) {
      await insertRow(service, 'enrollments', { user_id: who.id, course_id: course });
    }
    deck = (
      await insertRow<{ id: string }>(service, 'flashcard_decks', {
        user_id: ada.id,
        course_id: course,
        name: 'The lungs',
      })
    ).id;
    card = (
      await insertRow<{ id: string }>(service, 'flashcards', {
        user_id: ada.id,
        deck_id: deck,
        front: 'Where does gas exchange happen?',
        back: 'In the alveoli',
      })
    ).id;
  });
  afterAll(() => server?.stop());

  it('awards 10 XP for a completed lesson, once however often it is completed', async () => {
    expect(await progress(ada)).toMatchObject({ xp: 0, level: 1, level_xp: 0, next_level_xp: 100 });
    expect((await complete(ada, lessons[0]!)).error).toBeNull();
    await ada.client
      .from('lesson_progress')
      .update({ status: 'in_progress', completed_at: null })
      .eq('lesson_id', lessons[0]!);
    await complete(ada, lessons[0]!);
    expect(await xpRows(ada)).toEqual([
      {
        source: 'lesson_completed',
        source_id: lessons[0],
        amount: 10,
        local_day: dateIn('UTC'),
      },
    ]);
    const badges = await ada.client.from('user_badges').select('badge');
    expect(badges.data).toEqual([{ badge: 'first_lesson' }]);
  });

  it('awards a passed quiz by its score, and nothing for a failed one', async () => {
    const passed = await ada.client.rpc('submit_assessment_attempt', {
      assessment_id: quiz,
      answers: { [question]: { choice: 'a' } },
    });
    expect(passed.error).toBeNull();
    const failed = await ben.client.rpc('submit_assessment_attempt', {
      assessment_id: quiz,
      answers: { [question]: { choice: 'b' } },
    });
    expect(failed.error).toBeNull();
    expect((await progress(ada)).xp).toBe(60);
    expect((await xpRows(ada)).at(-1)).toMatchObject({ source: 'quiz_passed', amount: 50 });
    expect((await progress(ben)).xp).toBe(0);
    const badges = await ada.client.from('user_badges').select('badge').order('badge');
    expect(badges.data?.map((b) => b.badge)).toEqual([
      'first_lesson',
      'first_quiz',
      'perfect_score',
    ]);
  });

  it('awards 1 XP per card reviewed, and takes it back when the review is undone', async () => {
    const review = await insertRow<{ id: string }>(
      service,
      'flashcard_reviews',
      flashcardReviewRow(ada.id, card, deck),
    );
    expect((await progress(ada)).xp).toBe(61);
    await service.from('flashcard_reviews').delete().eq('id', review.id);
    expect((await progress(ada)).xp).toBe(60);
  });

  it('cannot be forged: no insert, update or delete, and no function takes an amount', async () => {
    const before = await xpRows(ada);
    const insert = await ada.client.from('xp_events').insert({
      user_id: ada.id,
      source: 'goal_met',
      source_id: 'forged',
      amount: 100,
      local_day: dateIn('UTC'),
    });
    expect(insert.error).toMatchObject({ code: '42501' });
    const update = await ada.client.from('xp_events').update({ amount: 100 }).eq('user_id', ada.id);
    expect(update.error).toMatchObject({ code: '42501' });
    const remove = await ben.client.from('xp_events').delete().eq('user_id', ada.id);
    expect(remove.error).toMatchObject({ code: '42501' });
    const badge = await ada.client
      .from('user_badges')
      .insert({ user_id: ada.id, badge: 'level_10' });
    expect(badge.error).toMatchObject({ code: '42501' });
    const time = await ada.client
      .from('study_time')
      .insert({ user_id: ada.id, course_id: course, local_day: dateIn('UTC'), seconds: 86400 });
    expect(time.error).toMatchObject({ code: '42501' });
    for (const [fn, args] of [
      ['award_xp', { uid: ada.id, kind: 'goal_met', source: 'x', course, points: 100 }],
      ['get_my_progress', { xp: 1000 }],
    ] as const) {
      const rpc = await ada.client.rpc(fn, args);
      expect(rpc.error, fn).toMatchObject({ code: 'PGRST202' });
    }
    // The internal schema is not reachable over REST either.
    const internal = await ada.client
      .schema('learning' as 'public')
      .rpc('award_xp', { uid: ada.id, kind: 'goal_met', source: 'x', course, points: 100 });
    expect(internal.error).not.toBeNull();
    expect(await xpRows(ada)).toEqual(before);
  });

  it("keeps each learner's XP, badges and study time to themself", async () => {
    for (const table of ['xp_events', 'user_badges', 'study_time']) {
      const other = await ben.client.from(table).select('*').eq('user_id', ada.id);
      expect(other.data, table).toEqual([]);
    }
    expect((await server.anon().from('xp_events').select('*')).error).toMatchObject({
      code: '42501',
    });
    expect((await server.anon().rpc('get_my_progress')).error).not.toBeNull();
  });

  it('counts days in the learner time zone across the date line', async () => {
    // Kiritimati is UTC+14 and Pago Pago UTC−11: the same moment is never the same date.
    await ben.client
      .from('user_preferences')
      .upsert({ user_id: ben.id, time_zone: 'Pacific/Kiritimati' });
    expect((await complete(ben, lessons[0]!)).error).toBeNull();
    const kiritimati = dateIn('Pacific/Kiritimati');
    expect((await xpRows(ben))[0]).toMatchObject({ local_day: kiritimati });
    expect(await progress(ben)).toMatchObject({
      today: kiritimati,
      active_today: true,
      current_streak: 1,
    });

    await ben.client
      .from('user_preferences')
      .update({ time_zone: 'Pacific/Pago_Pago' })
      .eq('user_id', ben.id);
    const pagoPago = dateIn('Pacific/Pago_Pago');
    expect(pagoPago < kiritimati).toBe(true);
    // The lesson was done on a day that has not begun in Pago Pago yet.
    expect(await progress(ben)).toMatchObject({
      today: pagoPago,
      time_zone: 'Pacific/Pago_Pago',
      active_today: false,
      current_streak: 0,
    });
  });

  it("counts today by the learner's calendar whatever their history: XP cap, review goal, badges", async () => {
    // Kiritimati (UTC+14): local midnight is far from UTC's, so a day read as UTC shows.
    const zone = 'Pacific/Kiritimati';
    const eve = await learner('eve', 'Eve');
    await eve.client.from('user_preferences').upsert({ user_id: eve.id, time_zone: zone });
    const today = dateIn(zone);
    // A week of full days before today: 50 card awards each, the daily cap.
    const history = Array.from({ length: 7 * 50 }, (_, i) => ({
      user_id: eve.id,
      source: 'cards_reviewed',
      source_id: `history-${i}`,
      amount: 1,
      local_day: addDays(today, -1 - Math.floor(i / 50)),
    }));
    expect((await service.from('xp_events').insert(history)).error).toBeNull();
    const eveDeck = await insertRow<{ id: string }>(service, 'flashcard_decks', {
      user_id: eve.id,
      name: 'Eve',
    });
    const eveCard = await insertRow<{ id: string }>(service, 'flashcards', {
      user_id: eve.id,
      deck_id: eveDeck.id,
      front: 'What carries oxygen in the blood?',
      back: 'Haemoglobin',
    });
    const goal = await eve.client
      .from('goals')
      .insert({ kind: 'review_cards_daily', target_count: 3, title: 'Three cards a day' })
      .select('id')
      .single();
    expect(goal.error).toBeNull();
    // Local midnight of today, as an instant: Kiritimati has no daylight saving time.
    const midnight = new Date(`${today}T00:00:00+14:00`).getTime();
    const reviewAt = async (at: number) =>
      insertRow(service, 'flashcard_reviews', {
        ...flashcardReviewRow(eve.id, eveCard.id, eveDeck.id),
        reviewed_at: new Date(at).toISOString(),
      });
    await reviewAt(midnight - 1_000);
    await reviewAt(midnight - 3 * 86_400_000);
    await reviewAt(midnight + 1_000);

    const { data: goals } = await eve.client.rpc('get_my_goals');
    expect(goals).toMatchObject([{ id: goal.data!.id, current: 1, period: today }]);
    // Every rating was made today (the server's clock), under today's cap: 350 + 3.
    const cardAwards = (await xpRows(eve)).filter((row) => row.source === 'cards_reviewed');
    expect(cardAwards.filter((row) => row.local_day === today)).toHaveLength(3);
    expect((await progress(eve)).xp).toBe(353);
    const badges = await eve.client.from('user_badges').select('badge').order('badge');
    expect(badges.data?.map((b) => b.badge)).toEqual(['hundred_cards', 'streak_7']);
  });

  it('keeps a streak through a missed day only with a freeze earned by 7 days in a row', async () => {
    const today = dateIn('UTC');
    const history = async (who: Learner, daysAgo: number[]) => {
      for (const n of daysAgo) {
        await insertRow(service, 'xp_events', {
          user_id: who.id,
          source: 'lesson_completed',
          source_id: `history-${n}`,
          amount: 10,
          local_day: addDays(today, -n),
        });
      }
    };
    // Cy: 6 days, a miss (no freeze yet), then 2 days; today not yet studied.
    await history(cy, [9, 8, 7, 6, 5, 4, 2, 1]);
    expect(await progress(cy)).toMatchObject({
      current_streak: 2,
      longest_streak: 6,
      freezes: 0,
      active_today: false,
    });
    // Dee: 7 days earn a freeze, which the miss uses; the streak goes on.
    await history(dee, [10, 9, 8, 7, 6, 5, 4, 2, 1]);
    expect(await progress(dee)).toMatchObject({
      current_streak: 9,
      longest_streak: 9,
      freezes: 0,
    });
  });

  it('moves goals with real events and pays 25 XP once at 100 %', async () => {
    const xpBefore = (await progress(ada)).xp;
    const goal = await ada.client
      .from('goals')
      .insert({
        course_id: course,
        kind: 'complete_module',
        module_id: module,
        title: 'Finish the lungs',
      })
      .select('id')
      .single();
    expect(goal.error).toBeNull();
    const cards = await ada.client
      .from('goals')
      .insert({ kind: 'review_cards_daily', target_count: 2, title: 'Two cards a day' })
      .select('id')
      .single();
    expect(cards.error).toBeNull();
    const minutes = await ada.client
      .from('goals')
      .insert({ course_id: course, kind: 'study_minutes_weekly', target_count: 2, title: 'Study' })
      .select('id')
      .single();
    expect(minutes.error).toBeNull();
    const score = await ada.client
      .from('goals')
      .insert({
        course_id: course,
        kind: 'reach_score',
        assessment_id: quiz,
        target_score: 80,
        title: 'Score 80',
      })
      .select('id')
      .single();
    const goals = async () => {
      const { data, error } = await ada.client.rpc('get_my_goals');
      if (error) throw new Error(error.message);
      return new Map(
        (
          data as { id: string; percent: number; current: number; achieved_at: string | null }[]
        ).map((g) => [g.id, g]),
      );
    };
    let now = await goals();
    expect(now.get(goal.data!.id)).toMatchObject({ percent: 50, achieved_at: null });
    expect(now.get(cards.data!.id)).toMatchObject({ percent: 0 });
    // Set after the quiz was passed: met at once.
    expect(now.get(score.data!.id)!.percent).toBe(100);
    expect(now.get(score.data!.id)!.achieved_at).not.toBeNull();
    expect((await progress(ada)).xp).toBe(xpBefore + 25);

    await complete(ada, lessons[1]!, 90);
    now = await goals();
    expect(now.get(goal.data!.id)!.percent).toBe(100);
    expect(now.get(goal.data!.id)!.achieved_at).not.toBeNull();
    expect(now.get(minutes.data!.id)).toMatchObject({ percent: 50, current: 1 });
    // Completing it again pays nothing more.
    await ada.client
      .from('lesson_progress')
      .update({ status: 'in_progress', completed_at: null })
      .eq('lesson_id', lessons[1]!);
    await complete(ada, lessons[1]!, 150);
    now = await goals();
    expect(now.get(minutes.data!.id)).toMatchObject({ percent: 100, current: 2 });

    for (let i = 0; i < 2; i++) {
      await insertRow(service, 'flashcard_reviews', flashcardReviewRow(ada.id, card, deck));
    }
    now = await goals();
    expect(now.get(cards.data!.id)!.percent).toBe(100);

    const paid = (await xpRows(ada)).filter((row) => row.source === 'goal_met');
    expect(paid.map((row) => row.source_id).sort()).toEqual(
      [
        score.data!.id,
        goal.data!.id,
        `${minutes.data!.id}:${(await ada.client.rpc('get_my_goals')).data.find((g: { id: string }) => g.id === minutes.data!.id).period}`,
        `${cards.data!.id}:${dateIn('UTC')}`,
      ].sort(),
    );
    expect(paid.every((row) => row.amount === 25)).toBe(true);
    // 10 (lesson 2) + 2 (cards) + 4 × 25 (goals).
    expect((await progress(ada)).xp).toBe(xpBefore + 10 + 2 + 100);
  });

  it("lists on the leaderboard only the learners who opted in, for the course's members", async () => {
    const board = async (who: Learner) =>
      who.client.rpc('course_leaderboard', { course_id: course });
    expect((await board(ada)).data).toEqual([]);
    await ada.client.from('user_preferences').upsert({ user_id: ada.id, leaderboard_opt_in: true });
    await ben.client
      .from('user_preferences')
      .update({ leaderboard_opt_in: true })
      .eq('user_id', ben.id);
    const seen = await board(cy);
    expect(seen.error).toBeNull();
    expect(seen.data).toEqual([
      { rank: 1, display_name: 'Ada', xp: expect.any(Number), is_me: false },
      { rank: 2, display_name: 'Ben', xp: 10, is_me: false },
    ]);
    expect((await board(ben)).data[1]).toMatchObject({ display_name: 'Ben', is_me: true });
    // Dee is not enrolled in the course.
    expect((await board(dee)).error).toMatchObject({ code: '42501' });
  });
});
