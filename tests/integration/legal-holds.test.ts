/**
 * Legal holds as the compliance console works them (issue 16, decision 0423) through
 * supabase-js, on PGlite and PostgreSQL: a platform admin places a hold naming the person by
 * email, with a reason, and releases it with a reason; others are refused; placing and releasing
 * are audited with who did it; under the hold an erasure is refused while an access export is
 * still prepared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { createPrivacyUser, type PrivacyUser } from './privacy-support';

describe.each(databaseKinds)('legal holds on %s', (kind) => {
  let server: TestServer;
  let person: PrivacyUser;
  let admin: PrivacyUser;
  let officer: PrivacyUser;
  let platformAdmin: PrivacyUser;

  const call = (who: PrivacyUser, path: string, body: object) =>
    fetch(`${server.url}/functions/v1/privacy${path}`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${who.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  const file = async (type: string) => {
    const { data, error } = await person.client.rpc('create_data_subject_request', { type });
    expect(error).toBeNull();
    return (data as { id: string }).id;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    person = await createPrivacyUser(server, 'held-person');
    admin = await createPrivacyUser(server, 'hold-org-admin');
    officer = await createPrivacyUser(server, 'hold-officer');
    platformAdmin = await createPrivacyUser(server, 'hold-platform');
    const service = server.service();
    const org = await service
      .from('organizations')
      .insert({ name: 'Hold U', slug: `hold-${kind}` })
      .select('id')
      .single();
    const memberships = await service.from('memberships').insert([
      { user_id: person.id, organization_id: org.data!.id, role: 'learner' },
      { user_id: admin.id, organization_id: org.data!.id, role: 'org_admin' },
      { user_id: officer.id, organization_id: org.data!.id, role: 'compliance_officer' },
    ]);
    expect(memberships.error).toBeNull();
    await server.deps.db.query(
      "insert into public.user_roles (user_id, role) values ($1, 'admin')",
      [platformAdmin.id],
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('places a hold by email with a reason, once, and only as a platform admin', async () => {
    for (const who of [admin, officer, person]) {
      const refused = await who.client.rpc('place_legal_hold_on', {
        person: person.email,
        reason: 'Litigation hold',
      });
      expect(refused.error?.code).toBe('42501');
      expect((await who.client.rpc('legal_hold_list')).error?.code).toBe('42501');
    }
    const noReason = await platformAdmin.client.rpc('place_legal_hold_on', {
      person: person.email,
      reason: ' ',
    });
    expect(noReason.error).toMatchObject({ code: '22023', message: /Say why/ });
    const nobody = await platformAdmin.client.rpc('place_legal_hold_on', {
      person: 'nobody@example.com',
      reason: 'Litigation hold',
    });
    expect(nobody.error).toMatchObject({ code: 'PT404', message: /No account/ });

    const placed = await platformAdmin.client.rpc('place_legal_hold_on', {
      person: person.email.toUpperCase(),
      reason: 'Litigation hold: grade appeal',
    });
    expect(placed.error).toBeNull();
    const again = await platformAdmin.client.rpc('place_legal_hold_on', {
      person: person.id,
      reason: 'Litigation hold',
    });
    expect(again.error).toMatchObject({ code: 'PT409', message: /already under a legal hold/ });

    const { data, error } = await platformAdmin.client.rpc('legal_hold_list');
    expect(error).toBeNull();
    expect(data).toEqual([
      expect.objectContaining({
        user_id: person.id,
        email: person.email,
        reason: 'Litigation hold: grade appeal',
        placed_by_email: platformAdmin.email,
        released_at: null,
      }),
    ]);
  });

  it('refuses an erasure under the hold but still prepares an access export', async () => {
    const erasure = await file('erasure');
    const refused = await call(admin, '/erasures', { requestId: erasure });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /under a legal hold since \d{4}-\d{2}-\d{2}: Litigation hold: grade appeal/,
    );
    const access = await file('access');
    const queued = await call(admin, '/exports', { requestId: access });
    expect(queued.status).toBe(202);
    const { exportId } = (await queued.json()) as { exportId: string };
    await expect
      .poll(
        async () =>
          (
            await server.deps.db.query<{ status: string }>(
              'select status from privacy.data_exports where id = $1',
              [exportId],
            )
          ).rows[0]?.status,
        { timeout: 60_000, interval: 250 },
      )
      .toBe('ready');
  });

  it('releases the hold with a reason, keeps who released it, and audits both', async () => {
    const noReason = await platformAdmin.client.rpc('release_legal_hold', {
      person: person.id,
      reason: '',
    });
    expect(noReason.error?.code).toBe('22023');
    const byAdmin = await admin.client.rpc('release_legal_hold', {
      person: person.id,
      reason: 'Appeal decided',
    });
    expect(byAdmin.error?.code).toBe('42501');
    const released = await platformAdmin.client.rpc('release_legal_hold', {
      person: person.id,
      reason: 'Appeal decided',
    });
    expect(released.error).toBeNull();
    const twice = await platformAdmin.client.rpc('release_legal_hold', {
      person: person.id,
      reason: 'Appeal decided',
    });
    expect(twice.error?.code).toBe('PT404');
    const { data } = await platformAdmin.client.rpc('legal_hold_list');
    expect(data).toEqual([
      expect.objectContaining({
        user_id: person.id,
        released_at: expect.any(String),
        released_by_email: platformAdmin.email,
        release_reason: 'Appeal decided',
      }),
    ]);
    const { rows } = await server.deps.db.query<{ action: string; user_id: string }>(
      `select action, user_id from public.audit_log
        where table_name = 'privacy.legal_holds' and subject_user_id = $1 order by id`,
      [person.id],
    );
    expect(rows).toEqual([
      { action: 'insert', user_id: platformAdmin.id },
      { action: 'update', user_id: platformAdmin.id },
    ]);
  });
});
