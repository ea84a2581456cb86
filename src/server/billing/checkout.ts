/**
 * Checkout (decision 0602): a Stripe Checkout session for a tier, for the caller or for an
 * organization they administer, with a coupon applied: a coupon mapped to a Stripe promotion
 * code becomes the session's discount; a 100 % coupon activates the tier at once, with no
 * payment and no Stripe at all.
 */
import type Stripe from 'stripe';
import type { Database } from '../db/types';
import { checkCoupon, redeemCoupon, type CouponOutcome } from './coupons';
import {
  findSubscriber,
  findTier,
  putSubscription,
  type Subscriber,
  type Tier,
} from './subscriptions';

export class CheckoutError extends Error {
  constructor(
    public readonly status: 400 | 403 | 404 | 409,
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CheckoutError';
  }
}

export interface CheckoutRequest {
  userId: string;
  email: string | undefined;
  tier: string;
  organizationId?: string;
  coupon?: string;
  /** Where Stripe sends the buyer back: `${returnUrl}?checkout=success|cancelled`. */
  returnUrl: string;
}

export type CheckoutResult =
  | { kind: 'activated'; tier: string }
  | { kind: 'session'; url: string; sessionId: string }
  | { kind: 'not_configured' };

/** The tier, whom it is for, and the coupon, checked before anything is written or sent. */
async function prepare(db: Database, request: CheckoutRequest) {
  const tier = await findTier(db, request.tier);
  if (!tier) throw new CheckoutError(404, 'unknown_tier', `There is no tier "${request.tier}".`);
  if (tier.monthly_price_cents === null && tier.stripe_price_id === null)
    throw new CheckoutError(
      400,
      'not_for_sale',
      `The ${tier.name} tier is not bought: every account has it.`,
    );
  let who: Subscriber;
  if (tier.audience === 'organization') {
    if (!request.organizationId)
      throw new CheckoutError(
        400,
        'organization_required',
        `The ${tier.name} tier is for an organization: name the organization (organization_id).`,
      );
    const { rows } = await db.query<{ admin: boolean }>(
      'select learning.is_org_admin($1, $2) as admin',
      [request.userId, request.organizationId],
    );
    if (!rows[0]?.admin)
      throw new CheckoutError(
        403,
        'not_organization_admin',
        "Only the organization's owner or an organization-wide admin can subscribe it.",
      );
    who = { organizationId: request.organizationId };
  } else {
    if (request.organizationId)
      throw new CheckoutError(
        400,
        'personal_tier',
        `The ${tier.name} tier is for one person: leave out organization_id.`,
      );
    who = { userId: request.userId };
  }
  let coupon: CouponOutcome | undefined;
  if (request.coupon) {
    coupon = await checkCoupon(db, request.coupon);
    if (coupon.tier !== tier.id)
      throw new CheckoutError(
        400,
        'coupon_other_tier',
        `The coupon ${coupon.code} is for the ${coupon.tier} tier, not ${tier.name}.`,
      );
    const target = 'organizationId' in who ? who.organizationId : null;
    if (coupon.organization_id && coupon.organization_id !== target)
      throw new CheckoutError(
        400,
        'coupon_other_organization',
        `The coupon ${coupon.code} belongs to another organization.`,
      );
  }
  const current = await findSubscriber(db, who);
  if (
    current &&
    current.tier === tier.id &&
    ['active', 'trialing'].includes(current.status) &&
    (!current.current_period_end || new Date(current.current_period_end) > new Date())
  )
    throw new CheckoutError(
      409,
      'already_subscribed',
      `${'organizationId' in who ? 'The organization' : 'You'} already ${'organizationId' in who ? 'has' : 'have'} the ${tier.name} tier.`,
    );
  return { tier, who, coupon, customer: current?.stripe_customer_id ?? null };
}

function lineItem(tier: Tier): Stripe.Checkout.SessionCreateParams.LineItem {
  if (tier.stripe_price_id) return { price: tier.stripe_price_id, quantity: 1 };
  return {
    quantity: 1,
    price_data: {
      currency: tier.currency,
      unit_amount: tier.monthly_price_cents!,
      recurring: { interval: 'month' },
      product_data: { name: `Lyceum ${tier.name}` },
    },
  };
}

export async function createCheckout(
  db: Database,
  stripe: Stripe | undefined,
  request: CheckoutRequest,
): Promise<CheckoutResult> {
  const { tier, who, coupon, customer } = await prepare(db, request);

  if (coupon && coupon.percent_off === 100) {
    await db.transaction(async (tx) => {
      const redeemed = await redeemCoupon(tx, request.coupon!, request.userId, 'checkout');
      await putSubscription(tx, who, {
        tier: tier.id,
        status: 'active',
        source: 'coupon',
        couponId: redeemed.coupon_id,
      });
    });
    return { kind: 'activated', tier: tier.id };
  }
  if (!stripe) return { kind: 'not_configured' };

  const metadata: Record<string, string> = {
    tier: tier.id,
    user_id: request.userId,
    ...('organizationId' in who ? { organization_id: who.organizationId } : {}),
    ...(coupon?.coupon_id ? { coupon_id: coupon.coupon_id } : {}),
  };
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [lineItem(tier)],
    client_reference_id: 'organizationId' in who ? who.organizationId : request.userId,
    ...(customer
      ? { customer }
      : request.email && 'userId' in who
        ? { customer_email: request.email }
        : {}),
    ...(coupon?.stripe_promotion_code
      ? { discounts: [{ promotion_code: coupon.stripe_promotion_code }] }
      : {}),
    metadata,
    subscription_data: { metadata },
    success_url: `${request.returnUrl}?checkout=success`,
    cancel_url: `${request.returnUrl}?checkout=cancelled`,
  });
  if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
  return { kind: 'session', url: session.url, sessionId: session.id };
}
