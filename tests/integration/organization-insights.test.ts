/**
 * Organization analytics (decision 0135) and settings (decision 0136): after every kind of
 * write the counters answer what a recount of the source rows gives; only the organization's
 * admins (and, per board, its owner) read them; the threshold, name and slug are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, unique, type LearningFixture } from './learning-fixture';

interface Totals {
  courses: number;
  learners: number;
  enrollments: number;
  completions: number;
  graded_attempts: number;
  average_score: number | null;
  active_learners_7d: number;
  window_start: string;
}

interface CourseFigures {
  course_id: string;
  enrollments: number;
  completions: number;
  graded_attempts: number;
  average_score: number | null;
  active_learners_7d: number | null;
}

interface BoardFigures {
  board_id: string;
  learners: number;
  enrollments: number;
  completions: number;
  graded_attempts: number;
  average_score: number | null;
  active_learners_7d: number;
}

type Row = Record<string, unknown>;

async function all(service: SupabaseClient, table: string, filter: Row = {}): Promise<Row[]> {
  const { data, error } = await service.from(table).select('*').match(filter);
  if (error) throw new Error(`${table}: ${error.message}`);
  return data as Row[];
}

const utcDay = (ts: string) => new Date(ts).toISOString().slice(0, 10);
const round1 = (sum: number, count: number) =>
  count === 0 ? null : Math.round((sum / count) * 10) / 10;

/**
 * The figures recounted from the source rows, in plain code, by the definitions the decision
 * states: enrolments not dropped, completions with status completed, graded scores, and a
 * learner active when their latest progress or attempt in the organization falls on one of
 * the window's days; a board's figures are its active learner members' in the courses
 * distributed to the board.
 */
async function recount(f: LearningFixture, windowStart: string) {
  const service = f.service;
  const courses = (await all(service, 'courses', { organization_id: f.orgA })).map(
    (c) => c.id as string,
  );
  const inOrg = new Set(courses);
  interface Pair {
    enrolled: boolean;
    completed: boolean;
    sum: number;
    count: number;
    last: string | null;
  }
  const pairs = new Map<string, Pair>();
  const pair = (course: string, user: string) => {
    const key = `${course}|${user}`;
    let p = pairs.get(key);
    if (!p) {
      p = { enrolled: false, completed: false, sum: 0, count: 0, last: null };
      pairs.set(key, p);
    }
    return p;
  };
  const later = (a: string | null, b: string) => (a === null || utcDay(b) > a ? utcDay(b) : a);
  for (const e of await all(service, 'enrollments')) {
    if (!inOrg.has(e.course_id as string)) continue;
    const p = pair(e.course_id as string, e.user_id as string);
    p.enrolled = e.status !== 'dropped';
    p.completed = e.status === 'completed';
  }
  for (const l of await all(service, 'lesson_progress')) {
    if (!inOrg.has(l.course_id as string)) continue;
    const p = pair(l.course_id as string, l.user_id as string);
    p.last = later(p.last, l.updated_at as string);
  }
  for (const a of await all(service, 'assessment_attempts')) {
    if (!inOrg.has(a.course_id as string)) continue;
    const p = pair(a.course_id as string, a.user_id as string);
    p.last = later(p.last, a.submitted_at as string);
    if (a.score !== null) {
      p.sum += Number(a.score);
      p.count += 1;
    }
  }
  const perCourse = new Map<string, CourseFigures & { sum: number }>();
  for (const id of courses) {
    perCourse.set(id, {
      course_id: id,
      enrollments: 0,
      completions: 0,
      graded_attempts: 0,
      average_score: null,
      active_learners_7d: 0,
      sum: 0,
    });
  }
  const lastByUser = new Map<string, string>();
  for (const [key, p] of pairs) {
    const [course, user] = key.split('|') as [string, string];
    const c = perCourse.get(course)!;
    c.enrollments += Number(p.enrolled);
    c.completions += Number(p.completed);
    c.sum += p.sum;
    c.graded_attempts += p.count;
    if (p.last && p.last >= windowStart) c.active_learners_7d! += 1;
    if (p.last && p.last > (lastByUser.get(user) ?? '')) lastByUser.set(user, p.last);
  }
  for (const c of perCourse.values()) c.average_score = round1(c.sum, c.graded_attempts);
  const active = (users: Iterable<string>) =>
    [...users].filter((u) => (lastByUser.get(u) ?? '') >= windowStart).length;

  const memberships = await all(service, 'memberships', { organization_id: f.orgA });
  const distributed = await all(service, 'course_boards', { organization_id: f.orgA });
  const boards = (await all(service, 'boards', { organization_id: f.orgA })).map((b) => {
    const learners = new Set(
      memberships
        .filter((m) => m.board_id === b.id && m.active && m.role === 'learner')
        .map((m) => m.user_id as string),
    );
    const boardCourses = new Set(
      distributed.filter((d) => d.board_id === b.id).map((d) => d.course_id as string),
    );
    const mine = [...pairs].filter(([key]) => {
      const [course, user] = key.split('|') as [string, string];
      return learners.has(user) && boardCourses.has(course);
    });
    const lastInBoard = new Map<string, string>();
    for (const [key, p] of mine) {
      const user = key.split('|')[1]!;
      if (p.last && p.last > (lastInBoard.get(user) ?? '')) lastInBoard.set(user, p.last);
    }
    const sum = mine.reduce((s, [, p]) => s + p.sum, 0);
    const count = mine.reduce((s, [, p]) => s + p.count, 0);
    return {
      board_id: b.id as string,
      learners: learners.size,
      enrollments: mine.filter(([, p]) => p.enrolled).length,
      completions: mine.filter(([, p]) => p.completed).length,
      graded_attempts: count,
      average_score: round1(sum, count),
      active_learners_7d: [...lastInBoard.values()].filter((day) => day >= windowStart).length,
    };
  });
  const list = [...perCourse.values()];
  const sum = list.reduce((s, c) => s + c.sum, 0);
  const graded = list.reduce((s, c) => s + c.graded_attempts, 0);
  return {
    totals: {
      courses: courses.length,
      learners: new Set(
        memberships.filter((m) => m.active && m.role === 'learner').map((m) => m.user_id),
      ).size,
      enrollments: list.reduce((s, c) => s + c.enrollments, 0),
      completions: list.reduce((s, c) => s + c.completions, 0),
      graded_attempts: graded,
      average_score: round1(sum, graded),
      active_learners_7d: active(lastByUser.keys()),
    },
    courses: list.map(({ sum: _sum, ...figures }) => figures),
    boards,
  };
}

describe.each(databaseKinds)('organization insights on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  beforeAll(async () => {
    // The service key makes ~170 requests (fixture and recounts) back to back, in 0.7–2.2 s
    // depending on load: at the default 100 per second (a bucket of 100) a quick run gets 429s.
    server = await startTestServer(kind, {
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      API_RATE_LIMIT_PER_SECOND: '100000',
    });
    f = await buildLearningFixture(server);
  });
  afterAll(() => server?.stop());

  /**
   * The three procedures' figures over one 7-day window: read again if midnight UTC moved the
   * window while they were read (the totals' window, read once more after them, has not moved).
   */
  async function figures(client: SupabaseClient) {
    for (;;) {
      const read = await readFigures(client);
      const again = await client.rpc('get_organization_insights', { organization_id: f.orgA });
      expect(again.error).toBeNull();
      if ((again.data as Totals).window_start === read.totals.window_start) return read;
    }
  }

  async function readFigures(client: SupabaseClient) {
    const totals = await client.rpc('get_organization_insights', { organization_id: f.orgA });
    expect(totals.error).toBeNull();
    const courses = await client.rpc('get_course_insights', {
      organization_id: f.orgA,
      page_size: 100,
    });
    expect(courses.error).toBeNull();
    const boards = await client.rpc('get_board_insights', { organization_id: f.orgA });
    expect(boards.error).toBeNull();
    return {
      totals: totals.data as Totals,
      courses: (courses.data as { courses: CourseFigures[] }).courses,
      boards: boards.data as BoardFigures[],
    };
  }

  /** The owner's figures equal the recount, course by course and board by board. */
  async function expectCountersMatchRecount() {
    const seen = await figures(f.users.owner.client);
    const expected = await recount(f, seen.totals.window_start);
    expect(seen.totals).toMatchObject(expected.totals);
    const byId = <T extends { course_id?: string; board_id?: string }>(rows: T[]) =>
      [...rows].sort((a, b) =>
        (a.course_id ?? a.board_id ?? '').localeCompare(b.course_id ?? b.board_id ?? ''),
      );
    expect(
      byId(seen.courses).map((c) => ({
        course_id: c.course_id,
        enrollments: c.enrollments,
        completions: c.completions,
        graded_attempts: c.graded_attempts,
        average_score: c.average_score,
        active_learners_7d: c.active_learners_7d,
      })),
    ).toEqual(byId(expected.courses));
    expect(
      byId(seen.boards).map((b) => ({
        board_id: b.board_id,
        learners: b.learners,
        enrollments: b.enrollments,
        completions: b.completions,
        graded_attempts: b.graded_attempts,
        average_score: b.average_score,
        active_learners_7d: b.active_learners_7d,
      })),
    ).toEqual(byId(expected.boards));
    return seen;
  }

  it('match a recount after enrolments, progress, attempts, membership changes and unenrolment', async () => {
    const start = await expectCountersMatchRecount();
    // The fixture's learner is enrolled, has progress and a graded attempt today.
    expect(start.totals.enrollments).toBeGreaterThanOrEqual(1);
    expect(start.totals.active_learners_7d).toBeGreaterThanOrEqual(1);

    // An organization admin enrols the spare account (made a learner of Science first).
    const joined = await f.users.org_admin.client.from('memberships').insert({
      user_id: f.users.spare.id,
      organization_id: f.orgA,
      board_id: f.boardScience,
      role: 'learner',
      created_by: f.users.org_admin.id,
    });
    expect(joined.error).toBeNull();
    const enrolled = await f.users.org_admin.client
      .from('enrollments')
      .insert({ user_id: f.users.spare.id, course_id: f.course2 });
    expect(enrolled.error).toBeNull();
    await expectCountersMatchRecount();

    // The learner completes both lessons: the enrolment becomes completed.
    for (const lesson of [f.lesson, f.lesson2]) {
      const done = await f.users.learner.client.from('lesson_progress').upsert({
        lesson_id: lesson,
        course_id: f.course,
        status: 'completed',
        completed_at: new Date().toISOString(),
      });
      expect(done.error).toBeNull();
    }
    const afterCompletion = await expectCountersMatchRecount();
    expect(afterCompletion.totals.completions).toBe(start.totals.completions + 1);

    // Activity ten days ago does not count in the window; moving it back does.
    const old = new Date(Date.now() - 10 * 86_400_000).toISOString();
    await f.service
      .from('lesson_progress')
      .update({ updated_at: old })
      .eq('user_id', f.users.learner.id);
    await f.service
      .from('assessment_attempts')
      .update({ submitted_at: old })
      .eq('user_id', f.users.learner.id);
    const quiet = await expectCountersMatchRecount();
    expect(quiet.totals.active_learners_7d).toBe(afterCompletion.totals.active_learners_7d - 1);
    await f.service
      .from('lesson_progress')
      .update({ updated_at: new Date().toISOString() })
      .eq('user_id', f.users.learner.id)
      .eq('lesson_id', f.lesson);
    await expectCountersMatchRecount();

    // An instructor's grade changes the average score.
    const graded = await f.service
      .from('assessment_attempts')
      .update({ score: 40, status: 'graded' })
      .eq('id', f.attempt);
    expect(graded.error).toBeNull();
    const afterGrade = await expectCountersMatchRecount();
    expect(afterGrade.totals.graded_attempts).toBeGreaterThanOrEqual(1);

    // The learner moves from Arts to Science, is deactivated, and comes back.
    const moved = await f.users.org_admin.client
      .from('memberships')
      .update({ board_id: f.boardScience })
      .eq('user_id', f.users.learner.id)
      .eq('organization_id', f.orgA);
    expect(moved.error).toBeNull();
    await expectCountersMatchRecount();
    await f.service.from('memberships').update({ active: false }).eq('user_id', f.users.learner.id);
    await expectCountersMatchRecount();
    await f.service.from('memberships').update({ active: true }).eq('user_id', f.users.learner.id);
    await expectCountersMatchRecount();
    // The deactivation banned the account and ended its session (decision 0130).
    await f.signInAgain('learner');

    // Progress and attempts removed, then the learner unenrols themself.
    await f.service.from('lesson_progress').delete().eq('lesson_id', f.lesson2);
    await expectCountersMatchRecount();
    const unenrolled = await f.users.spare.client
      .from('enrollments')
      .delete()
      .eq('user_id', f.users.spare.id)
      .eq('course_id', f.course2);
    expect(unenrolled.error).toBeNull();
    const dropped = await f.users.org_admin.client
      .from('enrollments')
      .update({ status: 'dropped' })
      .eq('user_id', f.users.learner.id)
      .eq('course_id', f.course);
    expect(dropped.error).toBeNull();
    await expectCountersMatchRecount();
    await f.service.from('assessment_attempts').delete().eq('user_id', f.users.learner.id);
    const end = await expectCountersMatchRecount();
    expect(end.totals.graded_attempts).toBe(0);
    expect(end.totals.average_score).toBeNull();
  });

  it("a board's headline figures are its course list's totals: its learners in the courses distributed to it", async () => {
    const owner = f.users.owner.client;
    const created = await f.service.auth.admin.createUser({
      email: `science-learner.${Date.now().toString(36)}@example.com`,
      password: 'a long enough passphrase',
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const learner = created.data.user!.id;
    const joined = await f.service.from('memberships').insert({
      user_id: learner,
      organization_id: f.orgA,
      board_id: f.boardScience,
      role: 'learner',
    });
    expect(joined.error).toBeNull();
    // course2 is not distributed to Science (the fixture distributes only course, to Arts).
    const enrolled = await f.service
      .from('enrollments')
      .insert({ user_id: learner, course_id: f.course2 });
    expect(enrolled.error).toBeNull();

    async function boardFigures(board: string) {
      const totals = await owner.rpc('get_organization_insights', {
        organization_id: f.orgA,
        board_id: board,
      });
      expect(totals.error).toBeNull();
      const list = await owner.rpc('get_course_insights', {
        organization_id: f.orgA,
        board_id: board,
        page_size: 100,
      });
      expect(list.error).toBeNull();
      const breakdown = await owner.rpc('get_board_insights', { organization_id: f.orgA });
      expect(breakdown.error).toBeNull();
      const t = totals.data as Totals;
      const l = list.data as { total: number; courses: (CourseFigures & { title: string })[] };
      const sum = (key: 'enrollments' | 'completions' | 'graded_attempts') =>
        l.courses.reduce((n, c) => n + c[key], 0);
      // The headline is the list's total, figure by figure, and the owner's breakdown agrees.
      expect(t.courses).toBe(l.total);
      expect(t.enrollments).toBe(sum('enrollments'));
      expect(t.completions).toBe(sum('completions'));
      expect(t.graded_attempts).toBe(sum('graded_attempts'));
      for (const c of l.courses) {
        expect(c.active_learners_7d).not.toBeNull();
        expect(c.active_learners_7d!).toBeLessThanOrEqual(t.active_learners_7d);
      }
      const row = (breakdown.data as (BoardFigures & { courses: number })[]).find(
        (b) => b.board_id === board,
      )!;
      expect(row).toMatchObject({
        learners: t.learners,
        courses: t.courses,
        enrollments: t.enrollments,
        completions: t.completions,
        graded_attempts: t.graded_attempts,
        average_score: t.average_score,
        active_learners_7d: t.active_learners_7d,
      });
      return { totals: t, courses: l.courses.map((c) => c.course_id) };
    }

    const before = await boardFigures(f.boardScience);
    expect(before.courses).not.toContain(f.course2);
    await boardFigures(f.boardArts);

    const distributed = await owner
      .from('course_boards')
      .insert({ course_id: f.course2, board_id: f.boardScience, organization_id: f.orgA });
    expect(distributed.error).toBeNull();
    const after = await boardFigures(f.boardScience);
    expect(after.courses).toContain(f.course2);
    expect(after.totals.courses).toBe(before.totals.courses + 1);
    expect(after.totals.enrollments).toBeGreaterThanOrEqual(before.totals.enrollments + 1);

    const withdrawn = await owner
      .from('course_boards')
      .delete()
      .eq('course_id', f.course2)
      .eq('board_id', f.boardScience);
    expect(withdrawn.error).toBeNull();
    expect((await boardFigures(f.boardScience)).totals).toMatchObject({
      courses: before.totals.courses,
      enrollments: before.totals.enrollments,
    });
    await f.service.from('enrollments').delete().eq('user_id', learner);
    await f.service.from('memberships').delete().eq('user_id', learner);
    await expectCountersMatchRecount();
  });

  it('a deleted course takes its counters with it', async () => {
    const { data: course } = await f.service
      .from('courses')
      .insert({ organization_id: f.orgA, title: 'Short-lived', published: true })
      .select('id')
      .single();
    const id = (course as { id: string }).id;
    await f.service.from('enrollments').insert({ user_id: f.users.instructor.id, course_id: id });
    expect(await all(f.service, 'course_stats', { course_id: id })).toHaveLength(1);
    await f.service.from('courses').delete().eq('id', id);
    expect(await all(f.service, 'course_stats', { course_id: id })).toHaveLength(0);
    await expectCountersMatchRecount();
  });

  it('are refused to learners, instructors, board admins, other organizations and anon', async () => {
    for (const actor of [
      'learner',
      'instructor',
      'board_admin',
      'compliance',
      'other_admin',
    ] as const) {
      const { data, error } = await f.users[actor].client.rpc('get_organization_insights', {
        organization_id: f.orgA,
      });
      expect(data, actor).toBeNull();
      expect(error?.code, actor).toBe('42501');
      expect(error?.message).toMatch(/only an admin of this organization/i);
      const report = await f.users[actor].client.rpc('get_organization_report', {
        organization_id: f.orgA,
      });
      expect(report.error?.code, actor).toBe('42501');
      const rows = await f.users[actor].client.from('course_stats').select('*');
      expect(rows.data ?? [], actor).toEqual([]);
    }
    const anon = await f.client('anon').rpc('get_organization_insights', {
      organization_id: f.orgA,
    });
    expect(anon.data).toBeNull();
    expect(anon.error).not.toBeNull();
    // The organization-wide admin reads the organization but not the owner's board breakdown.
    const admin = await f.users.org_admin.client.rpc('get_organization_insights', {
      organization_id: f.orgA,
    });
    expect(admin.error).toBeNull();
    const boards = await f.users.org_admin.client.rpc('get_board_insights', {
      organization_id: f.orgA,
    });
    expect(boards.error?.code).toBe('42501');
    expect(boards.error?.message).toMatch(/owner/);
  });

  it('pages the report by keyset and filters it by course, board and dates', async () => {
    const owner = f.users.owner.client;
    const first = await owner.rpc('get_organization_report', {
      organization_id: f.orgA,
      page_size: 1,
    });
    expect(first.error).toBeNull();
    const rows = first.data as Row[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: expect.stringContaining('@') });
    const next = await owner.rpc('get_organization_report', {
      organization_id: f.orgA,
      page_size: 1,
      after_enrolled_at: rows[0]!.enrolled_at,
      after_id: rows[0]!.enrollment_id,
    });
    expect(next.error).toBeNull();
    expect((next.data as Row[]).map((r) => r.enrollment_id)).not.toContain(rows[0]!.enrollment_id);

    const future = await owner.rpc('get_organization_report', {
      organization_id: f.orgA,
      enrolled_from: '2999-01-01',
    });
    expect(future.data).toEqual([]);
    const backwards = await owner.rpc('get_organization_report', {
      organization_id: f.orgA,
      enrolled_from: '2026-02-01',
      enrolled_to: '2026-01-01',
    });
    expect(backwards.error?.code).toBe('22023');
    expect(backwards.error?.message).toMatch(/start date .* is after the end date/);
    const foreign = await owner.rpc('get_organization_report', {
      organization_id: f.orgA,
      course_id: f.personalCourse,
    });
    expect(foreign.error?.message).toMatch(/not part of the organization/);
    const oneCourse = await owner.rpc('get_organization_report', {
      organization_id: f.orgA,
      course_id: f.course,
      board_id: f.boardArts,
    });
    expect(oneCourse.error).toBeNull();
    for (const row of oneCourse.data as Row[]) expect(row.course_id).toBe(f.course);
  });

  it('keeps the struggle threshold between 1 and 10 with a clear message', async () => {
    const admin = f.users.org_admin.client;
    const set = (value: number | null) =>
      admin.from('organizations').update({ struggle_threshold: value }).eq('id', f.orgA);
    for (const bad of [0, 11, -3, null]) {
      const { error } = await set(bad);
      expect(error?.message, String(bad)).toBe(
        'The struggle threshold must be a whole number from 1 to 10',
      );
    }
    expect((await set(10)).error).toBeNull();
    expect((await set(1)).error).toBeNull();
    const { data } = await f.service
      .from('organizations')
      .select('struggle_threshold')
      .eq('id', f.orgA)
      .single();
    expect(data).toEqual({ struggle_threshold: 1 });
    // A learner's attempt changes nothing.
    await f.users.learner.client
      .from('organizations')
      .update({ struggle_threshold: 5 })
      .eq('id', f.orgA);
    const after = await f.service
      .from('organizations')
      .select('struggle_threshold')
      .eq('id', f.orgA)
      .single();
    expect(after.data).toEqual({ struggle_threshold: 1 });
  });

  it('lets only the owner change the slug, and refuses a taken or malformed one', async () => {
    const rename = (client: SupabaseClient, change: Row) =>
      client.from('organizations').update(change).eq('id', f.orgA);
    const fresh = unique('alpha-renamed');
    const byAdmin = await rename(f.users.org_admin.client, { slug: fresh });
    expect(byAdmin.error?.message).toBe(
      "Only the organization's owner can change its address (slug)",
    );
    const taken = (await f.service.from('organizations').select('slug').eq('id', f.orgB).single())
      .data as { slug: string };
    const clash = await rename(f.users.owner.client, { slug: taken.slug });
    expect(clash.error?.message).toBe(
      `The address "${taken.slug}" is taken by another organization`,
    );
    const malformed = await rename(f.users.owner.client, { slug: 'Not A Slug' });
    expect(malformed.error?.message).toMatch(/lower-case letters, digits and single hyphens/);
    expect((await rename(f.users.owner.client, { slug: fresh })).error).toBeNull();
    const blank = await rename(f.users.org_admin.client, { name: '   ' });
    expect(blank.error?.message).toBe("The organization's name must be 1 to 200 characters");
    expect(
      (await rename(f.users.org_admin.client, { name: '  Alpha Institute ' })).error,
    ).toBeNull();
    const { data } = await f.service
      .from('organizations')
      .select('name, slug')
      .eq('id', f.orgA)
      .single();
    expect(data).toEqual({ name: 'Alpha Institute', slug: fresh });
  });
});
