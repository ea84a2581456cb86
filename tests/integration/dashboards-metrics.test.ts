/**
 * get_public_platform_metrics through /rest/v1/rpc as supabase-js calls it, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformMetrics } from '../../src/common/platform-metrics';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

describe.each(databaseKinds)('platform metrics on %s', (kind) => {
  let server: TestServer;

  async function metrics(of: TestServer = server): Promise<PlatformMetrics> {
    // Every check here reads the figures right after a change: past the shared cache, which
    // may answer from up to a second ago (decision 0017).
    const { data, error } = await of
      .anon()
      .rpc('get_public_platform_metrics')
      .setHeader('Cache-Control', 'no-cache');
    expect(error).toBeNull();
    return data as PlatformMetrics;
  }

  async function createUser(email: string): Promise<string> {
    const { rows } = await server.deps.db.query<{ id: string }>(
      'insert into auth.users (email) values ($1) returning id',
      [email],
    );
    return rows[0]!.id;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  it('answers anonymous callers with the documented shape and real, empty-database figures', async () => {
    // Figures of an empty database need a database that no other test has written to.
    const empty = await startTestServer(kind);
    const m = await metrics(empty).finally(() => empty.stop());
    expect(m.totals).toEqual({
      users: 0,
      courses: 0,
      enrollments: 0,
      notes: 0,
      flashcards: 0,
      active_users_7d: 0,
      active_today: 0,
    });
    expect(Object.keys(m.estimates).sort()).toEqual(
      [
        'auth_requests',
        'db_requests',
        'functions_requests',
        'realtime_events',
        'storage_requests',
        'window_hours',
        'window_start',
      ].sort(),
    );
    expect(m.estimates.window_hours).toBe(24);
    // Before the gateway's first counter flush the estimates are numbers too: zero so far.
    expect(m.estimates).toMatchObject({
      db_requests: 0,
      auth_requests: 0,
      storage_requests: 0,
      realtime_events: 0,
      functions_requests: 0,
    });
    const windowStart = Date.parse(m.estimates.window_start);
    expect(Math.abs(Date.parse(m.generated_at) - windowStart - 24 * 3600_000)).toBeLessThan(1000);
    expect(m.completion).toEqual({ completed: 0, in_progress: 0, not_started: 0 });
    expect(m.db_connections).toBeGreaterThanOrEqual(1);
    if (kind === 'pglite') expect(m.db_connections).toBe(1);
    expect(Math.abs(Date.parse(m.generated_at) - Date.now())).toBeLessThan(60_000);
  });

  it('counts rows users add through the API, although RLS hides those rows from other callers', async () => {
    const before = await metrics();
    const alice = await createUser(`alice-${kind}@example.test`);
    const bob = await createUser(`bob-${kind}@example.test`);
    const asAlice = server.withToken(await signUserToken(server, alice, { expiresIn: '10m' }));
    const asBob = server.withToken(await signUserToken(server, bob, { expiresIn: '10m' }));

    const course = await asAlice
      .from('courses')
      .insert({ title: 'Cell biology', owner_id: alice, published: false })
      .select('id')
      .single();
    expect(course.error).toBeNull();
    const courseId = (course.data as { id: string }).id;
    // Progress comes from completed lessons (decision 0100): two lessons, both completed.
    const module = await asAlice
      .from('modules')
      .insert({ course_id: courseId, position: 1, title: 'Cells' })
      .select('id')
      .single();
    expect(module.error).toBeNull();
    const lessons = await asAlice
      .from('lessons')
      .insert(
        [1, 2].map((position) => ({
          module_id: (module.data as { id: string }).id,
          course_id: courseId,
          position,
          title: `Lesson ${position}`,
          kind: 'markdown',
          body: 'Cells divide.',
        })),
      )
      .select('id');
    expect(lessons.error).toBeNull();
    const lessonIds = (lessons.data as { id: string }[]).map((l) => l.id);
    expect(
      (await asAlice.from('enrollments').insert({ course_id: courseId, user_id: alice })).error,
    ).toBeNull();
    const completedAt = new Date().toISOString();
    expect(
      (
        await asAlice.from('lesson_progress').insert(
          lessonIds.map((lesson_id) => ({
            lesson_id,
            course_id: courseId,
            status: 'completed',
            completed_at: completedAt,
          })),
        )
      ).error,
    ).toBeNull();
    expect(
      (await asAlice.from('notes').insert([{ title: 'Mitosis' }, { title: 'Meiosis' }])).error,
    ).toBeNull();
    expect(
      (await asAlice.from('flashcards').insert({ front: 'ATP?', back: 'Energy' })).error,
    ).toBeNull();

    // Bob and anonymous visitors cannot see Alice's rows…
    expect((await asBob.from('notes').select('id')).data).toEqual([]);
    expect((await server.anon().from('public_courses').select('id')).data).toEqual([]);

    // …but the public figures count them.
    const after = await metrics();
    expect(after.totals.users).toBe(before.totals.users + 2);
    expect(after.totals.courses).toBe(before.totals.courses + 1);
    expect(after.totals.enrollments).toBe(before.totals.enrollments + 1);
    expect(after.totals.notes).toBe(before.totals.notes + 2);
    expect(after.totals.flashcards).toBe(before.totals.flashcards + 1);
    expect(after.completion.completed).toBe(before.completion.completed + 1);
    // Alice wrote, so she is active; Bob only read.
    expect(after.totals.active_today).toBe(before.totals.active_today + 1);
    expect(after.totals.active_users_7d).toBe(before.totals.active_users_7d + 1);

    // Deleting and updating move the counters back.
    expect(
      (
        await asAlice
          .from('lesson_progress')
          .update({ status: 'in_progress', completed_at: null })
          .eq('lesson_id', lessonIds[0]!)
      ).error,
    ).toBeNull();
    expect((await asAlice.from('notes').delete().eq('title', 'Meiosis')).error).toBeNull();
    const later = await metrics();
    expect(later.totals.notes).toBe(after.totals.notes - 1);
    expect(later.completion.completed).toBe(after.completion.completed - 1);
    expect(later.completion.in_progress).toBe(after.completion.in_progress + 1);
  });

  it('counts active users over exact 24-hour and 7-day windows', async () => {
    const before = await metrics();
    const ids: string[] = [];
    for (const name of ['inside-day', 'edge-day-in', 'edge-day-out', 'three-days', 'eight-days']) {
      ids.push(await createUser(`${name}-${kind}@example.test`));
    }
    const ages = [
      '2 hours',
      '23 hours 59 minutes 30 seconds',
      '24 hours 30 seconds',
      '3 days',
      '8 days',
    ];
    // The edges lie 30 s either side of the window's start: if the read came more than 25 s after
    // the rows were placed (a loaded machine), they are placed again against the clock and read
    // again, so the figures always see the ages written above.
    let after: PlatformMetrics;
    for (;;) {
      const placed = Date.now();
      for (const [i, id] of ids.entries()) {
        await server.deps.db.query(
          `insert into public.user_activity (user_id, last_active_at) values ($1, now() - $2::interval)
           on conflict (user_id) do update set last_active_at = excluded.last_active_at`,
          [id, ages[i]],
        );
      }
      after = await metrics();
      if (Date.now() - placed < 25_000) break;
    }
    expect(after.totals.active_today - before.totals.active_today).toBe(2);
    expect(after.totals.active_users_7d - before.totals.active_users_7d).toBe(4);

    // A user becoming active again moves between buckets rather than being counted twice.
    await server.deps.db.query(
      'update public.user_activity set last_active_at = now() where user_id = $1',
      [ids[4]],
    );
    const moved = await metrics();
    expect(moved.totals.active_today - after.totals.active_today).toBe(1);
    expect(moved.totals.active_users_7d - after.totals.active_users_7d).toBe(1);
  });

  it('counts a sign-in as activity', async () => {
    const dave = await createUser(`dave-${kind}@example.test`);
    const before = await metrics();
    await server.deps.db.query('update auth.users set last_sign_in_at = now() where id = $1', [
      dave,
    ]);
    const after = await metrics();
    expect(after.totals.active_today).toBe(before.totals.active_today + 1);
    // An older sign-in time does not move the activity back.
    await server.deps.db.query(
      `update auth.users set last_sign_in_at = now() - interval '3 days' where id = $1`,
      [dave],
    );
    expect((await metrics()).totals.active_today).toBe(after.totals.active_today);
  });

  it("records activity only for a signed-in caller and keeps activity rows out of clients' hands", async () => {
    const anonCall = await server.anon().rpc('record_activity');
    expect(anonCall.error).not.toBeNull();

    const carol = await createUser(`carol-${kind}@example.test`);
    const asCarol = server.withToken(await signUserToken(server, carol, { expiresIn: '10m' }));
    const before = await metrics();
    expect((await asCarol.rpc('record_activity')).error).toBeNull();
    expect((await metrics()).totals.active_today).toBe(before.totals.active_today + 1);

    const forged = await asCarol
      .from('user_activity')
      .insert({ user_id: carol, last_active_at: '2020-01-01T00:00:00Z' });
    expect(forged.error).not.toBeNull();
    const own = await asCarol.from('user_activity').select('user_id');
    expect(own.data).toEqual([{ user_id: carol }]);
  });

  it('reports request estimates, latency and the last hour from the gateway counters', async () => {
    await server.deps.db.exec(`
      delete from platform.request_metrics;
      insert into platform.request_metrics (minute, service, requests, errors, p50_ms, p99_ms) values
        (date_trunc('minute', now()), 'rest', 40, 2, 3.5, 20),
        (date_trunc('minute', now()) - interval '2 minutes', 'rest', 60, 0, 9, 30),
        (date_trunc('minute', now()) - interval '3 hours', 'auth', 7, 1, 12, 40),
        (date_trunc('minute', now()) - interval '5 minutes', 'storage', 5, 0, 2, 4),
        (date_trunc('minute', now()) - interval '25 hours', 'rest', 1000, 0, 1, 1);
    `);
    const m = await metrics();
    expect(m.estimates.db_requests).toBe(100);
    expect(m.estimates.auth_requests).toBe(7);
    expect(m.estimates.storage_requests).toBe(5);
    expect(m.estimates.realtime_events).toBe(0);
    expect(m.response_time_ms).toBe(3.5);
    expect(m.response_time_p99_ms).toBe(20);
    expect(m.requests_last_hour).toHaveLength(60);
    const last = m.requests_last_hour!.at(-1)!;
    expect(last).toMatchObject({ requests: 40, errors: 2 });
    expect(m.requests_last_hour!.reduce((s, p) => s + p.requests, 0)).toBe(105);

    // With nothing recorded in the window the counts are zero (the spec's shape has numbers);
    // the per-minute series and the latency are unknown.
    await server.deps.db.exec('delete from platform.request_metrics');
    const empty = await metrics();
    expect(empty.estimates).toEqual({
      db_requests: 0,
      auth_requests: 0,
      storage_requests: 0,
      realtime_events: 0,
      functions_requests: 0,
      window_hours: 24,
      window_start: expect.any(String),
    });
    expect(empty.requests_last_hour).toBeNull();
    expect(empty.response_time_ms).toBeNull();
  });

  it('counts the requests the gateway really served', async () => {
    const metricsStore = server.deps.metrics;
    await metricsStore.flush(server.deps.db);
    await server.deps.db.exec('delete from platform.request_metrics');
    for (let i = 0; i < 7; i++) {
      expect((await server.anon().from('public_courses').select('id')).error).toBeNull();
    }
    const storage = await fetch(`${server.url}/storage/v1/bucket`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${server.anonKey}` },
    });
    await storage.body?.cancel();
    await metricsStore.flush(server.deps.db);

    const m = await metrics();
    expect(m.estimates.db_requests).toBe(7);
    expect(m.estimates.storage_requests).toBe(1);
    expect(m.estimates.auth_requests).toBe(0);
    expect(m.response_time_ms).toEqual(expect.any(Number));
    expect(m.requests_last_hour!.reduce((sum, p) => sum + p.requests, 0)).toBe(8);
  });

  it('refuses anonymous callers the internal helpers', async () => {
    const { error } = await server.anon().rpc('touch_user_activity', { p_user: null });
    expect(error).not.toBeNull();
    const direct = await server.deps.db
      .asRole({ role: 'anon' }, (tx) =>
        tx.query("select platform.active_users_since(interval '1 day')"),
      )
      .then(
        () => 'allowed',
        (e: Error) => e.message,
      );
    expect(direct).toMatch(/permission denied/);
  });
});
