/**
 * A loopback fake of the parts of Stripe's API that billing calls, answering with the real
 * API's shapes (API version 2025+: the period end on subscription items, an invoice's
 * subscription under `parent.subscription_details`), and the events Stripe would send, signed
 * the way Stripe signs them (`Stripe-Signature: t=…,v1=…`).
 *
 *   const stripe = await startFakeStripe();
 *   ... STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_API_BASE: stripe.url, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret
 *   const session = stripe.sessions.at(-1);                // what create-checkout sent
 *   const event = stripe.completeCheckout(session.id);     // the buyer paid
 *   await stripe.deliver(webhookUrl, event);               // signed as Stripe signs
 *
 *   POST /v1/checkout/sessions      form-encoded, as stripe-node sends it
 *   GET  /v1/subscriptions/{id}
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  url: string;
  status: string;
  customer: string | null;
  customer_email: string | null;
  subscription: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  /** The form fields stripe-node sent (e.g. `line_items[0][price_data][unit_amount]`). */
  params: Record<string, string>;
}

interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  metadata: Record<string, string>;
  items: {
    object: 'list';
    data: {
      id: string;
      object: 'subscription_item';
      current_period_end: number;
      current_period_start: number;
    }[];
  };
}

export interface FakeStripe {
  url: string;
  webhookSecret: string;
  /** Every checkout session created, in order. */
  sessions: FakeSession[];
  /** Requests seen, as `METHOD path`. */
  requests: string[];
  /** The checkout completed: a customer and an active subscription, and the event Stripe sends. */
  completeCheckout(sessionId: string, periodEnd?: Date): Stripe.Event;
  /** A renewal paid: the next period, and `invoice.paid`. */
  renew(subscriptionId: string, periodEnd: Date): Stripe.Event;
  /** A renewal's payment failed: `invoice.payment_failed`. */
  failPayment(subscriptionId: string): Stripe.Event;
  /** The subscription ended: `customer.subscription.deleted`. */
  cancel(subscriptionId: string): Stripe.Event;
  /** The header Stripe would send with this payload (optionally signed at another time or secret). */
  signature(payload: string, options?: { timestamp?: number; secret?: string }): string;
  /** POSTs the event to a webhook URL as Stripe does; answers the response. */
  deliver(
    url: string,
    event: Stripe.Event,
    options?: { timestamp?: number; secret?: string; tamper?: (payload: string) => string },
  ): Promise<Response>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function metadataOf(params: Record<string, string>, prefix: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const match = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`).exec(key);
    if (match) metadata[match[1]!] = value;
  }
  return metadata;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const sessions: FakeSession[] = [];
  const subscriptions = new Map<string, FakeSubscription>();
  const requests: string[] = [];
  const stripe = new Stripe('sk_test_fake_signer');

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      requests.push(`${req.method} ${path}`);
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(json));
      };
      if (!/^Bearer sk_(test|live)_/.test(req.headers.authorization ?? ''))
        return send(401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const params = Object.fromEntries(new URLSearchParams(body));
        const sessionId = id('cs_test');
        const session: FakeSession = {
          id: sessionId,
          object: 'checkout.session',
          mode: params.mode ?? 'payment',
          url: `https://checkout.stripe.com/c/pay/${sessionId}`,
          status: 'open',
          customer: params.customer ?? null,
          customer_email: params.customer_email ?? null,
          subscription: null,
          client_reference_id: params.client_reference_id ?? null,
          metadata: metadataOf(params, 'metadata'),
          success_url: params.success_url ?? '',
          cancel_url: params.cancel_url ?? '',
          params,
        };
        sessions.push(session);
        const { params: _params, ...wire } = session;
        return send(200, { ...wire, payment_status: 'unpaid', livemode: false });
      }
      const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && subscription) {
        const found = subscriptions.get(decodeURIComponent(subscription[1]!));
        if (found) return send(200, found);
        return send(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such subscription: '${subscription[1]}'`,
          },
        });
      }
      return send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const event = (type: string, object: unknown): Stripe.Event =>
    ({
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: seconds(new Date()),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    }) as unknown as Stripe.Event;

  const invoice = (sub: FakeSubscription, status: 'paid' | 'open', periodEnd: number) => ({
    id: id('in'),
    object: 'invoice',
    customer: sub.customer,
    status,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: sub.id, metadata: sub.metadata },
    },
    lines: {
      object: 'list',
      data: [
        {
          id: id('il'),
          object: 'line_item',
          period: { start: periodEnd - 30 * 86400, end: periodEnd },
        },
      ],
    },
  });

  const subscriptionOf = (subscriptionId: string) => {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`fake Stripe has no subscription ${subscriptionId}`);
    return sub;
  };

  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    webhookSecret,
    sessions,
    requests,
    completeCheckout(sessionId, periodEnd = new Date(Date.now() + 30 * 86400_000)) {
      const session = sessions.find((s) => s.id === sessionId);
      if (!session) throw new Error(`fake Stripe has no session ${sessionId}`);
      const customer = session.customer ?? id('cus');
      const sub: FakeSubscription = {
        id: id('sub'),
        object: 'subscription',
        customer,
        status: 'active',
        metadata: metadataOf(session.params, 'subscription_data[metadata]'),
        items: {
          object: 'list',
          data: [
            {
              id: id('si'),
              object: 'subscription_item',
              current_period_start: seconds(new Date()),
              current_period_end: seconds(periodEnd),
            },
          ],
        },
      };
      subscriptions.set(sub.id, sub);
      Object.assign(session, { status: 'complete', customer, subscription: sub.id });
      const { params: _params, ...wire } = session;
      return event('checkout.session.completed', { ...wire, payment_status: 'paid' });
    },
    renew(subscriptionId, periodEnd) {
      const sub = subscriptionOf(subscriptionId);
      sub.status = 'active';
      sub.items.data[0]!.current_period_end = seconds(periodEnd);
      return event('invoice.paid', invoice(sub, 'paid', seconds(periodEnd)));
    },
    failPayment(subscriptionId) {
      const sub = subscriptionOf(subscriptionId);
      sub.status = 'past_due';
      return event(
        'invoice.payment_failed',
        invoice(sub, 'open', sub.items.data[0]!.current_period_end),
      );
    },
    cancel(subscriptionId) {
      const sub = subscriptionOf(subscriptionId);
      sub.status = 'canceled';
      return event('customer.subscription.deleted', { ...sub });
    },
    signature(payload, options = {}) {
      return stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
        timestamp: options.timestamp ?? seconds(new Date()),
      });
    },
    async deliver(url, sent, options = {}) {
      const payload = JSON.stringify(sent, null, 2);
      const header = fake.signature(payload, options);
      return fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: options.tamper ? options.tamper(payload) : payload,
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
