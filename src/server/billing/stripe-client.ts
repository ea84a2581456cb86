/**
 * The Stripe SDK as configured (decision 0602): the secret key, and another API base when
 * STRIPE_API_BASE says so (the tests' loopback fake answers with the real API's shapes).
 */
import Stripe from 'stripe';
import type { Config } from '../config';

export type StripeSettings = NonNullable<Config['billing']['stripe']>;

export function createStripeClient(settings: StripeSettings): Stripe {
  return new Stripe(settings.secretKey, {
    ...(settings.api ?? {}),
    maxNetworkRetries: 1,
    timeout: 15_000,
    appInfo: { name: 'Lyceum' },
  });
}

/** How to turn payments on, for administrators (decision 0009: visitors are not told). */
export const paymentsSetup =
  'Set STRIPE_SECRET_KEY (sk_live_… or sk_test_…) and STRIPE_WEBHOOK_SECRET (whsec_…, from the webhook endpoint you add in the Stripe dashboard for <SITE_URL>/functions/v1/stripe-webhook with the events checkout.session.completed, invoice.paid, invoice.payment_failed, customer.subscription.updated and customer.subscription.deleted), then restart the server.';

export const paymentsNotConfigured =
  'Payments are not configured on this server, so nothing can be charged. Ask its administrator to set up Stripe.';
