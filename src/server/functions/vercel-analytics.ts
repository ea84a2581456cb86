/**
 * POST /functions/v1/vercel-analytics with `{ searchParams }`: the hosting provider's
 * projects, recent deployments and web analytics for the home page's deployment panel.
 * The token stays on the server; the browser only ever sees the figures.
 */
import { Hono } from 'hono';
import { createVercelClient, type VercelClient } from '../dashboards/vercel-client';
import {
  parseVercelRequest,
  vercelBodyHint,
  vercelBodySchema,
  type VercelQuery,
} from '../dashboards/vercel-request';
import { createTtlCache } from '../dashboards/ttl-cache';
import type { JwtClaims } from '../db/types';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

export const noProjectsMessage = 'No Vercel projects found. Check your API token permissions.';
export const notConfiguredMessage = 'Hosting analytics is not configured.';
/** How to configure it: for the operators (service role, signed-in admins), not for visitors. */
export const setupInstructions =
  'Set VERCEL_TOKEN (and VERCEL_TEAM_ID for a team account) in the server environment and restart the server.';

/**
 * Every visitor's open panel polls the same endpoints; within this period they share one
 * provider call (the panel polls every 30-60 s, so figures are never older than one poll).
 */
export const providerCacheMs = 15_000;

/** What each endpoint answers with when the provider fails or is not set up (the spec's fallbacks). */
const fallbacks = {
  projects: { projects: [] },
  deployments: { deployments: [] },
  analytics: { analytics: { requests: 0, bandwidth: 0, visitors: 0, pageViews: 0 } },
} as const;

async function answer(client: VercelClient, query: VercelQuery) {
  switch (query.endpoint) {
    case 'projects': {
      const projects = await client.listProjects();
      return projects.length > 0 ? { projects } : { projects, message: noProjectsMessage };
    }
    case 'deployments':
      return {
        deployments: await client.listDeployments({
          limit: query.limit,
          projectId: query.projectId,
        }),
      };
    case 'analytics':
      return { analytics: await client.getAnalytics(query.projectId) };
  }
}

async function callerIsAdmin(deps: GatewayDeps, claims: JwtClaims): Promise<boolean> {
  if (claims.role === 'service_role') return true;
  if (claims.role !== 'authenticated') return false;
  const { rows } = await deps.db.asRole(claims, (tx) =>
    tx.query<{ ok: boolean }>(`select public.has_role(auth.uid(), 'admin') as ok`),
  );
  return rows[0]?.ok === true;
}

function createApp(deps: GatewayDeps) {
  const { token, apiUrl, teamId } = deps.config.vercel;
  const client = token ? createVercelClient({ token, apiUrl, teamId }) : undefined;
  const cache = createTtlCache<Awaited<ReturnType<typeof answer>>>({
    ttlMs: providerCacheMs,
    maxEntries: 200,
  });
  const app = new Hono<ApiEnv>();

  app.post('/', functionJson(vercelBodySchema, { hint: vercelBodyHint }), async (c) => {
    const parsed = parseVercelRequest(c.req.valid('json'));
    if (!parsed.ok) return c.json({ error: parsed.message, code: 'invalid_request' }, 400);
    const { endpoint } = parsed.query;
    if (!client) {
      // An answer, not an outage: 200, so it is not counted as an error in the public
      // request figures, and clients stop asking (decision 0009).
      const setup = (await callerIsAdmin(deps, c.get('claims')))
        ? { setup: setupInstructions }
        : {};
      return c.json({
        configured: false,
        message: notConfiguredMessage,
        ...setup,
        ...fallbacks[endpoint],
      });
    }

    try {
      const key = JSON.stringify(parsed.query);
      return c.json(await cache.get(key, () => answer(client, parsed.query)));
    } catch (error) {
      const message = `Failed to fetch ${endpoint}: ${(error as Error).message}`;
      deps.log.warn('vercel-analytics provider error', { endpoint, error: message });
      return c.json({ error: message, code: 'provider_error', ...fallbacks[endpoint] }, 502);
    }
  });

  return app;
}

export const vercelAnalyticsFunction: EdgeFunctionDefinition = {
  name: 'vercel-analytics',
  timeoutMs: 20_000,
  maxBodyBytes: 4 * 1024,
  create: createApp,
};
