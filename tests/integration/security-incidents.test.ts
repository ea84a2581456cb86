/**
 * Security incidents (decision 0403): detection from real signals on the job queue, the
 * enforced status steps, a critical incident's first actions, the GDPR and HIPAA clocks, and
 * who sees and works incidents.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildLearningFixture, type LearningFixture } from './learning-fixture';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

interface Incident extends Record<string, unknown> {
  id: string;
  category: string;
  severity: string;
  status: string;
  organization_id: string | null;
  details: Record<string, unknown>;
  detected_at: string;
  gdpr_notify_by: string | null;
  hipaa_notify_by: string | null;
}

describe.each(databaseKinds)('security incidents on %s', (kind) => {
  let server: TestServer;
  let fx: LearningFixture;

  beforeAll(async () => {
    // The fixture's sign-ins and the test's 21 would pass the default 30 per address.
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    fx = await buildLearningFixture(server);
  });
  afterAll(() => server?.stop());

  const db = () => server.deps.db;
  async function incidents(category: string) {
    const { rows } = await db().query<Incident>(
      `select id, category, severity, status, organization_id, details, detected_at::text,
              gdpr_notify_by::text, hipaa_notify_by::text
         from public.security_incidents where category = $1 order by detected_at`,
      [category],
    );
    return rows;
  }

  it('raises incidents from failed sign-ins, PIN guessing, token reuse and mass export on the queue', async () => {
    // 20 wrong passwords from one address through the real sign-in endpoint.
    const anon = server.anon();
    for (let i = 0; i < 20; i++) {
      await anon.auth.signInWithPassword({ email: fx.users.learner.email, password: `wrong-${i}` });
    }
    await db().query(
      `insert into data_room.pin_attempts (client_address) select '203.0.113.9' from generate_series(1, 10)`,
    );
    // A refresh token used again after its successor was issued (outside the 10 s window).
    const { data: signedIn } = await anon.auth.signInWithPassword({
      email: fx.users.instructor.email,
      password: fx.users.instructor.password,
    });
    const stale = signedIn.session!.refresh_token;
    await anon.auth.refreshSession({ refresh_token: stale });
    await db().query(
      "update auth.refresh_tokens set revoked_at = now() - interval '1 minute' where revoked_at is not null",
    );
    const reuse = await server.anon().auth.refreshSession({ refresh_token: stale });
    expect(reuse.error?.code).toBe('refresh_token_already_used');
    for (let i = 0; i < 5; i++) {
      await fx.client('owner').rpc('record_audit_event', {
        action: 'learners.export',
        purpose: 'progress report',
        legal_basis: 'contract',
      });
    }

    await server.deps.jobs.send('security-incident-detection');
    await vi.waitFor(async () => expect(await incidents('mass_export')).toHaveLength(1), {
      timeout: 20_000,
      interval: 200,
    });

    const [byAddress] = await incidents('failed_sign_ins');
    expect(byAddress).toMatchObject({ severity: 'high', organization_id: null });
    expect(byAddress!.details).toMatchObject({ ip: '127.0.0.1', failures: 20 });
    const accounts = (await incidents('failed_sign_ins')).filter((i) => i.details.user_id);
    expect(accounts.map((i) => i.details.user_id)).toEqual([fx.users.learner.id]);

    expect((await incidents('pin_brute_force'))[0]!.details).toEqual({
      ip: '203.0.113.9',
      attempts: 10,
    });
    const [reused] = await incidents('refresh_token_reuse');
    expect(reused).toMatchObject({ severity: 'high', organization_id: fx.orgA });
    expect(reused!.details.user_id).toBe(fx.users.instructor.id);
    expect(reused!.gdpr_notify_by).not.toBeNull();

    const [exported] = await incidents('mass_export');
    expect(exported).toMatchObject({ severity: 'critical', organization_id: fx.orgA });

    // Run again in the same window: nothing raised twice.
    const { rows } = await db().query<{ raised: number }>(
      'select public.detect_security_incident() as raised',
    );
    expect(rows).toEqual([{ raised: 0 }]);
  });

  it('gives a critical incident its containment, assessment and notification actions', async () => {
    const [exported] = await incidents('mass_export');
    const { data, error } = await fx
      .client('compliance')
      .from('incident_response_actions')
      .select('action_type, status, due_at')
      .eq('incident_id', exported!.id)
      .order('due_at');
    expect(error).toBeNull();
    expect(data!.map((a) => a.action_type)).toEqual(['containment', 'assessment', 'notification']);
    const detected = new Date(exported!.detected_at).getTime();
    expect(data!.map((a) => (new Date(a.due_at).getTime() - detected) / 3_600_000)).toEqual([
      1, 24, 72,
    ]);
  });

  it('runs the GDPR 72-hour and HIPAA 60-day clocks from detection', async () => {
    const officer = fx.client('compliance');
    const { data: id, error } = await officer.rpc('report_security_incident', {
      title: 'Lost laptop with IEP documents',
      severity: 'high',
      description: 'Reported by the special-education office.',
      personal_data_involved: true,
      phi_involved: true,
      organization_id: fx.orgA,
    });
    expect(error).toBeNull();
    const { data } = await officer
      .from('security_incidents')
      .select('detected_at, gdpr_notify_by, hipaa_notify_by')
      .eq('id', id)
      .single();
    const detected = new Date(data!.detected_at).getTime();
    expect((new Date(data!.gdpr_notify_by).getTime() - detected) / 3_600_000).toBe(72);
    expect((new Date(data!.hipaa_notify_by).getTime() - detected) / 86_400_000).toBe(60);

    const learner = await fx.client('learner').rpc('report_security_incident', {
      title: 'Nothing',
      severity: 'low',
      organization_id: fx.orgA,
    });
    expect(learner.error?.code).toBe('42501');
  });

  it('moves an incident one step at a time and refuses a skipped step', async () => {
    const officer = fx.client('compliance');
    const [incident] = await incidents('pin_brute_force');
    const skip = await officer
      .from('security_incidents')
      .update({ status: 'resolved' })
      .eq('id', incident!.id);
    expect(skip.error?.code).toBe('22023');
    expect(skip.error?.message).toContain('open → resolved is not the next step');
    for (const status of ['investigating', 'contained', 'resolved', 'closed']) {
      const step = await officer
        .from('security_incidents')
        .update({ status })
        .eq('id', incident!.id)
        .select('status, closed_at')
        .single();
      expect(step.error, status).toBeNull();
      expect(step.data!.status).toBe(status);
    }
    const back = await officer
      .from('security_incidents')
      .update({ status: 'open' })
      .eq('id', incident!.id);
    expect(back.error?.code).toBe('22023');
    const severity = await officer
      .from('security_incidents')
      .update({ severity: 'low' })
      .eq('id', incident!.id);
    expect(severity.error?.code).toBe('42501');
  });

  it('shows incidents to compliance officers only, each their own organization’s', async () => {
    const { data: mine } = await fx.client('compliance').from('security_incidents').select('id');
    expect(mine!.length).toBeGreaterThan(0);
    for (const actor of ['learner', 'org_admin', 'other_admin'] as const) {
      const { data } = await fx
        .client(actor)
        .from('security_incidents')
        .select('id, organization_id');
      expect(data, actor).toEqual([]);
    }
  });
});
