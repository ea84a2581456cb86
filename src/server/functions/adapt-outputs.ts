/**
 * /functions/v1/adapt-outputs (issue 14, decisions 0512–0515): what leaves LE Adapt once a
 * Reviewer approved a job. Reads (the export run, the webhook log) also go through REST under
 * row-level security; these are the actions.
 *
 *   POST   /jobs/:id/exports              renders and stores every format (a background job)
 *   GET    /jobs/:id/exports              the run's status and files, with signed download paths
 *   POST   /jobs/:id/publish              { courseId }: a lesson and bank questions in that course
 *   POST   /jobs/:id/deliver              sends the package links to the organization's webhook
 *   PUT    /webhooks/:organizationId      { url, active, events, rotateSecret }: an Admin's endpoint;
 *                                         the secret comes back only when made (shown once)
 *   DELETE /webhooks/:organizationId      removes it
 *   POST   /webhooks/:organizationId/test a test delivery (one attempt, through the SSRF guard)
 *   POST   /deliveries/:id/redeliver      a logged delivery sent again as a new one
 *
 * Errors are { error, code } with 400/403/404/409.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../../common/adapt-outputs';
import {
  OutputError,
  deleteWebhookEndpoint,
  listExports,
  publishJob,
  redeliverWebhook,
  requestExports,
  requestWebhookDelivery,
  saveWebhookEndpoint,
  sendWebhookTest,
} from '../adapt/outputs';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

const publishSchema = z.object({ courseId: z.string().uuid() });
const endpointSchema = z.object({
  url: z.string().trim().url().max(2048),
  active: z.boolean().default(true),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, 'Choose at least one event')
    .default(['lesson.exported'])
    .transform((events) => [...new Set(events)]),
  rotateSecret: z.boolean().default(false),
});

/** Links in payloads point at this server as the client reached it, unless SITE_URL says. */
const siteUrlOf = (deps: GatewayDeps, requestUrl: string) =>
  deps.config.siteUrl ?? new URL(requestUrl).origin;

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  app.onError((error, c) => {
    if (error instanceof OutputError) {
      return c.json({ error: error.message, code: error.code }, error.status);
    }
    throw error;
  });
  app.use('*', async (c, next) => {
    if (c.get('claims').role !== 'authenticated') {
      return c.json({ error: 'Sign in to use LE Adapt.', code: 'not_signed_in' }, 401);
    }
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.post('/jobs/:id/exports', async (c) =>
    c.json(
      await requestExports(
        deps.db,
        c.get('claims'),
        deps.jobs,
        c.req.param('id'),
        siteUrlOf(deps, c.req.url),
      ),
      202,
    ),
  );
  app.get('/jobs/:id/exports', async (c) =>
    c.json(await listExports(deps.db, deps.storage, c.get('claims'), c.req.param('id'))),
  );
  app.post('/jobs/:id/publish', functionJson(publishSchema), async (c) =>
    c.json(
      await publishJob(deps, c.get('claims'), c.req.param('id'), c.req.valid('json').courseId),
      201,
    ),
  );
  app.post('/jobs/:id/deliver', async (c) =>
    c.json(
      await requestWebhookDelivery(
        deps,
        c.get('claims'),
        c.req.param('id'),
        siteUrlOf(deps, c.req.url),
      ),
      202,
    ),
  );
  app.put('/webhooks/:organizationId', functionJson(endpointSchema), async (c) =>
    c.json(
      await saveWebhookEndpoint(
        deps.db,
        c.get('claims'),
        c.req.param('organizationId'),
        c.req.valid('json'),
        deps.config.adaptWebhooks.allowedTargets,
      ),
    ),
  );
  app.delete('/webhooks/:organizationId', async (c) => {
    await deleteWebhookEndpoint(deps.db, c.get('claims'), c.req.param('organizationId'));
    return c.json({ deleted: true });
  });
  app.post('/webhooks/:organizationId/test', async (c) =>
    c.json(await sendWebhookTest(deps, c.get('claims'), c.req.param('organizationId')), 202),
  );
  app.post('/deliveries/:id/redeliver', async (c) =>
    c.json(
      await redeliverWebhook(deps, c.get('claims'), c.req.param('id'), siteUrlOf(deps, c.req.url)),
      202,
    ),
  );
  return app;
}

export const adaptOutputsFunction: EdgeFunctionDefinition = {
  name: 'adapt-outputs',
  timeoutMs: 30_000,
  create: createApp,
};
