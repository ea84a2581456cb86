/**
 * /api: the public API's OpenAPI document and the reference renderer's script (decision 0611).
 * The document is built once per process from the catalogue (migrations have run before the
 * gateway serves) and answered with this deployment's address as its server.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Hono } from 'hono';
import { buildOpenApiDocument } from '../public-api/openapi';
import type { GatewayDeps } from './context';

/** Scalar's prebuilt browser bundle: loaded only by the reference page, never bundled by Vite. */
function scalarBundlePath(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return path.join(path.dirname(entry), 'browser', 'standalone.js');
}

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

  app.get('/reference/scalar.js', async (c) => {
    const body = await fs.promises.readFile(scalarBundlePath());
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(body);
  });

  return app;
}
