/**
 * /api: the public API's OpenAPI document (decision 0611).
 * The document is built once per process from the catalogue (migrations have run before the
 * gateway serves) and answered with this deployment's address as its server.
 */
import { Hono } from 'hono';
import { buildOpenApiDocument } from '../public-api/openapi';
import type { GatewayDeps } from './context';

export function publicApiRoutes(deps: GatewayDeps) {
  const app = new Hono();
  let document: Promise<Record<string, unknown>> | undefined;
  const load = () => {
    document ??= buildOpenApiDocument(deps.db, {
      version: deps.version,
      limitPerSecond: deps.config.apiRateLimitPerSecond,
    }).catch((error: unknown) => {
      document = undefined;
      throw error;
    });
    return document;
  };

  app.get('/openapi.json', async (c) => {
    const server = deps.config.siteUrl ?? new URL(c.req.url).origin;
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cache-Control', 'no-cache');
    return c.json({ ...(await load()), servers: [{ url: server }] });
  });

  return app;
}
