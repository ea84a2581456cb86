/**
 * POST /functions/v1/stripe-webhook: Stripe's events (decision 0602). Public (Stripe sends no
 * API key); the `Stripe-Signature` header is checked with `stripe.webhooks.constructEvent`
 * over the raw body, exactly as received (the router hands it over unparsed), with Stripe's
 * five-minute tolerance, so a forged, altered or replayed-later event is refused with 400 and
 * changes nothing. Each event is applied once (a redelivery answers `duplicate: true`).
 */
import { Hono } from 'hono';
import Stripe from 'stripe';
import { createStripeClient } from '../billing/stripe-client';
import { applyStripeEvent } from '../billing/stripe-events';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import type { EdgeFunctionDefinition } from './types';

/** Stripe's default: a signature older than this is a replay. */
const TOLERANCE_SECONDS = 300;

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const settings = deps.config.billing.stripe;
  const stripe = settings?.webhookSecret ? createStripeClient(settings) : undefined;

  app.post('/', async (c) => {
    if (!stripe || !settings?.webhookSecret)
      return c.json(
        {
          error:
            'Payments are not configured on this server: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are needed to accept Stripe events.',
          code: 'payments_not_configured',
        },
        503,
      );
    const signature = c.req.header('stripe-signature');
    if (!signature)
      return c.json(
        { error: 'The Stripe-Signature header is missing.', code: 'invalid_signature' },
        400,
      );
    const payload = Buffer.from(await c.req.arrayBuffer());
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(
        payload,
        signature,
        settings.webhookSecret,
        TOLERANCE_SECONDS,
      );
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
      deps.log.warn('stripe webhook refused', { error: error.message });
      return c.json(
        {
          error: `The event's signature does not verify: ${error.message}`,
          code: 'invalid_signature',
        },
        400,
      );
    }
    const outcome = await applyStripeEvent(deps, stripe, event);
    return c.json({ received: true, duplicate: outcome === 'duplicate', outcome }, 200);
  });

  return app;
}

export const stripeWebhookFunction: EdgeFunctionDefinition = {
  name: 'stripe-webhook',
  public: true,
  timeoutMs: 30_000,
  // Stripe's events are a few kilobytes; its largest (with expanded lists) stay far below.
  maxBodyBytes: 512 * 1024,
  create: createApp,
};
