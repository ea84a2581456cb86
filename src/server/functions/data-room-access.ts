/**
 * POST /functions/v1/data-room-access with `{ pin }` (public): checks the data-room PIN on
 * the server and answers with a signed grant. Every answer takes at least 500 ms, wrong
 * attempts are limited per client address, and the comparison is constant-time.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { markAttemptSucceeded, pruneAttempts, reserveAttempt } from '../data-room/attempts';
import { issueGrant } from '../data-room/grants';
import { PIN_MAX_LENGTH } from '../data-room/pin';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import { clientAddress } from '../gateway/ops/client-address';
import type { EdgeFunctionDefinition } from './types';

export const MIN_CHECK_MS = 500;

export const accessMessages = {
  wrongPin: 'Incorrect PIN. Please try again.',
  emptyPin: 'Enter the access PIN.',
  tooLong: `The PIN has at most ${PIN_MAX_LENGTH} characters.`,
  badBody: 'Send a JSON body such as {"pin": "…"}.',
  rateLimited: (minutes: number) =>
    `Too many incorrect PIN attempts. For your security, access from this address is paused; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
};

const accessBody = z.object({ pin: z.string() });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const services = deps.dataRoom;

  // A body that is not `{ pin: string }` is refused at once: it says nothing about the PIN.
  app.post('/', functionJson(accessBody, { hint: accessMessages.badBody }), async (c) => {
    const started = Date.now();
    c.header('Cache-Control', 'no-store');
    const respond = async <T extends object>(body: T, status: 200 | 400 | 401 | 429) => {
      // The same minimum duration for every outcome, so timing tells nothing.
      await sleep(Math.max(0, MIN_CHECK_MS - (Date.now() - started)));
      return c.json(body, status);
    };

    const pin = c.req.valid('json').pin.trim();
    if (pin === '') return respond({ error: accessMessages.emptyPin, code: 'empty_pin' }, 400);
    if (pin.length > PIN_MAX_LENGTH)
      return respond({ error: accessMessages.tooLong, code: 'pin_too_long' }, 400);

    // Settled by the gateway and handed over by the functions router: the TCP peer, or the
    // proxy-reported address when TRUST_PROXY says which X-Forwarded-For entry to believe.
    const address = clientAddress(c);
    const reservation = await reserveAttempt(deps.db, address);
    if (!reservation.allowed) {
      c.header('Retry-After', String(reservation.retryAfterSeconds));
      return respond(
        {
          error: accessMessages.rateLimited(Math.ceil(reservation.retryAfterSeconds / 60)),
          code: 'rate_limited',
          retryAfterSeconds: reservation.retryAfterSeconds,
        },
        429,
      );
    }

    const checker = await services.pin();
    if (!(await checker.matches(pin))) {
      if (Math.random() < 0.05) void pruneAttempts(deps.db).catch(() => undefined);
      return respond({ error: accessMessages.wrongPin, code: 'invalid_pin' }, 401);
    }
    await markAttemptSucceeded(deps.db, reservation.attemptId);
    const grant = await issueGrant(deps.db, deps.keys.current, address);
    deps.log.info('data room grant issued', { grantId: grant.grantId });
    return respond({ grant: grant.token, grantId: grant.grantId, expiresAt: grant.expiresAt }, 200);
  });

  return app;
}

export const dataRoomAccessFunction: EdgeFunctionDefinition = {
  name: 'data-room-access',
  public: true,
  maxBodyBytes: 4 * 1024,
  create: createApp,
};
