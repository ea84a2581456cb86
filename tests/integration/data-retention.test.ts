/**
 * Retention (decision 0402): the daily job deletes or anonymises what the policies say has
 * expired, records each run and audits it; old audit entries go oldest first and the chain
 * still verifies; only platform admins change a policy, and a bad period is refused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildLearningFixture, type LearningFixture } from './learning-fixture';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

describe.each(databaseKinds)('data retention on %s', (kind) => {
  let server: TestServer;
  let fx: LearningFixture;

  beforeAll(async () => {
    server = await startTestServer(kind);
    fx = await buildLearningFixture(server);
  });
  afterAll(() => server?.stop());

  const db = () => server.deps.db;

  it('has a policy for the audit log and for every log of addresses', async () => {
    const { data, error } = await fx
      .client('compliance')
      .from('data_retention_policies')
      .select('table_name, retention_period_days, legal_basis, is_active')
      .order('table_name');
    expect(error).toBeNull();
    expect(data!.map((p) => p.table_name)).toEqual(
      expect.arrayContaining([
        'public.audit_log',
        'auth.failed_sign_ins',
        'data_room.pin_attempts',
      ]),
    );
    expect(data!.find((p) => p.table_name === 'public.audit_log')).toEqual({
      table_name: 'public.audit_log',
      retention_period_days: 2555,
      legal_basis: 'legal_obligation',
      is_active: true,
    });
    const { data: hidden } = await fx.client('learner').from('data_retention_policies').select();
    expect(hidden).toEqual([]);
  });

  it('deletes and anonymises expired rows on the queue, records the run and audits it', async () => {
    await db().query(
      `insert into auth.failed_sign_ins (email, ip, user_agent, reason, created_at) values
         ('old@example.com', '10.0.0.1', 'Old Browser', 'invalid_credentials', now() - interval '40 days'),
         ('new@example.com', '10.0.0.2', 'New Browser', 'invalid_credentials', now() - interval '1 day')`,
    );
    await db().query(
      `insert into data_room.pin_attempts (client_address, attempted_at) values
         ('10.0.0.3', now() - interval '100 days'), ('10.0.0.4', now())`,
    );
    await server.deps.jobs.send('retention-cleanup');
    await vi.waitFor(
      async () => {
        const { rows } = await db().query('select 1 from public.retention_runs');
        expect(rows.length).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 200 },
    );

    const { rows: failed } = await db().query(
      'select email, ip, user_agent, reason from auth.failed_sign_ins order by created_at',
    );
    expect(failed).toEqual([
      { email: null, ip: null, user_agent: null, reason: 'invalid_credentials' },
      {
        email: 'new@example.com',
        ip: '10.0.0.2',
        user_agent: 'New Browser',
        reason: 'invalid_credentials',
      },
    ]);
    const { rows: attempts } = await db().query(
      'select client_address from data_room.pin_attempts order by id',
    );
    expect(attempts).toEqual([{ client_address: '10.0.0.4' }]);

    const { data: runs } = await fx
      .client('compliance')
      .from('retention_runs')
      .select('table_name, action, rows_affected, error');
    expect(runs).toEqual(
      expect.arrayContaining([
        { table_name: 'auth.failed_sign_ins', action: 'anonymise', rows_affected: 1, error: null },
        { table_name: 'data_room.pin_attempts', action: 'delete', rows_affected: 1, error: null },
        { table_name: 'public.audit_log', action: 'delete', rows_affected: 0, error: null },
      ]),
    );
    const { rows: audited } = await db().query<{ new_values: Record<string, unknown> }>(
      `select new_values from public.audit_log
        where action = 'retention.cleanup' and table_name = 'data_room.pin_attempts'`,
    );
    expect(audited).toEqual([
      {
        new_values: { action: 'delete', rows: 1, retention_period_days: 90, failed: false },
      },
    ]);
  });

  it('removes expired audit entries oldest first and the chain still verifies', async () => {
    const { rows: before } = await db().query<{ id: number }>(
      'select id from public.audit_log order by id limit 3',
    );
    // Back-date the three oldest entries as if they were eight years old.
    await db().transaction(async (tx) => {
      await tx.exec('set local session_replication_role = replica');
      await tx.query(
        `update public.audit_log set "timestamp" = now() - interval '8 years' where id = any ($1)`,
        [before.map((r) => r.id)],
      );
    });
    const { rows } = await db().query<{ table_name: string; rows_affected: number }>(
      `select table_name, rows_affected from public.cleanup_expired_data()
        where table_name = 'public.audit_log'`,
    );
    expect(rows).toEqual([{ table_name: 'public.audit_log', rows_affected: 3 }]);
    const { rows: left } = await db().query('select 1 from public.audit_log where id = any ($1)', [
      before.map((r) => r.id),
    ]);
    expect(left).toEqual([]);
    const { data } = await fx.client('compliance').rpc('verify_audit_chain');
    expect(data).toEqual([expect.objectContaining({ ok: true, first_broken_id: null })]);
  });

  it('lets only a platform admin change a policy, and refuses a bad period', async () => {
    const officer = await fx
      .client('compliance')
      .from('data_retention_policies')
      .update({ retention_period_days: 1 })
      .eq('table_name', 'public.audit_log')
      .select();
    expect(officer.data ?? []).toEqual([]);
    const { rows } = await db().query(
      "select retention_period_days from public.data_retention_policies where table_name = 'public.audit_log'",
    );
    expect(rows).toEqual([{ retention_period_days: 2555 }]);

    await db().query("insert into public.user_roles (user_id, role) values ($1, 'admin')", [
      fx.users.personal.id,
    ]);
    const admin = fx.client('personal');
    const changed = await admin
      .from('data_retention_policies')
      .update({ retention_period_days: 60 })
      .eq('table_name', 'data_room.pin_attempts')
      .select('retention_period_days');
    expect(changed.error).toBeNull();
    expect(changed.data).toEqual([{ retention_period_days: 60 }]);
    const bad = await admin
      .from('data_retention_policies')
      .update({ retention_period_days: 0 })
      .eq('table_name', 'data_room.pin_attempts');
    expect(bad.error?.code).toBe('23514');
    const other = await admin
      .from('data_retention_policies')
      .update({ table_name: 'public.notes' })
      .eq('table_name', 'data_room.pin_attempts');
    expect(other.error?.code).toBe('42501');
  });
});
