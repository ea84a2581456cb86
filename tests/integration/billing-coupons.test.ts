/**
 * Tiers, coupons and the beta gate through supabase-js, on PGlite and PostgreSQL: the pricing
 * read, platform admins creating and revoking coupons (and nobody else), sign-up refused
 * without a coupon or with a used-up, expired, revoked or unknown one (nothing changed),
 * case-insensitive redemption with its tier and organization, two people racing for the last
 * redemption (exactly one wins), a guessing loop answered 429, and the service role's user
 * creation bypassing the gate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { unique } from '../support/service-rows';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const PASSWORD = 'coupon-test-password-1';

type CouponRow = {
  id: string;
  code: string;
  tier: string;
  redeemed_count: number;
  max_redemptions: number;
  revoked_at: string | null;
};

describe.each(databaseKinds)('tiers, coupons and the beta gate on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;
  let admin: SupabaseClient;
  let learner: SupabaseClient;

  async function signedIn(email: string): Promise<{ id: string; client: SupabaseClient }> {
    const { data, error } = await service.auth.admin.createUser({
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

  async function createCoupon(args: Record<string, unknown>): Promise<CouponRow> {
    const { data, error } = await admin.rpc('create_coupon', args);
    if (error) throw new Error(`create_coupon: ${error.message}`);
    return data as CouponRow;
  }

  async function couponRow(id: string): Promise<CouponRow> {
    const { rows } = await server.deps.db.query<CouponRow>(
      'select * from public.coupons where id = $1',
      [id],
    );
    return rows[0]!;
  }

  async function accountExists(email: string): Promise<boolean> {
    const { rows } = await server.deps.db.query('select 1 from auth.users where email = $1', [
      email,
    ]);
    return rows.length > 0;
  }

  function signUp(email: string, coupon?: string) {
    return testClient(server, server.anonKey).auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { full_name: 'New Learner', ...(coupon ? { coupon } : {}) } },
    });
  }

  beforeAll(async () => {
    server = await startTestServer(kind, {
      BETA_GATE: 'true',
      MAILER_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      COUPON_ATTEMPTS_PER_10_MINUTES: '1000',
    });
    service = server.service();
    const operator = await signedIn(`operator-${kind}@example.com`);
    await server.deps.db.query(
      "insert into public.user_roles (user_id, role) values ($1, 'admin')",
      [operator.id],
    );
    admin = operator.client;
    learner = (await signedIn(`plain-${kind}@example.com`)).client;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists the tiers with the allowances of quota_tier_allowances, for visitors too', async () => {
    const { data, error } = await server
      .anon()
      .from('pricing_tiers')
      .select('id, name, audience, monthly_price_cents, allowances')
      .order('rank');
    expect(error).toBeNull();
    expect(data!.map((t) => t.id)).toEqual(['free', 'pro', 'enterprise']);
    expect(data![0]!.allowances).toEqual({ coach_message: 500 });
    expect(data![1]!.allowances).toEqual({ coach_message: 5000 });
    // The allowance is stated once: changing the quota row changes what pricing shows.
    await server.deps.db.query(
      "update public.quota_tier_allowances set monthly_limit = 6000 where tier = 'pro' and feature_type = 'coach_message'",
    );
    const again = await server.anon().from('pricing_tiers').select('allowances').eq('id', 'pro');
    expect(again.data![0]!.allowances).toEqual({ coach_message: 6000 });
    await server.deps.db.query(
      "update public.quota_tier_allowances set monthly_limit = 5000 where tier = 'pro' and feature_type = 'coach_message'",
    );
  });

  it('lets platform admins create, list and revoke coupons, and nobody else', async () => {
    const coupon = await createCoupon({
      p_tier: 'free',
      p_max_redemptions: 5,
      p_code: 'welcome-1',
    });
    expect(coupon).toMatchObject({ code: 'WELCOME-1', tier: 'free', redeemed_count: 0 });
    const generated = await createCoupon({ p_tier: 'free', p_max_redemptions: 1 });
    expect(generated.code).toMatch(/^LYC-[0-9A-F]{6}-[0-9A-F]{6}$/);

    const listed = await admin.from('coupons').select('code');
    expect(listed.data!.map((c) => c.code)).toEqual(
      expect.arrayContaining(['WELCOME-1', generated.code]),
    );

    const taken = await admin.rpc('create_coupon', {
      p_tier: 'free',
      p_max_redemptions: 1,
      p_code: 'Welcome-1',
    });
    expect(taken.error?.message).toBe('The code WELCOME-1 is already taken.');
    const badTier = await admin.rpc('create_coupon', { p_tier: 'gold', p_max_redemptions: 1 });
    expect(badTier.error?.message).toBe('There is no tier "gold".');
    const badCount = await admin.rpc('create_coupon', { p_tier: 'free', p_max_redemptions: 0 });
    expect(badCount.error?.message).toBe('Maximum redemptions must be between 1 and 1,000,000.');

    for (const client of [learner, server.anon()]) {
      const made = await client.rpc('create_coupon', { p_tier: 'pro', p_max_redemptions: 100 });
      expect(made.error).not.toBeNull();
      const read = await client.from('coupons').select('code');
      expect(read.data ?? []).toEqual([]);
      const revoked = await client.rpc('revoke_coupon', { p_coupon: coupon.id });
      expect(revoked.error).not.toBeNull();
    }
    const { rows } = await server.deps.db.query<{ n: number }>(
      "select count(*)::int as n from public.coupons where tier = 'pro'",
    );
    expect(rows[0]!.n).toBe(0);
    expect((await couponRow(coupon.id)).revoked_at).toBeNull();

    const revoked = await admin.rpc('revoke_coupon', { p_coupon: generated.id });
    expect(revoked.error).toBeNull();
    expect((await couponRow(generated.id)).revoked_at).not.toBeNull();
  });

  it('refuses a sign-up without a coupon while the gate is on, creating nothing', async () => {
    const email = `${unique('no-coupon')}@example.com`;
    const { error } = await signUp(email);
    expect(error).toMatchObject({ status: 403, code: 'coupon_required' });
    expect(error!.message).toBe(
      'Lyceum is in its beta: signing up needs a coupon. Enter the coupon code you were given.',
    );
    expect(await accountExists(email)).toBe(false);
  });

  it('admits a sign-up with the coupon in any case and counts the redemption once', async () => {
    const coupon = await createCoupon({
      p_tier: 'free',
      p_max_redemptions: 3,
      p_code: 'CaseMix-2026',
    });
    const email = `${unique('admitted')}@example.com`;
    const { data, error } = await signUp(email, ' casemix-2026 ');
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    // The code is not kept in the account's metadata; the redemption is recorded instead.
    expect(data.user!.user_metadata).toEqual({ full_name: 'New Learner' });
    expect((await couponRow(coupon.id)).redeemed_count).toBe(1);
    const mine = await testClient(server, server.anonKey, data.session!.access_token)
      .from('coupon_redemptions')
      .select('coupon_id, purpose');
    expect(mine.data).toEqual([{ coupon_id: coupon.id, purpose: 'sign_up' }]);
  });

  it("grants a 100 % coupon's tier and its organization's membership", async () => {
    const org = await service
      .from('organizations')
      .insert({ name: 'Coupon University', slug: unique('coupon-uni').toLowerCase() })
      .select('id')
      .single();
    expect(org.error).toBeNull();
    await createCoupon({
      p_tier: 'pro',
      p_max_redemptions: 2,
      p_code: 'PRO-PILOT',
      p_organization_id: org.data!.id,
    });
    const { data, error } = await signUp(`${unique('pro')}@example.com`, 'pro-pilot');
    expect(error).toBeNull();
    const client = testClient(server, server.anonKey, data.session!.access_token);
    const quota = await client.from('user_quotas').select('tier, monthly_limit');
    expect(quota.data).toEqual([{ tier: 'pro', monthly_limit: 5000 }]);
    const subscription = await client.from('subscribers').select('tier, status, source');
    expect(subscription.data).toEqual([{ tier: 'pro', status: 'active', source: 'coupon' }]);
    const membership = await client
      .from('memberships')
      .select('organization_id, role, active')
      .eq('user_id', data.user!.id);
    expect(membership.data).toEqual([
      { organization_id: org.data!.id, role: 'learner', active: true },
    ]);
  });

  it('finds organizations by name for platform admins only, and moves a coupon to another', async () => {
    const name = `Picker ${unique('u')}`;
    const [first, second] = await Promise.all(
      ['north', 'south'].map(async (side) => {
        const row = await service
          .from('organizations')
          .insert({ name: `${name} ${side}`, slug: unique(`picker-${side}`).toLowerCase() })
          .select('id, name')
          .single();
        expect(row.error).toBeNull();
        return row.data as { id: string; name: string };
      }),
    );
    const found = await admin.rpc('coupon_organizations', { p_search: name.toLowerCase() });
    expect(found.error).toBeNull();
    expect((found.data as { name: string }[]).map((o) => o.name)).toEqual([
      `${name} north`,
      `${name} south`,
    ]);
    const byId = await admin.rpc('coupon_organizations', { p_ids: [second!.id] });
    expect(byId.data).toEqual([expect.objectContaining({ id: second!.id, name: second!.name })]);
    const notAdmin = await learner.rpc('coupon_organizations', { p_search: name });
    expect(notAdmin.error?.code).toBe('42501');

    const coupon = await createCoupon({
      p_tier: 'free',
      p_max_redemptions: 3,
      p_code: unique('ORG-MOVE').toUpperCase(),
      p_organization_id: first!.id,
    });
    const joinedFirst = await signUp(`${unique('first')}@example.com`, coupon.code);
    expect(joinedFirst.error).toBeNull();

    const moved = await admin.rpc('update_coupon', {
      p_coupon: coupon.id,
      p_max_redemptions: 5,
      p_expires_at: null,
      p_organization_id: second!.id,
    });
    expect(moved.error).toBeNull();
    expect(moved.data).toMatchObject({ organization_id: second!.id, max_redemptions: 5 });
    const joinedSecond = await signUp(`${unique('second')}@example.com`, coupon.code);
    expect(joinedSecond.error).toBeNull();
    const { rows } = await server.deps.db.query<{ user_id: string; organization_id: string }>(
      `select user_id, organization_id from public.memberships
        where user_id = any($1::uuid[]) and role = 'learner' order by organization_id = $2 desc`,
      [[joinedFirst.data.user!.id, joinedSecond.data.user!.id], first!.id],
    );
    expect(rows).toEqual([
      { user_id: joinedFirst.data.user!.id, organization_id: first!.id },
      { user_id: joinedSecond.data.user!.id, organization_id: second!.id },
    ]);

    // Refused, saying why, and nothing changes.
    const below = await admin.rpc('update_coupon', {
      p_coupon: coupon.id,
      p_max_redemptions: 1,
      p_organization_id: second!.id,
    });
    expect(below.error?.message).toBe(
      `2 people have already redeemed ${coupon.code}; the maximum cannot be lower.`,
    );
    const nowhere = await admin.rpc('update_coupon', {
      p_coupon: coupon.id,
      p_max_redemptions: 5,
      p_organization_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(nowhere.error?.message).toBe('There is no such organization.');
    const byLearner = await learner.rpc('update_coupon', {
      p_coupon: coupon.id,
      p_max_redemptions: 50,
      p_organization_id: null,
    });
    expect(byLearner.error?.code).toBe('42501');
    await admin.rpc('revoke_coupon', { p_coupon: coupon.id });
    const revoked = await admin.rpc('update_coupon', {
      p_coupon: coupon.id,
      p_max_redemptions: 9,
      p_organization_id: second!.id,
    });
    expect(revoked.error?.message).toBe(
      `The coupon ${coupon.code} is revoked; create a new one instead.`,
    );
    expect(await couponRow(coupon.id)).toMatchObject({ max_redemptions: 5, redeemed_count: 2 });
  });

  it('refuses used-up, expired, revoked and unknown coupons saying which, changing nothing', async () => {
    const usedUp = await createCoupon({
      p_tier: 'free',
      p_max_redemptions: 1,
      p_code: 'ONCE-ONLY',
    });
    expect((await signUp(`${unique('first')}@example.com`, 'once-only')).error).toBeNull();
    const expired = await createCoupon({
      p_tier: 'free',
      p_max_redemptions: 5,
      p_code: 'OLD-NEWS',
      p_expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await server.deps.db.query(
      "update public.coupons set expires_at = '2026-01-31T12:00:00Z' where id = $1",
      [expired.id],
    );
    const revoked = await createCoupon({ p_tier: 'free', p_max_redemptions: 5, p_code: 'PULLED' });
    await admin.rpc('revoke_coupon', { p_coupon: revoked.id });

    const cases = [
      {
        code: 'once-only',
        error: 'coupon_used_up',
        message:
          'The coupon ONCE-ONLY has been used the most times it allows (1). Ask whoever gave it to you for a new one.',
      },
      {
        code: 'old-news',
        error: 'coupon_expired',
        message:
          'The coupon OLD-NEWS expired on Sat, 31 Jan 2026 12:00:00 UTC. Ask whoever gave it to you for a new one.',
      },
      {
        code: 'pulled',
        error: 'coupon_revoked',
        message:
          'The coupon PULLED has been withdrawn and can no longer be used. Ask whoever gave it to you for a new one.',
      },
      {
        code: 'no-such-code',
        error: 'coupon_unknown',
        message:
          'The coupon NO-SUCH-CODE does not exist. Check the code you were given (letters, digits and hyphens; upper or lower case).',
      },
    ];
    for (const attempt of cases) {
      const email = `${unique('refused')}@example.com`;
      const { error } = await signUp(email, attempt.code);
      expect(error, attempt.code).toMatchObject({ status: 403, code: attempt.error });
      expect(error!.message).toBe(attempt.message);
      expect(await accountExists(email)).toBe(false);
    }
    expect((await couponRow(usedUp.id)).redeemed_count).toBe(1);
    expect((await couponRow(expired.id)).redeemed_count).toBe(0);
    expect((await couponRow(revoked.id)).redeemed_count).toBe(0);
  });

  it('gives the last redemption to exactly one of two people signing up at once', async () => {
    const coupon = await createCoupon({
      p_tier: 'free',
      p_max_redemptions: 2,
      p_code: 'LAST-SEAT',
    });
    expect((await signUp(`${unique('early')}@example.com`, 'last-seat')).error).toBeNull();
    const emails = [`${unique('racer-a')}@example.com`, `${unique('racer-b')}@example.com`];
    const results = await Promise.all(emails.map((email) => signUp(email, 'last-seat')));
    const winners = results.filter((r) => r.error === null);
    const losers = results.filter((r) => r.error !== null);
    expect(winners).toHaveLength(1);
    expect(losers.map((r) => r.error!.code)).toEqual(['coupon_used_up']);
    expect((await couponRow(coupon.id)).redeemed_count).toBe(2);
    const existing = await Promise.all(emails.map(accountExists));
    expect(existing.filter(Boolean)).toHaveLength(1);
  });

  it('never redeems more than the allowed number under many concurrent sign-ups', async () => {
    const coupon = await createCoupon({ p_tier: 'free', p_max_redemptions: 3, p_code: 'CROWD-3' });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        signUp(`${unique(`crowd-${i}`)}@example.com`, 'crowd-3'),
      ),
    );
    expect(results.filter((r) => r.error === null)).toHaveLength(3);
    expect(new Set(results.filter((r) => r.error).map((r) => r.error!.code))).toEqual(
      new Set(['coupon_used_up']),
    );
    expect((await couponRow(coupon.id)).redeemed_count).toBe(3);
  });

  it('lets the service role create users without a coupon', async () => {
    const email = `${unique('admin-made')}@example.com`;
    const { error } = await service.auth.admin.createUser({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(await accountExists(email)).toBe(true);
  });
});

describe.each(databaseKinds)('coupon guessing on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, {
      BETA_GATE: 'true',
      MAILER_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      COUPON_ATTEMPTS_PER_10_MINUTES: '5',
    });
    await server.deps.db.query(
      "insert into public.coupons (code, tier, max_redemptions) values ('REAL-CODE-1', 'free', 10)",
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 429 with Retry-After once an address has tried its allowance, even for a real code', async () => {
    const anon = server.anon();
    const codes: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const { error } = await anon.auth.signUp({
        email: `${unique('guess')}@example.com`,
        password: PASSWORD,
        options: { data: { coupon: `GUESS-${i}` } },
      });
      codes.push(error!.code!);
    }
    expect(codes).toEqual(Array(5).fill('coupon_unknown'));

    const response = await fetch(`${server.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `${unique('lucky')}@example.com`,
        password: PASSWORD,
        data: { coupon: 'real-code-1' },
      }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('over_request_rate_limit');
    expect(body.message).toMatch(
      /^Too many coupon codes tried from this address: at most 5 per 10 minutes\. Try again in \d+ s\.$/,
    );
    const { rows } = await server.deps.db.query<{ redeemed_count: number }>(
      "select redeemed_count from public.coupons where code = 'REAL-CODE-1'",
    );
    expect(rows[0]!.redeemed_count).toBe(0);
  });
});
