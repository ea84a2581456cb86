/**
 * Usage quotas through supabase-js: allowances set at sign-up, track_usage counting up to the
 * allowance and then refusing with the reset date, the monthly reset (as the SQL function and
 * as the scheduled job), and who may call what.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const PASSWORD = 'quota-test-password-1';

async function newUser(server: TestServer, email: string) {
  const { data, error } = await server.service().auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (error) throw error;
  const client = testClient(server, server.anonKey);
  const signIn = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (signIn.error) throw signIn.error;
  return {
    id: data.user.id,
    client: testClient(server, server.anonKey, signIn.data.session!.access_token),
  };
}

/** The first day of next month in UTC, as the database states it. */
function nextMonth(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

describe.each(databaseKinds)('usage quotas on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;
  let learner: { id: string; client: SupabaseClient };
  let other: { id: string; client: SupabaseClient };

  beforeAll(async () => {
    server = await startTestServer(kind);
    service = server.service();
    learner = await newUser(server, `quota-learner-${kind}@example.com`);
    other = await newUser(server, `quota-other-${kind}@example.com`);
    // A small allowance keeps the test short; the free tier's real one is 500.
    await server.deps.db.query(
      `insert into public.quota_tier_allowances (tier, feature_type, monthly_limit) values ('test_small', 'coach_message', 3)`,
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('gives every new account the free allowance, which the user reads and nobody else does', async () => {
    const { data, error } = await learner.client
      .from('user_quotas')
      .select('feature_type, tier, monthly_limit, used, resets_at');
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    expect(data![0]).toMatchObject({
      feature_type: 'coach_message',
      tier: 'free',
      monthly_limit: 500,
      used: 0,
    });
    expect(new Date(data![0]!.resets_at as string).toISOString()).toBe(nextMonth());
    const { data: others } = await other.client
      .from('user_quotas')
      .select()
      .eq('user_id', learner.id);
    expect(others).toEqual([]);
  });

  it('counts usage and refuses past the allowance with a message that gives the reset date', async () => {
    expect(
      (await service.rpc('initialize_user_quotas', { tier: 'test_small', target_user: learner.id }))
        .error,
    ).toBeNull();
    const track = () =>
      learner.client.rpc('track_usage', {
        user_id: learner.id,
        feature_type: 'coach_message',
        usage_amount: 1,
        metadata: { mode: 'study' },
      });
    for (const used of [1, 2, 3]) {
      const { data, error } = await track();
      expect(error).toBeNull();
      expect(data).toMatchObject({ allowed: true, used, limit: 3, remaining: 3 - used });
    }
    const { data: refused } = await track();
    const resetsAt = new Date(nextMonth());
    const day = `${resetsAt.getUTCDate()} ${resetsAt.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} ${resetsAt.getUTCFullYear()}`;
    expect(refused).toMatchObject({
      allowed: false,
      used: 3,
      limit: 3,
      remaining: 0,
      message: `You have used all 3 coach messages of this month. Your allowance resets on ${day} (UTC).`,
    });
    const { data: events } = await learner.client
      .from('usage_events')
      .select('feature_type, amount, metadata');
    expect(events).toEqual([
      { feature_type: 'coach_message', amount: 1, metadata: { mode: 'study' } },
      { feature_type: 'coach_message', amount: 1, metadata: { mode: 'study' } },
      { feature_type: 'coach_message', amount: 1, metadata: { mode: 'study' } },
    ]);
  });

  it('refuses bad input and other users clearly', async () => {
    const forOther = await learner.client.rpc('track_usage', {
      user_id: other.id,
      feature_type: 'coach_message',
      usage_amount: 1,
    });
    expect(forOther.error?.message).toBe('usage can be counted only for yourself');
    const negative = await learner.client.rpc('track_usage', {
      user_id: learner.id,
      feature_type: 'coach_message',
      usage_amount: -5,
    });
    expect(negative.error?.message).toBe('usage_amount must be a positive whole number');
    const ownTier = await learner.client.rpc('initialize_user_quotas', { tier: 'test_small' });
    expect(ownTier.error).not.toBeNull();
    const reset = await learner.client.rpc('reset_monthly_quotas');
    expect(reset.error).not.toBeNull();
    const unknown = await service.rpc('initialize_user_quotas', {
      tier: 'platinum',
      target_user: learner.id,
    });
    expect(unknown.error?.message).toBe('unknown quota tier: platinum');
  });

  it('starts a new month with reset_monthly_quotas, and only for months that are over', async () => {
    expect((await service.rpc('reset_monthly_quotas')).data).toBe(0);
    await server.deps.db.query(
      `update public.user_quotas set period_start = period_start - interval '1 month', resets_at = now() - interval '1 minute' where user_id = $1`,
      [learner.id],
    );
    expect((await service.rpc('reset_monthly_quotas')).data).toBe(1);
    const { data } = await learner.client.from('user_quotas').select('used, resets_at');
    expect(data![0]!.used).toBe(0);
    expect(new Date(data![0]!.resets_at as string).toISOString()).toBe(nextMonth());
    const { data: again } = await learner.client.rpc('track_usage', {
      user_id: learner.id,
      feature_type: 'coach_message',
      usage_amount: 1,
    });
    expect(again).toMatchObject({ allowed: true, used: 1 });
  });

  it('runs the reset as the monthly job on the queue', async () => {
    await server.deps.db.query(
      `update public.user_quotas set used = 2, period_start = period_start - interval '1 month', resets_at = now() - interval '1 minute' where user_id = $1`,
      [other.id],
    );
    await server.deps.jobs.send('reset-monthly-quotas');
    await vi.waitFor(
      async () => {
        const { data } = await other.client.from('user_quotas').select('used');
        expect(data).toEqual([{ used: 0 }]);
      },
      { timeout: 20_000, interval: 200 },
    );
    const { rows } = await server.deps.db.query<{ cron: string }>(
      "select cron from pgboss.schedule where name = 'reset-monthly-quotas'",
    );
    expect(rows).toEqual([{ cron: '5 0 1 * *' }]);
  });
});
