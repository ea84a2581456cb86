/**
 * Data subject requests through supabase-js (issue 16, decision 0411): a user files each of the
 * six types about themself (due in 30 days), a loop is refused with 429, an org admin of the
 * person's organization and a platform admin work them, and nobody else sees or moves them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { createPrivacyUser, type PrivacyUser } from './privacy-support';

const types = ['access', 'rectification', 'erasure', 'portability', 'restriction', 'objection'];

describe.each(databaseKinds)('data subject requests on %s', (kind) => {
  let server: TestServer;
  let learner: PrivacyUser;
  let admin: PrivacyUser;
  let otherAdmin: PrivacyUser;
  let stranger: PrivacyUser;
  let looper: PrivacyUser;

  beforeAll(async () => {
    server = await startTestServer(kind);
    learner = await createPrivacyUser(server, 'learner');
    admin = await createPrivacyUser(server, 'admin');
    otherAdmin = await createPrivacyUser(server, 'other-admin');
    stranger = await createPrivacyUser(server, 'stranger');
    looper = await createPrivacyUser(server, 'looper');
    const service = server.service();
    const org = await service
      .from('organizations')
      .insert({ name: 'Alpha', slug: `alpha-${kind}` })
      .select()
      .single();
    const other = await service
      .from('organizations')
      .insert({ name: 'Beta', slug: `beta-${kind}` })
      .select()
      .single();
    const memberships = await service.from('memberships').insert([
      { user_id: learner.id, organization_id: org.data.id, role: 'learner' },
      { user_id: admin.id, organization_id: org.data.id, role: 'org_admin' },
      { user_id: otherAdmin.id, organization_id: other.data.id, role: 'org_admin' },
    ]);
    expect(memberships.error).toBeNull();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('files each of the six types, due 30 days later, and the learner sees them', async () => {
    const filed: string[] = [];
    for (const type of types.slice(0, 5)) {
      const { data, error } = await learner.client.rpc('create_data_subject_request', {
        type,
        details: type === 'rectification' ? 'My name is spelled Ana, not Anna.' : '',
      });
      expect(error, type).toBeNull();
      expect(data).toMatchObject({ user_id: learner.id, request_type: type, status: 'pending' });
      const days = (Date.parse(data.due_at) - Date.parse(data.created_at)) / 86_400_000;
      expect(days).toBe(30);
      filed.push(data.id);
    }
    const mine = await learner.client.from('data_subject_requests').select('id');
    expect(mine.data?.map((r) => r.id).sort()).toEqual([...filed].sort());
    // The sixth within 24 hours is over the limit of five.
    const sixth = await learner.client.rpc('create_data_subject_request', { type: 'objection' });
    expect(sixth.status).toBe(429);
    expect(sixth.error?.message).toMatch(
      /^Too many requests: at most 5 in 24 hours\. Try again after \d{4}-/,
    );
  });

  it('refuses a loop, a duplicate open request, bad types and a visitor', async () => {
    const first = await looper.client.rpc('create_data_subject_request', { type: 'access' });
    expect(first.error).toBeNull();
    const again = await looper.client.rpc('create_data_subject_request', { type: 'access' });
    expect(again.status).toBe(409);
    expect(again.error?.message).toBe(
      'You already have an open access request; it is being worked on',
    );
    const statuses: number[] = [];
    for (const type of [
      'erasure',
      'portability',
      'restriction',
      'objection',
      'rectification',
      'erasure',
    ]) {
      const { status } = await looper.client.rpc('create_data_subject_request', {
        type,
        details: 'x',
      });
      statuses.push(status);
    }
    expect(statuses.slice(0, 4).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(4)).toEqual([429, 409]);

    const bad = await stranger.client.rpc('create_data_subject_request', {
      type: 'delete-everything',
    });
    expect(bad.error?.message).toBe(
      'type must be one of access, rectification, erasure, portability, restriction, objection',
    );
    const empty = await stranger.client.rpc('create_data_subject_request', {
      type: 'rectification',
      details: '  ',
    });
    expect(empty.error?.message).toMatch(/rectification request needs details/);
    const long = await stranger.client.rpc('create_data_subject_request', {
      type: 'access',
      details: 'x'.repeat(2001),
    });
    expect(long.error?.message).toBe('details must be at most 2,000 characters');
    const anon = await server.anon().rpc('create_data_subject_request', { type: 'access' });
    expect(anon.error).not.toBeNull();
    // Nobody files for someone else: there is no way to name another user, and a direct insert is refused.
    const forged = await stranger.client
      .from('data_subject_requests')
      .insert({ user_id: learner.id, request_type: 'erasure' });
    expect(forged.error).not.toBeNull();
  });

  it("lets the person's org admin work the queue; others neither see nor move the request", async () => {
    const { data: request } = await learner.client
      .from('data_subject_requests')
      .select('id')
      .eq('request_type', 'erasure')
      .single();
    const seenByAdmin = await admin.client.from('data_subject_requests').select('id, user_id');
    expect(seenByAdmin.data?.every((r) => r.user_id === learner.id)).toBe(true);
    expect(seenByAdmin.data?.length).toBe(5);
    for (const outsider of [otherAdmin, stranger]) {
      const seen = await outsider.client
        .from('data_subject_requests')
        .select('id')
        .eq('user_id', learner.id);
      expect(seen.data).toEqual([]);
      const moved = await outsider.client.rpc('update_data_subject_request', {
        request_id: request!.id,
        status: 'completed',
      });
      expect(moved.status).toBe(404);
    }
    const own = await learner.client.rpc('update_data_subject_request', {
      request_id: request!.id,
      status: 'completed',
    });
    expect(own.status).toBe(404);

    const started = await admin.client.rpc('update_data_subject_request', {
      request_id: request!.id,
      status: 'in_progress',
    });
    expect(started.data).toMatchObject({
      status: 'in_progress',
      handled_by: admin.id,
      completed_at: null,
    });
    const rejectSilently = await admin.client.rpc('update_data_subject_request', {
      request_id: request!.id,
      status: 'rejected',
    });
    expect(rejectSilently.error?.message).toBe(
      'Say why the request is rejected: the person is told',
    );
    const done = await admin.client.rpc('update_data_subject_request', {
      request_id: request!.id,
      status: 'completed',
      resolution: 'Your account and learning records were erased.',
    });
    expect(done.data).toMatchObject({
      status: 'completed',
      resolution: 'Your account and learning records were erased.',
    });
    expect(done.data.completed_at).not.toBeNull();
    const twice = await admin.client.rpc('update_data_subject_request', {
      request_id: request!.id,
      status: 'rejected',
      resolution: 'no',
    });
    expect(twice.status).toBe(409);
    expect(twice.error?.message).toBe('This request is already completed');

    const seen = await learner.client
      .from('data_subject_requests')
      .select('status, resolution')
      .eq('id', request!.id)
      .single();
    expect(seen.data).toEqual({
      status: 'completed',
      resolution: 'Your account and learning records were erased.',
    });
  });

  it('shows overdue requests as open ones past their due time', async () => {
    const service = server.service();
    const { data: request } = await learner.client
      .from('data_subject_requests')
      .select('id')
      .eq('request_type', 'access')
      .single();
    await service
      .from('data_subject_requests')
      .update({ due_at: new Date(Date.now() - 3_600_000).toISOString() })
      .eq('id', request!.id);
    const overdue = await admin.client
      .from('data_subject_requests')
      .select('id')
      .in('status', ['pending', 'in_progress'])
      .lt('due_at', new Date().toISOString());
    expect(overdue.data?.map((r) => r.id)).toEqual([request!.id]);
  });
});
