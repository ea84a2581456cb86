/**
 * Webhook signatures: `X-Lyceum-Signature: sha256=<hex>`, the HMAC-SHA256 of
 * `<X-Lyceum-Timestamp>.<raw body>` under the endpoint's secret. Signing the timestamp lets a
 * receiver refuse replays of an old delivery.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Lyceum-Signature';
export const TIMESTAMP_HEADER = 'X-Lyceum-Timestamp';
export const DELIVERY_HEADER = 'X-Lyceum-Delivery';
export const EVENT_HEADER = 'X-Lyceum-Event';

export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: recompute and compare in constant time. */
export function verifyWebhook(
  secret: string,
  timestamp: number,
  body: string,
  signature: string,
): boolean {
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}
