/**
 * Reading position and time on task through supabase-js (decision 0163, db/app 0430): the
 * readers add active seconds in small increments with `record_reading` and save a position
 * the database merges with what other surfaces saved; the database refuses an increment no
 * real reading could produce, on the RPC and on a direct write alike; nobody writes another
 * learner's progress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, insertRow, type LearningFixture } from './learning-fixture';

interface Progress {
  time_spent_seconds: number;
  position: Record<string, unknown> | null;
}

describe.each(databaseKinds)('reading sessions on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;

  async function progress(lessonId: string): Promise<Progress | null> {
    const { data, error } = await f.service
      .from('lesson_progress')
      .select('time_spent_seconds, position')
      .eq('user_id', f.users.learner.id)
      .eq('lesson_id', lessonId)
      .maybeSingle();
    if (error) throw new Error(error.message);
    return data as Progress | null;
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('adds increments and keeps the latest page, restored by any device', async () => {
    const learner = f.client('learner');
    const first = await learner.rpc('record_reading', {
      lesson_id: f.lesson2,
      seconds: 10,
      reading_position: { page: 3 },
    });
    expect(first.error).toBeNull();
    const second = await learner.rpc('record_reading', {
      lesson_id: f.lesson2,
      seconds: 15,
      reading_position: { page: 5 },
    });
    expect(second.error).toBeNull();
    expect(second.data).toEqual([{ total_seconds: 25, saved_position: { page: 5 } }]);
    // A position-only save (seconds 0) moves the page and leaves the time.
    await learner.rpc('record_reading', { lesson_id: f.lesson2, reading_position: { page: 7 } });
    // What a second device reads when it opens the reader.
    const { data } = await learner
      .from('lesson_progress')
      .select('time_spent_seconds, position')
      .eq('lesson_id', f.lesson2)
      .single();
    expect(data).toEqual({ time_spent_seconds: 25, position: { page: 7 } });
  });

  it('merges positions from different surfaces instead of replacing them', async () => {
    const learner = f.client('learner');
    const { error } = await learner.from('lesson_progress').upsert(
      {
        lesson_id: f.lesson2,
        course_id: f.course,
        status: 'in_progress',
        position: { scroll: 0.4 },
      },
      { onConflict: 'user_id,lesson_id' },
    );
    expect(error).toBeNull();
    expect((await progress(f.lesson2))?.position).toEqual({ page: 7, scroll: 0.4 });
  });

  it('refuses an absurd increment through the RPC with a clear error', async () => {
    const learner = f.client('learner');
    const before = await progress(f.lesson2);
    const { error } = await learner.rpc('record_reading', {
      lesson_id: f.lesson2,
      seconds: 100_000,
    });
    expect(error?.message).toMatch(/between 0 and 120 seconds; 100000 was sent/);
    const negative = await learner.rpc('record_reading', { lesson_id: f.lesson2, seconds: -5 });
    expect(negative.error?.message).toMatch(/between 0 and 120 seconds/);
    expect((await progress(f.lesson2))?.time_spent_seconds).toBe(before?.time_spent_seconds);
  });

  it('refuses an absurd growth written directly, and never lets the time go back', async () => {
    const learner = f.client('learner');
    const before = (await progress(f.lesson2))!.time_spent_seconds;
    const jump = await learner
      .from('lesson_progress')
      .update({ time_spent_seconds: before + 86_400 })
      .eq('lesson_id', f.lesson2);
    expect(jump.error?.message).toMatch(/can grow by at most \d+ seconds now/);
    const back = await learner
      .from('lesson_progress')
      .update({ time_spent_seconds: 0 })
      .eq('lesson_id', f.lesson2);
    expect(back.error).toBeNull();
    expect((await progress(f.lesson2))?.time_spent_seconds).toBe(before);
    // A first write of a lesson may not start with hours either.
    const lesson3 = await insertRow<{ id: string }>(f.service, 'lessons', {
      module_id: f.module,
      course_id: f.course,
      position: 3,
      title: 'Gas exchange, continued',
      kind: 'markdown',
      body: 'More about the alveoli.',
    });
    const fresh = await learner
      .from('lesson_progress')
      .insert({ lesson_id: lesson3.id, course_id: f.course, time_spent_seconds: 7200 });
    expect(fresh.error?.message).toMatch(
      /At most 120 seconds of reading time can be recorded at once; 7200 were sent/,
    );
  });

  it('lets nobody else record reading in the learner’s progress', async () => {
    const before = await progress(f.lesson2);
    for (const actor of ['other_learner', 'instructor', 'personal'] as const) {
      const { error } = await f
        .client(actor)
        .rpc('record_reading', { lesson_id: f.lesson2, seconds: 5, reading_position: { page: 1 } });
      expect(error?.message, actor).toMatch(/Only a learner enrolled in this lesson's course/);
      const direct = await f
        .client(actor)
        .from('lesson_progress')
        .update({ time_spent_seconds: 9999, position: { page: 1 } })
        .eq('user_id', f.users.learner.id)
        .eq('lesson_id', f.lesson2)
        .select();
      expect(direct.data ?? [], actor).toEqual([]);
    }
    const anon = await f.client('anon').rpc('record_reading', { lesson_id: f.lesson2, seconds: 5 });
    expect(anon.error).not.toBeNull();
    expect(await progress(f.lesson2)).toEqual(before);
  });

  it('refuses a position that is not an object', async () => {
    const { error } = await f
      .client('learner')
      .rpc('record_reading', { lesson_id: f.lesson2, seconds: 1, reading_position: [1, 2] });
    expect(error?.message).toMatch(/position must be a JSON object/);
  });
});
