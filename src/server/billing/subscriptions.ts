/**
 * Subscriptions (decision 0600): who is covered by which tier, and the writes the checkout and
 * the Stripe webhook make. Writing `subscribers` is enough: the database's trigger applies the
 * tier's allowances to everyone the row covers.
 */
import type { Queryable } from '../db/types';

export interface Tier {
  id: string;
  name: string;
  audience: 'individual' | 'organization';
  monthly_price_cents: number | null;
  currency: string;
  stripe_price_id: string | null;
}

export interface SubscriberRow {
  id: string;
  user_id: string | null;
  organization_id: string | null;
  tier: string;
  status: string;
  source: 'stripe' | 'coupon';
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  current_period_end: string | null;
}

/** Whom a subscription is for: one person, or an organization for all its members. */
export type Subscriber = { userId: string } | { organizationId: string };

export async function findTier(db: Queryable, id: string): Promise<Tier | undefined> {
  const { rows } = await db.query<Tier & Record<string, unknown>>(
    `select id, name, audience, monthly_price_cents, currency, stripe_price_id
       from public.tiers where id = $1`,
    [id],
  );
  return rows[0];
}

export async function findSubscriber(
  db: Queryable,
  who: Subscriber,
): Promise<SubscriberRow | undefined> {
  const { rows } = await db.query<SubscriberRow & Record<string, unknown>>(
    'userId' in who
      ? 'select * from public.subscribers where user_id = $1'
      : 'select * from public.subscribers where organization_id = $1',
    ['userId' in who ? who.userId : who.organizationId],
  );
  return rows[0];
}

export interface SubscriptionChange {
  tier: string;
  status: string;
  source: 'stripe' | 'coupon';
  stripeCustomerId?: string | null;
  stripeSubscriptionId?: string | null;
  couponId?: string | null;
  currentPeriodEnd?: Date | null;
}

/** Creates or replaces the subscriber's one subscription. */
export async function putSubscription(
  db: Queryable,
  who: Subscriber,
  change: SubscriptionChange,
): Promise<void> {
  const column = 'userId' in who ? 'user_id' : 'organization_id';
  await db.query(
    `insert into public.subscribers
       (${column}, tier, status, source, stripe_customer_id, stripe_subscription_id, coupon_id,
        current_period_end)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (${column}) do update
        set tier = excluded.tier, status = excluded.status, source = excluded.source,
            stripe_customer_id = coalesce(excluded.stripe_customer_id, public.subscribers.stripe_customer_id),
            stripe_subscription_id = excluded.stripe_subscription_id,
            coupon_id = excluded.coupon_id,
            current_period_end = excluded.current_period_end, updated_at = now()`,
    [
      'userId' in who ? who.userId : who.organizationId,
      change.tier,
      change.status,
      change.source,
      change.stripeCustomerId ?? null,
      change.stripeSubscriptionId ?? null,
      change.couponId ?? null,
      change.currentPeriodEnd ?? null,
    ],
  );
}

/**
 * Updates the subscription Stripe knows by this id (renewal, failed payment, cancellation);
 * answers whether there was one. Fields left undefined keep their value.
 */
export async function updateStripeSubscription(
  db: Queryable,
  stripeSubscriptionId: string,
  change: { status: string; tier?: string; currentPeriodEnd?: Date | null },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update public.subscribers
        set status = $2,
            tier = coalesce($3, tier),
            current_period_end = case when $4::boolean then $5::timestamptz else current_period_end end,
            updated_at = now()
      where stripe_subscription_id = $1`,
    [
      stripeSubscriptionId,
      change.status,
      change.tier ?? null,
      change.currentPeriodEnd !== undefined,
      change.currentPeriodEnd ?? null,
    ],
  );
  return rowCount > 0;
}

export interface SubscriptionStatus {
  /** The tier that covers the person now (free when nothing does). */
  tier: { id: string; name: string };
  /** The covering subscription's status, or `none` on the free tier. */
  status: string;
  /** Whose subscription covers them: their own, an organization's, or none. */
  source: 'personal' | 'organization' | 'none';
  organization: { id: string; name: string } | null;
  current_period_end: string | null;
  /** Their own subscription when it is not the one in force (e.g. `past_due` after a failed payment). */
  own: { tier: string; status: string; current_period_end: string | null } | null;
  /** This month's allowances of the tier in force, e.g. { coach_message: 500 }. */
  allowances: Record<string, number>;
}

/** What check-subscription answers for a person. */
export async function subscriptionStatus(
  db: Queryable,
  userId: string,
): Promise<SubscriptionStatus> {
  const { rows } = await db.query<{
    covering: SubscriberRow | null;
    own: SubscriberRow | null;
    tier_id: string;
    tier_name: string;
    organization_name: string | null;
    allowances: Record<string, number>;
  }>(
    `with covering as (
       select c.* from billing.covering_subscription($1) c where c.id is not null
     )
     select (select to_jsonb(c) from covering c) as covering,
            (select to_jsonb(s) from public.subscribers s where s.user_id = $1) as own,
            t.id as tier_id, t.name as tier_name,
            (select o.name from public.organizations o, covering c where o.id = c.organization_id)
              as organization_name,
            p.allowances
       from public.tiers t
       join public.pricing_tiers p on p.id = t.id
      where t.id = coalesce((select c.tier from covering c), 'free')`,
    [userId],
  );
  const row = rows[0]!;
  const covering = row.covering;
  return {
    tier: { id: row.tier_id, name: row.tier_name },
    status: covering?.status ?? 'none',
    source: !covering ? 'none' : covering.user_id ? 'personal' : 'organization',
    organization:
      covering?.organization_id && row.organization_name
        ? { id: covering.organization_id, name: row.organization_name }
        : null,
    current_period_end: covering?.current_period_end ?? null,
    own:
      row.own && row.own.id !== covering?.id
        ? {
            tier: row.own.tier,
            status: row.own.status,
            current_period_end: row.own.current_period_end,
          }
        : null,
    allowances: row.allowances,
  };
}
