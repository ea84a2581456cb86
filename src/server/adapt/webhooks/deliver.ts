/**
 * One webhook delivery attempt: the target checked by the SSRF guard, the JSON body signed,
 * the request sent to a checked address (never re-resolved), redirects not followed, a short
 * timeout, and the outcome classified so the job knows whether to retry.
 */
import http from 'node:http';
import https from 'node:https';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  signWebhook,
} from './signature';
import {
  WebhookTargetRefused,
  checkWebhookTarget,
  pinnedLookup,
  type Resolver,
} from '../../net/target-guard';

export interface WebhookRequest {
  deliveryId: string;
  event: string;
  url: string;
  secret: string;
  body: string;
}

export type AttemptOutcome =
  | { kind: 'delivered'; responseCode: number }
  /** Worth another try later: a 5xx, 408, 429, a timeout or a network error. */
  | { kind: 'retry'; responseCode: number | null; error: string }
  /** Not worth retrying: another 4xx, a redirect, or a refused target. */
  | { kind: 'failed'; responseCode: number | null; error: string }
  | { kind: 'refused'; error: string };

export interface AttemptOptions {
  allowed: readonly string[];
  timeoutMs?: number;
  resolve?: Resolver;
  now?: () => number;
}

export async function attemptWebhook(
  request: WebhookRequest,
  options: AttemptOptions,
): Promise<AttemptOutcome> {
  let target;
  try {
    target = await checkWebhookTarget(request.url, {
      allowed: options.allowed,
      resolve: options.resolve,
    });
  } catch (error) {
    if (error instanceof WebhookTargetRefused) return { kind: 'refused', error: error.message };
    throw error;
  }
  const timestamp = Math.floor((options.now ?? Date.now)() / 1000);
  // Connect to the address the guard checked, whatever DNS answers now.
  const lookup = pinnedLookup(target.addresses[0]!);
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    const req = transport.request(
      target.url,
      {
        method: 'POST',
        lookup,
        timeout: options.timeoutMs ?? 10_000,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': 'Lyceum-Webhooks/1',
          [SIGNATURE_HEADER]: signWebhook(request.secret, timestamp, request.body),
          [TIMESTAMP_HEADER]: String(timestamp),
          [DELIVERY_HEADER]: request.deliveryId,
          [EVENT_HEADER]: request.event,
        },
      },
      (res) => {
        res.resume();
        const code = res.statusCode ?? 0;
        res.on('end', () => resolve(classify(code)));
        res.on('error', () => resolve(classify(code)));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) =>
      resolve({
        kind: 'retry',
        responseCode: null,
        error: `Could not reach the endpoint: ${error.message}`,
      }),
    );
    req.end(request.body);
  });
}

function classify(code: number): AttemptOutcome {
  if (code >= 200 && code < 300) return { kind: 'delivered', responseCode: code };
  if (code >= 500 || code === 408 || code === 429) {
    return { kind: 'retry', responseCode: code, error: `The endpoint answered ${code}.` };
  }
  if (code >= 300 && code < 400) {
    return {
      kind: 'failed',
      responseCode: code,
      error: `The endpoint answered with a redirect (${code}); deliveries do not follow redirects.`,
    };
  }
  return {
    kind: 'failed',
    responseCode: code,
    error: `The endpoint refused the delivery (${code}).`,
  };
}
