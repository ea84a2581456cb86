/**
 * POST /functions/v1/create-checkout with a user's token and `{ tier, organization_id?, coupon? }`
 * (decision 0602): a Stripe Checkout session for the tier (answers `{ configured: true,
 * activated: false, url, session_id }`), or, with a 100 % coupon, the tier activated at once
 * (`activated: true`). Without Stripe configured: `{ configured: false, message }`, and for
 * platform admins how to set it up (decision 0009). Coupon codes count against the caller's
 * coupon attempts (429 past them).
 */
import { Hono } from 'hono';
import type Stripe from 'stripe';
import { checkoutRequestSchema, type CheckoutResponse } from '../../common/billing';
import { CheckoutError, createCheckout } from '../billing/checkout';
import { CouponError } from '../billing/coupons';
import { createStripeClient, paymentsNotConfigured, paymentsSetup } from '../billing/stripe-client';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

const couponStatus = { unknown: 403, revoked: 403, expired: 403, used_up: 403 } as const;

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const settings = deps.config.billing.stripe;
  const stripe: Stripe | undefined = settings ? createStripeClient(settings) : undefined;

  app.post(
    '/',
    functionJson(checkoutRequestSchema, {
      hint: 'Send { "tier": "pro" }, with "organization_id" for an organization\'s tier and "coupon" for a coupon code.',
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      const claims = c.get('claims');
      if (claims.role !== 'authenticated' || !claims.sub)
        return c.json({ error: 'Sign in to subscribe.', code: 'not_signed_in' }, 401);
      const body = c.req.valid('json');
      if (body.coupon) {
        const wait = deps.couponAttempts.take(`user:${claims.sub}`);
        if (wait > 0) {
          c.header('Retry-After', String(wait));
          return c.json(
            {
              error: `Too many coupon codes tried: at most ${deps.config.billing.couponAttemptsPer10Minutes} per 10 minutes. Try again in ${wait} s.`,
              code: 'over_request_rate_limit',
            },
            429,
          );
        }
      }
      try {
        const result = await createCheckout(deps.db, stripe, {
          userId: claims.sub,
          email: typeof claims.email === 'string' ? claims.email : undefined,
          tier: body.tier,
          organizationId: body.organization_id,
          coupon: body.coupon,
          returnUrl: `${deps.config.siteUrl ?? new URL(c.req.url).origin}/app/settings`,
        });
        if (result.kind === 'activated')
          return c.json<CheckoutResponse>(
            { configured: true, activated: true, tier: result.tier },
            200,
          );
        if (result.kind === 'session')
          return c.json<CheckoutResponse>(
            { configured: true, activated: false, url: result.url, session_id: result.sessionId },
            200,
          );
        const { rows } = await deps.db.query<{ admin: boolean }>(
          `select exists (select 1 from public.user_roles r
                           where r.user_id = $1 and r.role = 'admin' and r.organization_id is null) as admin`,
          [claims.sub],
        );
        return c.json<CheckoutResponse>(
          {
            configured: false,
            message: paymentsNotConfigured,
            ...(rows[0]?.admin ? { setup: paymentsSetup } : {}),
          },
          200,
        );
      } catch (error) {
        if (error instanceof CheckoutError)
          return c.json({ error: error.message, code: error.code }, error.status);
        if (error instanceof CouponError && error.problem in couponStatus)
          return c.json({ error: error.message, code: `coupon_${error.problem}` }, 403);
        throw error;
      }
    },
  );

  return app;
}

export const createCheckoutFunction: EdgeFunctionDefinition = {
  name: 'create-checkout',
  timeoutMs: 30_000,
  maxBodyBytes: 4096,
  create: createApp,
};
