/**
 * Checkout, the Stripe webhook and check-subscription against a loopback fake Stripe, on
 * PGlite and PostgreSQL: a person's and an organization's checkout sessions, a discount coupon
 * as the session's promotion code and a 100 % coupon activating the tier without Stripe,
 * check-subscription (and the quotas) after each event — checkout completed, renewal, payment
 * failure, renewal, cancellation — a duplicate event changing nothing, forged events (bad
 * signature, old timestamp, altered body, no header) refused, and checkout without Stripe
 * configured saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { unique } from '../support/service-rows';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const PASSWORD = 'checkout-test-password-1';

interface Person {
  id: string;
  token: string;
  client: SupabaseClient;
}

async function person(server: TestServer, label: string): Promise<Person> {
  const email = `${unique(label)}@example.com`;
  const { data, error } = await server.service().auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (error) throw error;
  const signIn = await testClient(server, server.anonKey).auth.signInWithPassword({
    email,
    password: PASSWORD,
  });
  if (signIn.error) throw signIn.error;
  const token = signIn.data.session!.access_token;
  return { id: data.user.id, token, client: testClient(server, server.anonKey, token) };
}

async function call(
  server: TestServer,
  who: Person | null,
  name: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/functions/v1/${name}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      apikey: server.anonKey,
      ...(who ? { authorization: `Bearer ${who.token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(databaseKinds)('checkout and subscriptions on %s', (kind) => {
  let server: TestServer;
  let stripe: FakeStripe;
  let webhook: string;
  let buyer: Person;

  const subscription = async (who: Person) => (await call(server, who, 'check-subscription')).body;
  const coachLimit = async (who: Person) => {
    const { data } = await who.client.from('user_quotas').select('tier, monthly_limit');
    return data;
  };
  const processedEvents = async () =>
    (
      await server.deps.db.query<{ n: number }>(
        'select count(*)::int as n from billing.stripe_events',
      )
    ).rows[0]!.n;
  const subscriberRows = async () =>
    (
      await server.deps.db.query(
        'select user_id, organization_id, tier, status, current_period_end, updated_at from public.subscribers order by created_at',
      )
    ).rows;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    server = await startTestServer(kind, {
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_API_BASE: stripe.url,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    });
    webhook = `${server.url}/functions/v1/stripe-webhook`;
    buyer = await person(server, 'buyer');
  });
  afterAll(async () => {
    await server?.stop();
    await stripe?.close();
  });

  it('tells a new account it is on the free tier with its allowances', async () => {
    expect(await subscription(buyer)).toEqual({
      tier: { id: 'free', name: 'Free' },
      status: 'none',
      source: 'none',
      organization: null,
      current_period_end: null,
      own: null,
      allowances: { coach_message: 500 },
    });
  });

  it('follows a Pro subscription through checkout, renewal, failed payment and cancellation', async () => {
    const started = await call(server, buyer, 'create-checkout', { tier: 'pro' });
    expect(started.status).toBe(200);
    const session = stripe.sessions.at(-1)!;
    expect(started.body).toEqual({
      configured: true,
      activated: false,
      url: session.url,
      session_id: session.id,
    });
    expect(session.mode).toBe('subscription');
    expect(session.params).toMatchObject({
      'line_items[0][price_data][unit_amount]': '900',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][recurring][interval]': 'month',
      'metadata[tier]': 'pro',
      'metadata[user_id]': buyer.id,
      'subscription_data[metadata][tier]': 'pro',
    });
    expect(session.success_url).toBe(`${server.url}/app/settings?checkout=success`);
    // Nothing changes until Stripe says the checkout completed.
    expect((await subscription(buyer)).tier).toEqual({ id: 'free', name: 'Free' });

    const firstEnd = new Date(Date.now() + 30 * 86400_000);
    const completed = stripe.completeCheckout(session.id, firstEnd);
    const delivered = await stripe.deliver(webhook, completed);
    expect(delivered.status).toBe(200);
    expect(await delivered.json()).toEqual({
      received: true,
      duplicate: false,
      outcome: 'applied',
    });
    const afterCheckout = await subscription(buyer);
    expect(afterCheckout).toMatchObject({
      tier: { id: 'pro', name: 'Pro' },
      status: 'active',
      source: 'personal',
      allowances: { coach_message: 5000 },
    });
    expect(new Date(afterCheckout.current_period_end as string).getTime()).toBe(
      Math.floor(firstEnd.getTime() / 1000) * 1000,
    );
    expect(await coachLimit(buyer)).toEqual([{ tier: 'pro', monthly_limit: 5000 }]);

    // The same event again (Stripe retries): acknowledged, nothing changed.
    const before = await subscriberRows();
    const events = await processedEvents();
    const again = await stripe.deliver(webhook, completed);
    expect(await again.json()).toEqual({ received: true, duplicate: true, outcome: 'duplicate' });
    expect(await subscriberRows()).toEqual(before);
    expect(await processedEvents()).toBe(events);

    const subscriptionId = stripe.sessions.at(-1)!.subscription!;
    const secondEnd = new Date(Date.now() + 60 * 86400_000);
    expect((await stripe.deliver(webhook, stripe.renew(subscriptionId, secondEnd))).status).toBe(
      200,
    );
    const renewed = await subscription(buyer);
    expect(renewed).toMatchObject({ tier: { id: 'pro' }, status: 'active' });
    expect(new Date(renewed.current_period_end as string).getTime()).toBe(
      Math.floor(secondEnd.getTime() / 1000) * 1000,
    );

    await stripe.deliver(webhook, stripe.failPayment(subscriptionId));
    expect(await subscription(buyer)).toMatchObject({
      tier: { id: 'free' },
      status: 'none',
      source: 'none',
      own: { tier: 'pro', status: 'past_due' },
    });
    expect(await coachLimit(buyer)).toEqual([{ tier: 'free', monthly_limit: 500 }]);

    await stripe.deliver(webhook, stripe.renew(subscriptionId, secondEnd));
    expect(await subscription(buyer)).toMatchObject({ tier: { id: 'pro' }, status: 'active' });
    expect(await coachLimit(buyer)).toEqual([{ tier: 'pro', monthly_limit: 5000 }]);

    await stripe.deliver(webhook, stripe.cancel(subscriptionId));
    expect(await subscription(buyer)).toMatchObject({
      tier: { id: 'free' },
      own: { tier: 'pro', status: 'canceled' },
    });
    expect(await coachLimit(buyer)).toEqual([{ tier: 'free', monthly_limit: 500 }]);
  });

  it('refuses forged, replayed-late and altered events, changing nothing', async () => {
    const someone = await person(server, 'forged');
    await call(server, someone, 'create-checkout', { tier: 'pro' });
    const completed = stripe.completeCheckout(stripe.sessions.at(-1)!.id);
    const before = await subscriberRows();
    const events = await processedEvents();

    const wrongSecret = await stripe.deliver(webhook, completed, { secret: 'whsec_not_ours' });
    expect(wrongSecret.status).toBe(400);
    expect(await wrongSecret.json()).toMatchObject({ code: 'invalid_signature' });
    const late = await stripe.deliver(webhook, completed, {
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(late.status).toBe(400);
    expect(((await late.json()) as { error: string }).error).toMatch(/tolerance/i);
    const altered = await stripe.deliver(webhook, completed, {
      tamper: (payload) => payload.replace('"pro"', '"enterprise"'),
    });
    expect(altered.status).toBe(400);
    const unsigned = await fetch(webhook, { method: 'POST', body: JSON.stringify(completed) });
    expect(unsigned.status).toBe(400);

    expect(await subscriberRows()).toEqual(before);
    expect(await processedEvents()).toBe(events);
    expect((await subscription(someone)).tier).toEqual({ id: 'free', name: 'Free' });
  });

  it('subscribes an organization for its members, and only its admins may', async () => {
    const owner = await person(server, 'owner');
    const member = await person(server, 'member');
    const service = server.service();
    const org = await service
      .from('organizations')
      .insert({
        name: 'Paying University',
        slug: unique('paying').toLowerCase(),
        owner_id: owner.id,
      })
      .select('id')
      .single();
    expect(org.error).toBeNull();
    const orgId = (org.data as { id: string }).id;
    const joined = await service
      .from('memberships')
      .insert({ user_id: member.id, organization_id: orgId, role: 'learner' });
    expect(joined.error).toBeNull();

    const refused = await call(server, member, 'create-checkout', {
      tier: 'enterprise',
      organization_id: orgId,
    });
    expect(refused).toEqual({
      status: 403,
      body: {
        code: 'not_organization_admin',
        error: "Only the organization's owner or an organization-wide admin can subscribe it.",
      },
    });
    const noOrg = await call(server, owner, 'create-checkout', { tier: 'enterprise' });
    expect(noOrg.status).toBe(400);
    expect(noOrg.body.code).toBe('organization_required');

    const started = await call(server, owner, 'create-checkout', {
      tier: 'enterprise',
      organization_id: orgId,
    });
    expect(started.status).toBe(200);
    const session = stripe.sessions.at(-1)!;
    expect(session.metadata).toMatchObject({ tier: 'enterprise', organization_id: orgId });
    await stripe.deliver(webhook, stripe.completeCheckout(session.id));

    expect(await subscription(member)).toMatchObject({
      tier: { id: 'enterprise', name: 'Enterprise' },
      status: 'active',
      source: 'organization',
      organization: { id: orgId, name: 'Paying University' },
    });
    expect(await coachLimit(member)).toEqual([{ tier: 'enterprise', monthly_limit: 20000 }]);
    const { data } = await owner.client.from('organizations').select('tier').eq('id', orgId);
    expect(data).toEqual([{ tier: 'enterprise' }]);
    // The organization's subscription is its admins' to see, not its learners'.
    expect((await member.client.from('subscribers').select('tier')).data).toEqual([]);
    expect((await owner.client.from('subscribers').select('tier')).data).toEqual([
      { tier: 'enterprise' },
    ]);
  });

  it('applies coupons: a promotion code to the session, a 100 % coupon without Stripe', async () => {
    await server.deps.db.query(
      `insert into public.coupons (code, tier, percent_off, stripe_promotion_code, max_redemptions)
       values ('PRO-20', 'pro', 20, 'promo_fake20', 10), ('PRO-FREE', 'pro', 100, null, 1)`,
    );
    const discounted = await person(server, 'discount');
    const started = await call(server, discounted, 'create-checkout', {
      tier: 'pro',
      coupon: 'pro-20',
    });
    expect(started.status).toBe(200);
    expect(stripe.sessions.at(-1)!.params['discounts[0][promotion_code]']).toBe('promo_fake20');

    const sessionsBefore = stripe.sessions.length;
    const lucky = await person(server, 'lucky');
    const activated = await call(server, lucky, 'create-checkout', {
      tier: 'pro',
      coupon: 'Pro-Free',
    });
    expect(activated).toEqual({
      status: 200,
      body: { configured: true, activated: true, tier: 'pro' },
    });
    expect(stripe.sessions.length).toBe(sessionsBefore);
    expect(await subscription(lucky)).toMatchObject({
      tier: { id: 'pro' },
      status: 'active',
      source: 'personal',
    });

    const late = await person(server, 'late');
    const usedUp = await call(server, late, 'create-checkout', { tier: 'pro', coupon: 'PRO-FREE' });
    expect(usedUp.status).toBe(403);
    expect(usedUp.body.code).toBe('coupon_used_up');
    await server.deps.db.query(
      "insert into public.coupons (code, tier, max_redemptions) values ('ENT-ONLY', 'enterprise', 5)",
    );
    const otherTier = await call(server, late, 'create-checkout', {
      tier: 'pro',
      coupon: 'ent-only',
    });
    expect(otherTier).toEqual({
      status: 400,
      body: {
        code: 'coupon_other_tier',
        error: 'The coupon ENT-ONLY is for the enterprise tier, not Pro.',
      },
    });
    expect((await subscription(late)).tier).toEqual({ id: 'free', name: 'Free' });
  });

  it('refuses what cannot be bought, and callers without a session', async () => {
    expect((await call(server, buyer, 'create-checkout', { tier: 'gold' })).status).toBe(404);
    const free = await call(server, buyer, 'create-checkout', { tier: 'free' });
    expect(free).toEqual({
      status: 400,
      body: { code: 'not_for_sale', error: 'The Free tier is not bought: every account has it.' },
    });
    const malformed = await call(server, buyer, 'create-checkout', { tier: 'Pro!' });
    expect(malformed.status).toBe(400);
    expect((await call(server, null, 'create-checkout', { tier: 'pro' })).status).toBe(401);
    expect((await call(server, null, 'check-subscription')).status).toBe(401);
  });
});

describe.each(databaseKinds)('checkout without Stripe configured on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('says payments are not configured, and tells platform admins how to set them up', async () => {
    const learner = await person(server, 'unpaid');
    expect(await call(server, learner, 'create-checkout', { tier: 'pro' })).toEqual({
      status: 200,
      body: {
        configured: false,
        message:
          'Payments are not configured on this server, so nothing can be charged. Ask its administrator to set up Stripe.',
      },
    });
    const admin = await person(server, 'operator');
    await server.deps.db.query(
      "insert into public.user_roles (user_id, role) values ($1, 'admin')",
      [admin.id],
    );
    const told = await call(server, admin, 'create-checkout', { tier: 'pro' });
    expect(told.body.setup).toMatch(/^Set STRIPE_SECRET_KEY .* then restart the server\.$/);
    const hook = await fetch(`${server.url}/functions/v1/stripe-webhook`, {
      method: 'POST',
      body: '{}',
    });
    expect(hook.status).toBe(503);
    expect((await subscription(learner)).tier).toEqual({ id: 'free', name: 'Free' });

    async function subscription(who: Person) {
      return (await call(server, who, 'check-subscription')).body;
    }
  });
});
