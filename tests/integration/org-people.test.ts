/**
 * The organization admin's people endpoint (/functions/v1/org-people, decision 0130) through
 * supabase-js: invitations through the dev mailbox, role changes that act at once, refusals
 * that write nothing, deactivation that bars sign-in and refresh, and the CSV import report.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport, MemberPage, OrgMember } from '../../src/common/org-people';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';
import {
  browserLikeClient,
  codeIn,
  followLink,
  hashParams,
  latestMail,
  linkIn,
} from './auth-support';
import { buildLearningFixture, insertRow, unique, type LearningFixture } from './learning-fixture';

interface Answer<T> {
  status: number;
  body: T & { code?: string; message?: string; fields?: Record<string, string> };
}

async function call<T = Record<string, unknown>>(
  client: SupabaseClient,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const { data, error, response } = await client.functions.invoke(`org-people${path}`, {
    method,
    body: body as Record<string, unknown> | string | undefined,
    headers: typeof body === 'string' ? { 'Content-Type': 'text/csv' } : undefined,
  });
  if (!error) return { status: response!.status, body: data as Answer<T>['body'] };
  const failed = (error as { context?: Response }).context;
  if (!failed) throw error;
  return { status: failed.status, body: (await failed.json()) as Answer<T>['body'] };
}

describe.each(databaseKinds)('organization people on %s', (kind) => {
  let server: TestServer;
  let f: LearningFixture;
  let admin: SupabaseClient;
  const members = (org: string) => `/organizations/${org}/members`;

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    f = await buildLearningFixture(server);
    admin = f.client('org_admin');
  });
  afterAll(() => server?.stop());

  async function membershipsOf(userId: string) {
    const { data, error } = await f.service
      .from('memberships')
      .select('organization_id, board_id, role, active')
      .eq('user_id', userId)
      .order('role');
    expect(error).toBeNull();
    return data;
  }

  async function createWithPassword(label: string, roles: object[]) {
    const email = `${label}.${randomUUID()}@example.com`;
    const password = `pw-${randomUUID()}`;
    const added = await call<{ member: OrgMember; outcome: string }>(
      admin,
      'POST',
      members(f.orgA),
      { mode: 'password', email, fullName: `Person ${label}`, password, roles },
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.outcome).toBe('created');
    return { id: added.body.member.userId, email, password };
  }

  it('invites by mail; the invitee chooses a password and arrives with the role', async () => {
    const email = `invitee.${randomUUID()}@example.com`;
    const invited = await call<{ member: OrgMember; outcome: string }>(
      admin,
      'POST',
      members(f.orgA),
      {
        mode: 'invite',
        email: `  ${email.toUpperCase()} `,
        fullName: 'Ada Invitee',
        roles: [{ role: 'instructor', boardId: f.boardArts }],
      },
    );
    expect(invited.status).toBe(201);
    expect(invited.body.outcome).toBe('invited');
    expect(invited.body.member).toMatchObject({
      email,
      fullName: 'Ada Invitee',
      status: 'invited',
      roles: [{ role: 'instructor', boardId: f.boardArts, boardName: 'Faculty of Arts' }],
    });

    const mail = await latestMail(server, email);
    expect(mail.subject).toBe('You are invited to Alpha University on Lyceum');
    const landing = await followLink(linkIn(mail));
    expect(landing.pathname).toBe('/reset-password');
    expect(landing.searchParams.get('invited')).toBe('1');
    const params = hashParams(landing);
    expect(params.get('type')).toBe('invite');

    const invitee = browserLikeClient(server);
    const session = await invitee.auth.setSession({
      access_token: params.get('access_token')!,
      refresh_token: params.get('refresh_token')!,
    });
    expect(session.error).toBeNull();
    const chosen = await invitee.auth.updateUser({ password: 'a-chosen-passphrase-1' });
    expect(chosen.error).toBeNull();

    const signIn = await server
      .anon()
      .auth.signInWithPassword({ email, password: 'a-chosen-passphrase-1' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.app_metadata.roles).toContain('instructor');
    const own = testClient(server, server.anonKey, signIn.data.session!.access_token);
    const { data: mine } = await own.from('memberships').select('organization_id, role, board_id');
    expect(mine).toEqual([{ organization_id: f.orgA, role: 'instructor', board_id: f.boardArts }]);

    const listed = await call<MemberPage>(
      admin,
      'GET',
      `${members(f.orgA)}?q=ada%20invitee&status=active`,
    );
    expect(listed.body.total).toBe(1);
    expect(listed.body.members[0]).toMatchObject({ email, status: 'active' });
  });

  it('serves GoTrue’s admin invitation to the service role, and only to it', async () => {
    const email = `service-invite.${randomUUID()}@example.com`;
    const invited = await server.service().auth.admin.inviteUserByEmail(email, {
      data: { full_name: 'Service Invitee' },
    });
    expect(invited.error).toBeNull();
    expect(invited.data.user?.email).toBe(email);
    expect((await latestMail(server, email)).subject).toBe('You are invited to Lyceum');

    const again = await server.service().auth.admin.inviteUserByEmail(f.users.learner.email);
    expect(again.error).toMatchObject({ status: 422, code: 'email_exists' });
    const asUser = await testClient(
      server,
      server.anonKey,
      f.users.org_admin.token,
    ).auth.admin.inviteUserByEmail(`nope.${randomUUID()}@example.com`);
    expect(asUser.error).toMatchObject({ status: 403, code: 'not_admin' });
  });

  it('lists members searched, filtered and paged on the server', async () => {
    const all = await call<MemberPage>(admin, 'GET', members(f.orgA));
    expect(all.status).toBe(200);
    const emails = all.body.members.map((m) => m.email);
    expect(emails).toContain(f.users.learner.email);
    expect(emails).not.toContain(f.users.other_learner.email);
    const owner = all.body.members.find((m) => m.userId === f.users.owner.id);
    expect(owner?.isOwner).toBe(true);

    const byEmail = await call<MemberPage>(
      admin,
      'GET',
      `${members(f.orgA)}?q=${encodeURIComponent(f.users.compliance.email)}`,
    );
    expect(byEmail.body.members.map((m) => m.userId)).toEqual([f.users.compliance.id]);

    const deactivated = await call<MemberPage>(
      admin,
      'GET',
      `${members(f.orgA)}?status=deactivated`,
    );
    expect(deactivated.body.members.map((m) => m.userId)).toEqual([f.users.deactivated.id]);

    const instructors = await call<MemberPage>(admin, 'GET', `${members(f.orgA)}?role=instructor`);
    expect(
      instructors.body.members.every((m) => m.roles.some((r) => r.role === 'instructor')),
    ).toBe(true);
    const wildcard = await call<MemberPage>(admin, 'GET', `${members(f.orgA)}?q=%25`);
    expect(wildcard.body.total).toBe(0);
    const past = await call<MemberPage>(admin, 'GET', `${members(f.orgA)}?page=999`);
    expect(past.body).toEqual({ members: [], total: all.body.total });
  });

  it('validates bodies with field errors and writes nothing', async () => {
    const email = `bad.${randomUUID()}@example.com`;
    const bad = await call(admin, 'POST', members(f.orgA), {
      mode: 'password',
      email: 'not an address',
      fullName: '',
      password: 'short',
      roles: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({
      email: 'Enter an email address such as name@example.edu.',
      fullName: 'Enter the person’s name.',
      password: 'At least 8 characters.',
      roles: 'Give the member at least one role.',
    });
    const weak = await call(admin, 'POST', members(f.orgA), {
      mode: 'password',
      email,
      fullName: 'Weak Password',
      password: 'password',
      roles: [{ role: 'learner', boardId: null }],
    });
    expect(weak.status).toBe(422);
    expect(weak.body.fields?.password).toContain('most commonly used');
    const foreignBoard = await call(admin, 'POST', members(f.orgA), {
      mode: 'invite',
      email,
      fullName: 'Foreign Board',
      roles: [{ role: 'learner', boardId: randomUUID() }],
    });
    expect(foreignBoard.status).toBe(400);
    const { data } = await f.service.auth.admin.listUsers({ perPage: 1000 });
    expect(data.users.map((u) => u.email)).not.toContain(email);
  });

  it('applies a role change to the very next request of the member, with the same token', async () => {
    const person = await createWithPassword('switcher', [
      { role: 'learner', boardId: f.boardArts },
    ]);
    const signIn = await server.anon().auth.signInWithPassword(person);
    expect(signIn.error).toBeNull();
    const own = testClient(server, server.anonKey, signIn.data.session!.access_token);
    const courses = async () => (await own.from('courses').select('id').eq('id', f.course)).data;
    expect(await courses()).toEqual([{ id: f.course }]);

    const changed = await call<{ member: OrgMember }>(
      admin,
      'PUT',
      `${members(f.orgA)}/${person.id}/roles`,
      { roles: [{ role: 'compliance_officer', boardId: null }] },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.member.roles).toEqual([
      { role: 'compliance_officer', boardId: null, boardName: null, active: true },
    ]);
    expect(await courses()).toEqual([]);
  });

  it('refuses non-admins, other organizations’ admins and raising anyone to admin, writing nothing', async () => {
    const target = f.users.instructor.id;
    const before = await membershipsOf(target);
    const change = { roles: [{ role: 'learner', boardId: null }] };
    // A board admin manages the instructor (of their board): their own test follows.
    for (const actor of ['learner', 'instructor', 'compliance', 'other_admin'] as const) {
      const refused = await call(
        f.client(actor),
        'PUT',
        `${members(f.orgA)}/${target}/roles`,
        change,
      );
      expect(refused.status, actor).toBe(403);
      const deactivate = await call(
        f.client(actor),
        'POST',
        `${members(f.orgA)}/${target}/deactivate`,
      );
      expect(deactivate.status, actor).toBe(403);
      const list = await call(f.client(actor), 'GET', members(f.orgA));
      expect(list.status, actor).toBe(403);
    }
    // B's admin naming A's member in B's organization: not B's member, nothing to change.
    const viaB = await call(
      f.client('other_admin'),
      'PUT',
      `${members(f.orgB)}/${target}/roles`,
      change,
    );
    expect(viaB.status).toBe(404);
    const service = await call(f.service, 'GET', members(f.orgA));
    expect(service.status).toBe(403);
    const anon = await call(f.client('anon'), 'GET', members(f.orgA));
    expect(anon.status).toBe(403);

    const raise = await call(admin, 'PUT', `${members(f.orgA)}/${target}/roles`, {
      roles: [{ role: 'org_admin', boardId: null }],
    });
    expect(raise.status).toBe(403);
    expect(raise.body.message).toContain('owner');
    const boardAdmin = await call(admin, 'PUT', `${members(f.orgA)}/${target}/roles`, {
      roles: [{ role: 'org_admin', boardId: f.boardArts }],
    });
    expect(boardAdmin.status).toBe(403);
    const peer = await call(
      admin,
      'POST',
      `${members(f.orgA)}/${f.users.board_admin.id}/deactivate`,
    );
    expect(peer.status).toBe(403);
    const ownerTouched = await call(
      admin,
      'PUT',
      `${members(f.orgA)}/${f.users.owner.id}/roles`,
      change,
    );
    expect(ownerTouched.status).toBe(403);
    const self = await call(admin, 'POST', `${members(f.orgA)}/${f.users.org_admin.id}/deactivate`);
    expect(self.status).toBe(403);
    const direct = await admin.from('memberships').insert({
      user_id: f.users.spare.id,
      organization_id: f.orgA,
      role: 'org_admin',
    });
    expect(direct.error?.code).toBe('42501');
    expect(await membershipsOf(target)).toEqual(before);
    expect(await membershipsOf(f.users.board_admin.id)).toEqual([
      { organization_id: f.orgA, board_id: f.boardArts, role: 'org_admin', active: true },
    ]);

    const byOwner = await call(
      f.client('owner'),
      'PUT',
      `${members(f.orgA)}/${f.users.spare.id}/roles`,
      {
        roles: [{ role: 'org_admin', boardId: null }],
      },
    );
    expect(byOwner.status).toBe(404);
  });

  it("lets a board admin manage their board's people and enrolments, and nothing of another board's", async () => {
    const boardAdmin = f.client('board_admin');
    const artsPerson = await createWithPassword('arts', [
      { role: 'learner', boardId: f.boardArts },
    ]);
    const sciencePerson = await createWithPassword('science', [
      { role: 'learner', boardId: f.boardScience },
    ]);
    const scienceCourse = await insertRow<{ id: string }>(f.service, 'courses', {
      organization_id: f.orgA,
      title: 'Science only',
      slug: unique('science-only'),
      published: true,
      visibility: 'organization',
    });
    await insertRow(f.service, 'course_boards', {
      course_id: scienceCourse.id,
      board_id: f.boardScience,
      organization_id: f.orgA,
    });
    const artsEnrolment = await insertRow<{ id: string }>(f.service, 'enrollments', {
      user_id: artsPerson.id,
      course_id: f.course,
    });
    const scienceEnrolment = await insertRow<{ id: string }>(f.service, 'enrollments', {
      user_id: sciencePerson.id,
      course_id: scienceCourse.id,
    });

    // The endpoint: their board's people, each with only the board's roles; nobody else.
    const list = await call<MemberPage>(boardAdmin, 'GET', `${members(f.orgA)}?q=arts.`);
    expect(list.status).toBe(200);
    expect(list.body.members.map((m) => m.userId)).toEqual([artsPerson.id]);
    const everyone = await call<MemberPage>(boardAdmin, 'GET', members(f.orgA));
    const ids = everyone.body.members.map((m) => m.userId);
    expect(ids).toContain(f.users.learner.id);
    expect(ids).not.toContain(sciencePerson.id);
    expect(ids).not.toContain(f.users.org_admin.id);
    for (const member of everyone.body.members) {
      expect(member.roles.every((r) => r.boardId === f.boardArts)).toBe(true);
    }
    const enrolments = await call<{ enrolments: { id: string }[] }>(
      boardAdmin,
      'GET',
      `/organizations/${f.orgA}/enrolments`,
    );
    expect(enrolments.status).toBe(200);
    const enrolmentIds = enrolments.body.enrolments.map((e) => e.id);
    expect(enrolmentIds).toContain(artsEnrolment.id);
    expect(enrolmentIds).not.toContain(scienceEnrolment.id);

    // Another board's person: unknown to them, whatever they try; nothing changes.
    const scienceBefore = await membershipsOf(sciencePerson.id);
    for (const [method, path, body] of [
      ['POST', `${members(f.orgA)}/${sciencePerson.id}/deactivate`, undefined],
      ['POST', `${members(f.orgA)}/${sciencePerson.id}/reactivate`, undefined],
      [
        'PUT',
        `${members(f.orgA)}/${sciencePerson.id}/roles`,
        { roles: [{ role: 'learner', boardId: f.boardArts }] },
      ],
    ] as const) {
      const refused = await call(boardAdmin, method, path, body);
      expect(refused.status, path).toBe(404);
    }
    // Granting a role on another board or the whole organization, or an admin role: refused.
    for (const roles of [
      [{ role: 'learner', boardId: f.boardScience }],
      [{ role: 'learner', boardId: null }],
      [{ role: 'org_admin', boardId: f.boardArts }],
    ]) {
      const refused = await call(boardAdmin, 'PUT', `${members(f.orgA)}/${artsPerson.id}/roles`, {
        roles,
      });
      expect(refused.status, JSON.stringify(roles)).toBe(403);
    }
    const imported = await call<ImportReport>(
      boardAdmin,
      'POST',
      `/organizations/${f.orgA}/enrolments/import`,
      `email,course\n${sciencePerson.email},${scienceCourse.id}\n`,
    );
    expect(imported.status).toBe(422);
    expect(imported.body.problems[0]!.problems.join(' ')).toMatch(/No member of your boards/);

    // The database refuses the same through supabase-js, whatever the screens do.
    const read = await boardAdmin.from('memberships').select('id').eq('user_id', sciencePerson.id);
    expect(read.data).toEqual([]);
    await boardAdmin.from('memberships').update({ active: false }).eq('user_id', sciencePerson.id);
    await boardAdmin.from('memberships').delete().eq('user_id', sciencePerson.id);
    const planted = await boardAdmin.from('memberships').insert({
      user_id: f.users.spare.id,
      organization_id: f.orgA,
      board_id: f.boardScience,
      role: 'learner',
      created_by: f.users.board_admin.id,
    });
    expect(planted.error?.code).toBe('42501');
    expect(await membershipsOf(sciencePerson.id)).toEqual(scienceBefore);
    expect(await membershipsOf(f.users.spare.id)).toEqual([]);
    const scienceRead = await boardAdmin
      .from('enrollments')
      .select('id')
      .eq('id', scienceEnrolment.id);
    expect(scienceRead.data).toEqual([]);
    await boardAdmin.from('enrollments').delete().eq('id', scienceEnrolment.id);
    const kept = await f.service.from('enrollments').select('id').eq('id', scienceEnrolment.id);
    expect(kept.data).toHaveLength(1);

    // Their own board: roles changed on the board, deactivated and back, unenrolled.
    const promoted = await call<{ member: OrgMember }>(
      boardAdmin,
      'PUT',
      `${members(f.orgA)}/${artsPerson.id}/roles`,
      {
        roles: [
          { role: 'learner', boardId: f.boardArts },
          { role: 'instructor', boardId: f.boardArts },
        ],
      },
    );
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body.member.roles.map((r) => r.role).sort()).toEqual(['instructor', 'learner']);
    const off = await call<{ member: OrgMember }>(
      boardAdmin,
      'POST',
      `${members(f.orgA)}/${artsPerson.id}/deactivate`,
    );
    expect(off.body.member.status).toBe('deactivated');
    const on = await call<{ member: OrgMember }>(
      boardAdmin,
      'POST',
      `${members(f.orgA)}/${artsPerson.id}/reactivate`,
    );
    expect(on.body.member.status).toBe('active');
    const artsRead = await boardAdmin.from('enrollments').select('id').eq('id', artsEnrolment.id);
    expect(artsRead.data).toEqual([{ id: artsEnrolment.id }]);
    const removed = await boardAdmin
      .from('enrollments')
      .delete()
      .eq('id', artsEnrolment.id)
      .select('id');
    expect(removed.data).toEqual([{ id: artsEnrolment.id }]);

    // Adding a new person puts them on the board, not in the whole organization.
    const email = `board.new.${randomUUID()}@example.com`;
    const added = await call<{ member: OrgMember }>(boardAdmin, 'POST', members(f.orgA), {
      mode: 'password',
      email,
      fullName: 'Board Newcomer',
      password: `pw-${randomUUID()}`,
      roles: [{ role: 'learner', boardId: f.boardArts }],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(await membershipsOf(added.body.member.userId)).toEqual([
      { organization_id: f.orgA, board_id: f.boardArts, role: 'learner', active: true },
    ]);
  });

  it('bars a deactivated member from signing in and refreshing, keeps their data, and reactivation restores access', async () => {
    const person = await createWithPassword('leaver', [{ role: 'learner', boardId: f.boardArts }]);
    const enrolled = await admin
      .from('enrollments')
      .insert({ user_id: person.id, course_id: f.course });
    expect(enrolled.error).toBeNull();
    const client = browserLikeClient(server);
    const signIn = await client.auth.signInWithPassword(person);
    expect(signIn.error).toBeNull();
    const token = signIn.data.session!.access_token;

    const off = await call<{ member: OrgMember; suspended: boolean }>(
      admin,
      'POST',
      `${members(f.orgA)}/${person.id}/deactivate`,
    );
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ suspended: true, member: { status: 'deactivated' } });

    const again = await server.anon().auth.signInWithPassword(person);
    expect(again.error).toMatchObject({
      status: 400,
      code: 'user_banned',
      message: 'User is banned',
    });
    const refresh = await client.auth.refreshSession();
    expect(refresh.error).toMatchObject({ status: 400, code: 'user_banned' });
    const stale = await testClient(server, server.anonKey, token).from('courses').select('id');
    expect(stale.error?.message).toBe('Session from session_id claim in JWT does not exist');
    // A mailed code signs in too; for a banned account it is refused like a password.
    const recover = await server.anon().auth.resetPasswordForEmail(person.email);
    expect(recover.error).toBeNull();
    const code = codeIn(await latestMail(server, person.email));
    const byCode = await server
      .anon()
      .auth.verifyOtp({ email: person.email, token: code, type: 'recovery' });
    expect(byCode.error).toMatchObject({ status: 400, code: 'user_banned' });

    const kept = await f.service.from('enrollments').select('course_id').eq('user_id', person.id);
    expect(kept.data).toEqual([{ course_id: f.course }]);

    const on = await call<{ member: OrgMember }>(
      admin,
      'POST',
      `${members(f.orgA)}/${person.id}/reactivate`,
    );
    expect(on.status).toBe(200);
    expect(on.body.member.status).toBe('active');
    const back = await server.anon().auth.signInWithPassword(person);
    expect(back.error).toBeNull();
    const fresh = testClient(server, server.anonKey, back.data.session!.access_token);
    const { data: mine } = await fresh.from('enrollments').select('course_id');
    expect(mine).toEqual([{ course_id: f.course }]);
  });

  it('bans the same way when an admin deactivates through REST, and lifts it when REST reactivates', async () => {
    const person = await createWithPassword('rest-leaver', [
      { role: 'learner', boardId: f.boardArts },
    ]);
    const client = browserLikeClient(server);
    const signIn = await client.auth.signInWithPassword(person);
    expect(signIn.error).toBeNull();
    const token = signIn.data.session!.access_token;
    const setActive = (active: boolean) =>
      admin
        .from('memberships')
        .update({ active })
        .eq('user_id', person.id)
        .eq('organization_id', f.orgA)
        .select('active');

    const off = await setActive(false);
    expect(off.error).toBeNull();
    expect(off.data).toEqual([{ active: false }]);
    const again = await server.anon().auth.signInWithPassword(person);
    expect(again.error).toMatchObject({ status: 400, code: 'user_banned' });
    const refresh = await client.auth.refreshSession();
    expect(refresh.error).toMatchObject({ status: 400, code: 'user_banned' });
    const stale = await testClient(server, server.anonKey, token).from('courses').select('id');
    expect(stale.error?.message).toBe('Session from session_id claim in JWT does not exist');
    // The endpoint's list shows the same state as after the screen's deactivation.
    const listed = await call<MemberPage>(admin, 'GET', `${members(f.orgA)}?status=deactivated`);
    expect(listed.body.members.map((m) => m.userId)).toContain(person.id);

    const on = await setActive(true);
    expect(on.error).toBeNull();
    const back = await server.anon().auth.signInWithPassword(person);
    expect(back.error).toBeNull();
  });

  it('keeps a deactivated member with another active organization signing in, and lifts no operator ban', async () => {
    const person = await createWithPassword('two-orgs', [{ role: 'learner', boardId: null }]);
    const inB = await f.service
      .from('memberships')
      .insert({ user_id: person.id, organization_id: f.orgB, role: 'learner' });
    expect(inB.error).toBeNull();
    const off = await call<{ suspended: boolean }>(
      admin,
      'POST',
      `${members(f.orgA)}/${person.id}/deactivate`,
    );
    expect(off.body.suspended).toBe(false);
    expect((await server.anon().auth.signInWithPassword(person)).error).toBeNull();

    const banned = await f.service.auth.admin.updateUserById(person.id, { ban_duration: '24h' });
    expect(banned.error).toBeNull();
    const on = await call(admin, 'POST', `${members(f.orgA)}/${person.id}/reactivate`);
    expect(on.status).toBe(200);
    const still = await server.anon().auth.signInWithPassword(person);
    expect(still.error?.code).toBe('user_banned');
  });

  describe('CSV enrolment import', () => {
    const importPath = (dryRun = false) =>
      `/organizations/${f.orgA}/enrolments/import${dryRun ? '?dry_run=1' : ''}`;

    async function enrolmentsOf(userId: string) {
      const { data } = await f.service
        .from('enrollments')
        .select('course_id, status')
        .eq('user_id', userId);
      return data;
    }

    it('reports every bad line and writes nothing', async () => {
      const outsiderCourse = await f.service
        .from('courses')
        .insert({
          organization_id: f.orgB,
          title: 'Beta only',
          slug: `beta-${randomUUID().slice(0, 8)}`,
        })
        .select('id, slug')
        .single();
      expect(outsiderCourse.error).toBeNull();
      await f.service.from('courses').update({ slug: 'lungs' }).eq('id', f.course);
      const before = await enrolmentsOf(f.users.instructor.id);
      const csv = [
        'Email,Course,Role,Board',
        `${f.users.instructor.email},lungs,student,arts`,
        `nobody@example.com,lungs,,`,
        `${f.users.other_learner.email},${outsiderCourse.data!.slug},,`,
        `${f.users.instructor.email},LUNGS,,`,
        `${f.users.compliance.email},lungs,dean,nowhere`,
        `not-an-email,,,`,
        `${f.users.learner.email},lungs`,
        '',
        `"${f.users.instructor.email}",${f.course2},,`,
      ].join('\r\n');
      const report = await call<ImportReport>(admin, 'POST', importPath(), csv);
      expect(report.status).toBe(422);
      expect(report.body.applied).toBe(false);
      expect(report.body.rows).toBe(8);
      expect(report.body.problems).toEqual([
        {
          line: 3,
          email: 'nobody@example.com',
          course: 'lungs',
          problems: [
            'No member of this organization has the email nobody@example.com; invite them first.',
          ],
        },
        {
          line: 4,
          email: f.users.other_learner.email,
          course: outsiderCourse.data!.slug,
          problems: [
            `No member of this organization has the email ${f.users.other_learner.email}; invite them first.`,
            `No course of this organization has the slug or id “${outsiderCourse.data!.slug}”.`,
          ],
        },
        expect.objectContaining({ line: 5, problems: ['The same email and course as line 2.'] }),
        expect.objectContaining({
          line: 6,
          problems: [
            'The role “dean” is not student or instructor.',
            'No board of this organization is called “nowhere”.',
          ],
        }),
        expect.objectContaining({
          line: 7,
          problems: ['“not-an-email” is not an email address.', 'The course is empty.'],
        }),
        expect.objectContaining({
          line: 8,
          problems: ['Expected 4 fields (email, course, role, board), found 2.'],
        }),
      ]);
      expect(await enrolmentsOf(f.users.instructor.id)).toEqual(before);
    });

    it('applies a clean file all at once, and a second run changes nothing', async () => {
      const person = await createWithPassword('csv', [
        { role: 'compliance_officer', boardId: null },
      ]);
      const csv = `email,course,role,board\n${person.email},${f.course2},student,Faculty of Science\n`;
      const check = await call<ImportReport>(admin, 'POST', importPath(true), csv);
      expect(check.body).toMatchObject({
        applied: false,
        problems: [],
        enrolled: 1,
        membershipsAdded: 1,
      });
      expect(await enrolmentsOf(person.id)).toEqual([]);

      const applied = await call<ImportReport>(admin, 'POST', importPath(), csv);
      expect(applied.status).toBe(200);
      expect(applied.body).toMatchObject({
        applied: true,
        rows: 1,
        enrolled: 1,
        membershipsAdded: 1,
      });
      expect(await enrolmentsOf(person.id)).toEqual([{ course_id: f.course2, status: 'active' }]);
      expect(await membershipsOf(person.id)).toContainEqual({
        organization_id: f.orgA,
        board_id: f.boardScience,
        role: 'learner',
        active: true,
      });
      const rerun = await call<ImportReport>(admin, 'POST', importPath(), csv);
      expect(rerun.body).toMatchObject({
        applied: true,
        enrolled: 0,
        alreadyEnrolled: 1,
        membershipsAdded: 0,
      });
    });

    it('refuses broken files with a message and never crashes', async () => {
      const wrongColumns = await call<ImportReport>(
        admin,
        'POST',
        importPath(),
        'mail,class\nx,y\n',
      );
      expect(wrongColumns.status).toBe(422);
      expect(wrongColumns.body.problems[0]).toMatchObject({
        line: 1,
        problems: expect.arrayContaining(['The column “email” is missing from the first line.']),
      });
      const quote = await call<ImportReport>(
        admin,
        'POST',
        importPath(),
        `email,course\n"${f.users.learner.email},lungs\n`,
      );
      expect(quote.status).toBe(422);
      expect(quote.body.problems).toEqual([
        expect.objectContaining({
          line: 2,
          problems: ['A quoted field is never closed (a " is missing).'],
        }),
      ]);
      const empty = await call<ImportReport>(admin, 'POST', importPath(), '\n\n');
      expect(empty.status).toBe(422);
      const big = await call(
        admin,
        'POST',
        importPath(),
        `email,course\n${'a@b.co,x\n'.repeat(70_000)}`,
      );
      expect(big.status).toBe(413);
      expect(big.body.message).toContain('import at most 512 KB');
      const rows = await call(
        admin,
        'POST',
        importPath(),
        `email,course\n${'a@b.co,x\n'.repeat(5001)}`,
      );
      expect(rows.status).toBe(413);
      expect(rows.body.message).toBe(
        'The file has 5001 lines; import at most 5000 at a time (split it into several files).',
      );
      const notAdmin = await call(f.client('instructor'), 'POST', importPath(), 'email,course\n');
      expect(notAdmin.status).toBe(403);
    });
  });
});
