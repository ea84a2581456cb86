/**
 * The organization owner's powers through supabase-js (decision 0140): boards (create, rename,
 * remove with its members moved), board admins, course distribution and the view of every
 * user. Everyone else — an organization-wide admin, a board admin, another organization's
 * admin, a learner — is refused, and the service role checks that nothing was written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSession } from '../../src/web/lib/app-session';
import {
  courseIdsInBoard,
  courseScopeFilter,
  narrowToBoard,
  withBoardScope,
} from '../../src/web/lib/workspace-scope';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import {
  buildLearningFixture,
  insertRow,
  unique,
  type Actor,
  type LearningFixture,
} from './learning-fixture';

const outsiders: Actor[] = ['org_admin', 'board_admin', 'other_admin', 'learner', 'instructor'];

interface PersonRow {
  user_id: string;
  email: string;
  is_owner: boolean;
  memberships: { role: string; board_id: string | null; board_name: string | null }[];
  total: number;
}

describe.each(databaseKinds)('the organization owner on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
  });
  afterAll(() => server?.stop());

  async function boardNames(org = f.orgA): Promise<string[]> {
    const { data, error } = await f.service
      .from('boards')
      .select('name')
      .eq('organization_id', org)
      .order('name');
    expect(error).toBeNull();
    return (data as { name: string }[]).map((b) => b.name);
  }

  async function newBoard(name: string): Promise<string> {
    const { data, error } = await f.users.owner.client.rpc('create_board', {
      organization_id: f.orgA,
      name,
    });
    expect(error).toBeNull();
    return (data as { id: string }).id;
  }

  describe('boards', () => {
    it('lets the owner create a board with a free address name and refuses a taken name', async () => {
      const name = unique('Faculty of Law');
      const { data, error } = await f.users.owner.client.rpc('create_board', {
        organization_id: f.orgA,
        name: `  ${name}  `,
      });
      expect(error).toBeNull();
      expect(data).toMatchObject({
        name,
        organization_id: f.orgA,
        slug: name.toLowerCase().replaceAll(' ', '-'),
      });

      const again = await f.users.owner.client.rpc('create_board', {
        organization_id: f.orgA,
        name: name.toUpperCase(),
      });
      expect(again.error?.message).toBe(`A board named "${name.toUpperCase()}" already exists`);
      expect(again.status).toBe(409);

      const blank = await f.users.owner.client.rpc('create_board', {
        organization_id: f.orgA,
        name: '   ',
      });
      expect(blank.status).toBe(400);
      expect(blank.error?.message).toBe('A board name has 1 to 200 characters');
      expect((await boardNames()).filter((n) => n.toLowerCase() === name.toLowerCase())).toEqual([
        name,
      ]);
    });

    it('gives two boards whose names make the same address name different ones', async () => {
      const first = await f.users.owner.client.rpc('create_board', {
        organization_id: f.orgA,
        name: 'Music & Drama',
      });
      const second = await f.users.owner.client.rpc('create_board', {
        organization_id: f.orgA,
        name: 'Music – Drama',
      });
      expect((first.data as { slug: string }).slug).toBe('music-drama');
      expect((second.data as { slug: string }).slug).toBe('music-drama-2');
    });

    it('refuses everyone else, with nothing written', async () => {
      for (const actor of outsiders) {
        const name = unique(`Board by ${actor}`);
        const created = await f.client(actor).rpc('create_board', {
          organization_id: f.orgA,
          name,
        });
        expect(created.status, actor).toBe(403);
        expect(created.error?.message, actor).toBe(
          "Only the organization's owner can create boards",
        );
        const direct = await f
          .client(actor)
          .from('boards')
          .insert({ organization_id: f.orgA, name, slug: 'sneaky' });
        expect(direct.error, actor).not.toBeNull();
        expect(await boardNames(), actor).not.toContain(name);
      }
    });

    it('lets only the owner rename a board, keeping its address name', async () => {
      const id = await newBoard(unique('Faculty of Music'));
      for (const actor of outsiders) {
        const renamed = await f.client(actor).rpc('rename_board', {
          board_id: id,
          name: 'Taken over',
        });
        expect(renamed.status, actor).toBe(403);
      }
      const taken = await f.users.owner.client.rpc('rename_board', {
        board_id: id,
        name: 'faculty of arts',
      });
      expect(taken.error?.message).toBe('A board named "faculty of arts" already exists');
      const before = await f.service.from('boards').select('slug').eq('id', id).single();
      const renamed = await f.users.owner.client.rpc('rename_board', {
        board_id: id,
        name: 'School of Music',
      });
      expect(renamed.error).toBeNull();
      const after = await f.service.from('boards').select('name, slug').eq('id', id).single();
      expect(after.data).toEqual({ name: 'School of Music', slug: before.data?.slug });
    });

    it("counts each board's members, admins and courses for the owner", async () => {
      const { data, error } = await f.users.owner.client
        .rpc('board_overview', { organization_id: f.orgA })
        .eq('id', f.boardArts);
      expect(error).toBeNull();
      // Arts: the learner, the instructor and the board admin are active there (the
      // deactivated learner is not counted); one course is distributed to it.
      expect(data).toEqual([
        expect.objectContaining({ name: 'Faculty of Arts', members: 3, admins: 1, courses: 1 }),
      ]);
      for (const actor of ['learner', 'board_admin', 'other_admin', 'compliance'] as const) {
        const refused = await f.client(actor).rpc('board_overview', { organization_id: f.orgA });
        expect(refused.status, actor).toBe(403);
        expect(refused.data, actor).toBeNull();
      }
    });

    it('removes a board after moving its members, and refuses while it has board admins', async () => {
      const id = await newBoard(unique('Faculty of History'));
      const spare = f.users.spare;
      await insertRow(f.service, 'memberships', {
        user_id: spare.id,
        organization_id: f.orgA,
        board_id: id,
        role: 'learner',
      });
      await insertRow(f.service, 'memberships', {
        user_id: f.users.learner.id,
        organization_id: f.orgA,
        board_id: id,
        role: 'learner',
      });
      await insertRow(f.service, 'course_boards', {
        course_id: f.course2,
        board_id: id,
        organization_id: f.orgA,
      });
      const admin = await insertRow<{ id: string }>(f.service, 'memberships', {
        user_id: f.users.instructor.id,
        organization_id: f.orgA,
        board_id: id,
        role: 'org_admin',
      });

      // A plain DELETE would take the memberships with it: refused with what to do.
      const direct = await f.users.owner.client.from('boards').delete().eq('id', id);
      expect(direct.status).toBe(409);
      expect(direct.error?.message).toMatch(
        /still has 3 members: move them to another board first/,
      );

      const withAdmin = await f.users.owner.client.rpc('remove_board', { board_id: id });
      expect(withAdmin.status).toBe(409);
      expect(withAdmin.error?.message).toMatch(/still has 1 board admin: remove them/);

      for (const actor of outsiders) {
        const removed = await f.client(actor).rpc('remove_board', { board_id: id });
        expect(removed.status, actor).toBe(403);
      }
      const self = await f.users.owner.client.rpc('remove_board', {
        board_id: id,
        move_members_to: id,
      });
      expect(self.status).toBe(400);
      const foreign = await f.users.owner.client.rpc('remove_board', {
        board_id: id,
        move_members_to: f.orgB,
      });
      expect(foreign.status).toBe(400);
      expect((await f.service.from('boards').select('id').eq('id', id)).data).toHaveLength(1);

      expect(
        (await f.users.owner.client.from('memberships').delete().eq('id', admin.id)).error,
      ).toBeNull();
      const removed = await f.users.owner.client.rpc('remove_board', {
        board_id: id,
        move_members_to: f.boardArts,
      });
      expect(removed.error).toBeNull();
      expect(removed.data).toEqual({ moved: 2, withdrawn: 1 });
      expect((await f.service.from('boards').select('id').eq('id', id)).data).toEqual([]);
      // The spare user moved to Arts; the learner was in Arts already and keeps that one.
      const spareRows = await f.service
        .from('memberships')
        .select('board_id, role')
        .eq('user_id', spare.id);
      expect(spareRows.data).toEqual([{ board_id: f.boardArts, role: 'learner' }]);
      const learnerRows = await f.service
        .from('memberships')
        .select('board_id')
        .eq('user_id', f.users.learner.id);
      expect(learnerRows.data).toEqual([{ board_id: f.boardArts }]);
      // The course stays in the organization.
      expect((await f.service.from('courses').select('id').eq('id', f.course2)).data).toHaveLength(
        1,
      );
      await f.service.from('memberships').delete().eq('user_id', spare.id);
    });

    it('still removes the boards of an organization that is deleted', async () => {
      const org = await insertRow<{ id: string }>(f.service, 'organizations', {
        name: 'Short-lived College',
        slug: unique('short'),
      });
      const board = await insertRow<{ id: string }>(f.service, 'boards', {
        organization_id: org.id,
        name: 'Only board',
        slug: 'only',
      });
      await insertRow(f.service, 'memberships', {
        user_id: f.users.spare.id,
        organization_id: org.id,
        board_id: board.id,
        role: 'learner',
      });
      const deleted = await f.service.from('organizations').delete().eq('id', org.id);
      expect(deleted.error).toBeNull();
      expect((await f.service.from('boards').select('id').eq('id', board.id)).data).toEqual([]);
    });
  });

  describe('board admins', () => {
    async function adminRows(board: string, user: string) {
      const { data } = await f.service
        .from('memberships')
        .select('id')
        .eq('board_id', board)
        .eq('user_id', user)
        .eq('role', 'org_admin');
      return data ?? [];
    }

    it('are named and removed by the owner only', async () => {
      const candidate = f.users.instructor.id;
      const row = {
        user_id: candidate,
        organization_id: f.orgA,
        board_id: f.boardScience,
        role: 'org_admin',
      };
      for (const actor of outsiders) {
        const named = await f.client(actor).from('memberships').insert(row);
        expect(named.error, actor).not.toBeNull();
        expect(await adminRows(f.boardScience, candidate), actor).toEqual([]);
      }
      const named = await f.users.owner.client.from('memberships').insert(row).select('id');
      expect(named.error).toBeNull();
      const id = (named.data as { id: string }[])[0]!.id;

      // The new board admin manages Science's learners, not Arts' and not other admins.
      const boardAdmin = f.users.instructor.client;
      const ownBoard = await boardAdmin.from('memberships').insert({
        user_id: f.users.spare.id,
        organization_id: f.orgA,
        board_id: f.boardScience,
        role: 'learner',
      });
      expect(ownBoard.error).toBeNull();
      const otherBoard = await boardAdmin.from('memberships').insert({
        user_id: f.users.spare.id,
        organization_id: f.orgA,
        board_id: f.boardArts,
        role: 'learner',
      });
      expect(otherBoard.error).not.toBeNull();
      const anotherAdmin = await boardAdmin.from('memberships').insert({
        user_id: f.users.spare.id,
        organization_id: f.orgA,
        board_id: f.boardScience,
        role: 'org_admin',
      });
      expect(anotherAdmin.error).not.toBeNull();
      await f.service.from('memberships').delete().eq('user_id', f.users.spare.id);

      for (const actor of ['org_admin', 'board_admin', 'other_admin'] as const) {
        await f.client(actor).from('memberships').delete().eq('id', id);
        expect(await adminRows(f.boardScience, candidate), actor).toHaveLength(1);
      }
      const removed = await f.users.owner.client.from('memberships').delete().eq('id', id);
      expect(removed.error).toBeNull();
      expect(await adminRows(f.boardScience, candidate)).toEqual([]);
    });
  });

  describe('course distribution', () => {
    it("shows a distributed course to the board's learners and hides it when withdrawn", async () => {
      // Private: found only through a distribution, not by being in the organization.
      const course = await insertRow<{ id: string }>(f.service, 'courses', {
        organization_id: f.orgA,
        title: unique('Renaissance art'),
        subject: 'Art history',
        published: true,
        visibility: 'private',
      });
      const learner = f.users.learner.client;
      const seen = async () =>
        ((await learner.from('courses').select('id').eq('id', course.id)).data ?? []).length;
      expect(await seen()).toBe(0);

      const link = { course_id: course.id, board_id: f.boardArts, organization_id: f.orgA };
      for (const actor of outsiders) {
        const tried = await f.client(actor).from('course_boards').insert(link);
        expect(tried.error, actor).not.toBeNull();
      }
      expect(await seen()).toBe(0);

      const distributed = await f.users.owner.client
        .from('course_boards')
        .upsert([link, { ...link, board_id: f.boardScience }], {
          onConflict: 'course_id,board_id',
          ignoreDuplicates: true,
        });
      expect(distributed.error).toBeNull();
      expect(await seen()).toBe(1);
      // The learner enrols themself, as the catalogue allows.
      const enrolled = await learner
        .from('enrollments')
        .insert({ user_id: f.users.learner.id, course_id: course.id });
      expect(enrolled.error).toBeNull();
      await learner.from('enrollments').delete().eq('course_id', course.id);

      for (const actor of outsiders) {
        await f
          .client(actor)
          .from('course_boards')
          .delete()
          .eq('course_id', course.id)
          .eq('board_id', f.boardArts);
      }
      expect(await seen()).toBe(1);

      const withdrawn = await f.users.owner.client
        .from('course_boards')
        .delete()
        .eq('course_id', course.id)
        .eq('board_id', f.boardArts);
      expect(withdrawn.error).toBeNull();
      expect(await seen()).toBe(0);
      const left = await f.service
        .from('course_boards')
        .select('board_id')
        .eq('course_id', course.id);
      expect(left.data).toEqual([{ board_id: f.boardScience }]);
    });

    it("refuses distributing another organization's course or to another organization's board", async () => {
      const otherCourse = await insertRow<{ id: string }>(f.service, 'courses', {
        organization_id: f.orgB,
        title: 'Beta only',
        published: true,
      });
      const tried = await f.users.owner.client.from('course_boards').insert({
        course_id: otherCourse.id,
        board_id: f.boardArts,
        organization_id: f.orgA,
      });
      expect(tried.error).not.toBeNull();
      const rows = await f.service
        .from('course_boards')
        .select('board_id')
        .eq('course_id', otherCourse.id);
      expect(rows.data).toEqual([]);
    });
  });

  describe('every user of the organization', () => {
    it('lists each user once with all their memberships, searched and paged on the server', async () => {
      const owner = f.users.owner.client;
      const all = await owner.rpc('organization_people', {
        organization_id: f.orgA,
        page_size: 100,
      });
      expect(all.error).toBeNull();
      const rows = all.data as PersonRow[];
      const ids = rows.map((r) => r.user_id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const actor of [
        'learner',
        'instructor',
        'board_admin',
        'org_admin',
        'owner',
        'compliance',
        'deactivated',
      ] as const) {
        expect(ids, actor).toContain(f.users[actor].id);
      }
      expect(ids).not.toContain(f.users.other_learner.id);
      expect(rows[0]!.total).toBe(rows.length);
      const me = rows.find((r) => r.user_id === f.users.owner.id)!;
      expect(me.is_owner).toBe(true);
      const boardAdmin = rows.find((r) => r.user_id === f.users.board_admin.id)!;
      expect(boardAdmin.email).toBe(f.users.board_admin.email);
      expect(boardAdmin.memberships).toEqual([
        expect.objectContaining({
          role: 'org_admin',
          board_id: f.boardArts,
          board_name: 'Faculty of Arts',
        }),
      ]);

      const searched = await owner.rpc('organization_people', {
        organization_id: f.orgA,
        search: f.users.compliance.email.toUpperCase(),
      });
      expect((searched.data as PersonRow[]).map((r) => r.user_id)).toEqual([f.users.compliance.id]);
      const literal = await owner.rpc('organization_people', {
        organization_id: f.orgA,
        search: '%',
      });
      expect(literal.data).toEqual([]);

      const arts = await owner.rpc('organization_people', {
        organization_id: f.orgA,
        board_id: f.boardArts,
        page_size: 2,
        page_offset: 0,
      });
      const artsRows = arts.data as PersonRow[];
      expect(artsRows).toHaveLength(2);
      expect(artsRows[0]!.total).toBeGreaterThanOrEqual(4);
      const next = await owner.rpc('organization_people', {
        organization_id: f.orgA,
        board_id: f.boardArts,
        page_size: 2,
        page_offset: 2,
      });
      const nextIds = (next.data as PersonRow[]).map((r) => r.user_id);
      expect(nextIds.some((id) => artsRows.some((r) => r.user_id === id))).toBe(false);

      const admins = await owner.rpc('organization_people', {
        organization_id: f.orgA,
        board_id: f.boardArts,
        role_name: 'org_admin',
      });
      expect((admins.data as PersonRow[]).map((r) => r.user_id)).toEqual([f.users.board_admin.id]);

      const bad = await owner.rpc('organization_people', {
        organization_id: f.orgA,
        page_size: 1000,
      });
      expect(bad.status).toBe(400);
    });

    it('is refused to learners, board admins and other organizations', async () => {
      for (const actor of ['learner', 'board_admin', 'other_admin', 'compliance'] as const) {
        const tried = await f.client(actor).rpc('organization_people', { organization_id: f.orgA });
        expect(tried.status, actor).toBe(403);
        expect(tried.data, actor).toBeNull();
      }
    });
  });

  describe('the workspace scope (src/web/lib/workspace-scope.ts)', () => {
    function session(boardId: string | null): AppSession {
      return {
        userId: f.users.learner.id,
        email: f.users.learner.email,
        workspace: {
          kind: 'organization',
          organizationId: f.orgA,
          organizationName: 'Alpha University',
          boardId,
          boardName: boardId ? 'Faculty of Arts' : null,
          roles: ['learner'],
          isOwner: false,
        },
      };
    }

    async function library(scope: AppSession): Promise<string[]> {
      const query = f.users.learner.client
        .from('courses')
        .select(withBoardScope('id, title', scope))
        .eq('published', true)
        .or(courseScopeFilter(scope));
      const { data, error } = await narrowToBoard(query, scope).order('title');
      expect(error).toBeNull();
      return (data as unknown as { id: string }[]).map((c) => c.id);
    }

    it("narrows a course list to the chosen board's distributions", async () => {
      const whole = await library(session(null));
      expect(whole).toEqual(expect.arrayContaining([f.course, f.course2]));
      const arts = await library(session(f.boardArts));
      expect(arts).toContain(f.course);
      expect(arts).not.toContain(f.course2);

      const science: AppSession = session(f.boardScience);
      expect(await library(science)).not.toContain(f.course);
      await insertRow(f.service, 'course_boards', {
        course_id: f.course2,
        board_id: f.boardScience,
        organization_id: f.orgA,
      });
      expect(await library(science)).toContain(f.course2);
      await f.service
        .from('course_boards')
        .delete()
        .eq('course_id', f.course2)
        .eq('board_id', f.boardScience);
      expect(await library(science)).not.toContain(f.course2);
    });

    it('keeps the courses of a list of course ids that lie in the board', async () => {
      const ids = [f.course, f.course2];
      const client = f.users.learner.client;
      expect([...(await courseIdsInBoard(client, session(null), ids))].sort()).toEqual(
        [...ids].sort(),
      );
      expect([...(await courseIdsInBoard(client, session(f.boardArts), ids))]).toEqual([f.course]);
    });
  });
});
