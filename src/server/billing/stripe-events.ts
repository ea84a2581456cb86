/**
 * Stripe's webhook events applied to `subscribers` (decision 0602), each at most once: the
 * event id goes into billing.stripe_events in the same transaction as its changes, so a
 * redelivered event changes nothing and a failed one is applied when Stripe retries it.
 *
 *   checkout.session.completed      the subscription starts (its tier from the session's metadata)
 *   invoice.paid                    a renewal: active again, the new period end
 *   invoice.payment_failed          past_due: the tier stops covering until a payment succeeds
 *   customer.subscription.updated   Stripe's status and period end
 *   customer.subscription.deleted   canceled
 */
import type Stripe from 'stripe';
import type { Database, Queryable } from '../db/types';
import type { Logger } from '../logger';
import { putSubscription, updateStripeSubscription, type Subscriber } from './subscriptions';

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** The end of the subscription's current period (on its items since Stripe's 2025 API). */
function periodEnd(subscription: Stripe.Subscription): Date | null {
  const ends = subscription.items.data.map((item) => item.current_period_end);
  return ends.length ? new Date(Math.min(...ends) * 1000) : null;
}

function subscriberFrom(metadata: Record<string, string> | null | undefined): Subscriber | null {
  if (metadata?.organization_id) return { organizationId: metadata.organization_id };
  if (metadata?.user_id) return { userId: metadata.user_id };
  return null;
}

async function knownTier(db: Queryable, tier: string | undefined): Promise<string | undefined> {
  if (!tier) return undefined;
  const { rows } = await db.query('select 1 from public.tiers where id = $1', [tier]);
  return rows.length ? tier : undefined;
}

/** Counts a discount coupon used at checkout, if a redemption is left; never fails the event. */
async function countCoupon(tx: Queryable, couponId: string, userId: string): Promise<void> {
  const { rowCount } = await tx.query(
    `update public.coupons set redeemed_count = redeemed_count + 1
      where id = $1 and redeemed_count < max_redemptions
        and not exists (select 1 from public.coupon_redemptions r
                         where r.coupon_id = $1 and r.user_id = $2)`,
    [couponId, userId],
  );
  if (rowCount > 0)
    await tx.query(
      `insert into public.coupon_redemptions (coupon_id, user_id, purpose)
       values ($1, $2, 'checkout') on conflict do nothing`,
      [couponId, userId],
    );
}

/**
 * What the event needs from Stripe besides itself, fetched before the transaction (a network
 * call must not hold database locks): the subscription a completed checkout started.
 */
async function fetchContext(
  stripe: Stripe,
  event: Stripe.Event,
): Promise<{ subscription?: Stripe.Subscription }> {
  if (event.type !== 'checkout.session.completed') return {};
  const id = idOf(event.data.object.subscription);
  return id ? { subscription: await stripe.subscriptions.retrieve(id) } : {};
}

function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription);
}

function invoicePeriodEnd(invoice: Stripe.Invoice): Date | null {
  const ends = invoice.lines.data.map((line) => line.period.end);
  return ends.length ? new Date(Math.max(...ends) * 1000) : null;
}

export async function applyStripeEvent(
  deps: { db: Database; log: Logger },
  stripe: Stripe,
  event: Stripe.Event,
): Promise<EventOutcome> {
  const context = await fetchContext(stripe, event);
  return deps.db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      'insert into billing.stripe_events (id, type) values ($1, $2) on conflict (id) do nothing',
      [event.id, event.type],
    );
    if (rowCount === 0) return 'duplicate';

    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        const who = subscriberFrom(session.metadata);
        const tier = await knownTier(tx, session.metadata?.tier);
        if (session.mode !== 'subscription' || !who || !tier || !context.subscription) {
          deps.log.warn('stripe checkout without a Lyceum subscription', { event: event.id });
          return 'ignored';
        }
        await putSubscription(tx, who, {
          tier,
          status: context.subscription.status,
          source: 'stripe',
          stripeCustomerId: idOf(session.customer),
          stripeSubscriptionId: context.subscription.id,
          couponId: session.metadata?.coupon_id ?? null,
          currentPeriodEnd: periodEnd(context.subscription),
        });
        if (session.metadata?.coupon_id && session.metadata.user_id)
          await countCoupon(tx, session.metadata.coupon_id, session.metadata.user_id);
        return 'applied';
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const subscription = invoiceSubscription(invoice);
        if (!subscription) return 'ignored';
        const paid = event.type === 'invoice.paid';
        const found = await updateStripeSubscription(tx, subscription, {
          status: paid ? 'active' : 'past_due',
          ...(paid ? { currentPeriodEnd: invoicePeriodEnd(invoice) } : {}),
        });
        return found ? 'applied' : 'ignored';
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        const found = await updateStripeSubscription(tx, subscription.id, {
          status: event.type === 'customer.subscription.deleted' ? 'canceled' : subscription.status,
          tier: await knownTier(tx, subscription.metadata?.tier),
          currentPeriodEnd: periodEnd(subscription),
        });
        return found ? 'applied' : 'ignored';
      }
      default:
        return 'ignored';
    }
  });
}
