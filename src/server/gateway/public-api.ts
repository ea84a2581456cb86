/**
 * /api: the public API's OpenAPI document (decision 0611) and its reference page (decision
 * 0612). The document is built once per process from the catalogue (migrations have run
 * before the gateway serves) and answered with this deployment's address as its server; the
 * page is that document rendered to HTML on the server, outside the web app's bundle.
 */
import { Hono } from 'hono';
import { brand } from '../../common/brand';
import { publicApiPaths } from '../../common/public-api-paths';
import { buildOpenApiDocument } from '../public-api/openapi';
import { referenceStyleHash, renderReferencePage } from '../public-api/reference-page';
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
  const withServer = async (origin: string) => ({
    ...(await load()),
    servers: [{ url: deps.config.siteUrl ?? origin }],
  });
  // The page for the one address a deployment is usually reached at, rendered once.
  let page: { server: string; html: string } | undefined;

  app.get('/openapi.json', async (c) => {
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cache-Control', 'no-cache');
    return c.json(await withServer(new URL(c.req.url).origin));
  });

  app.get('/reference', async (c) => {
    const current = await withServer(new URL(c.req.url).origin);
    const server = (current.servers[0] as { url: string }).url;
    if (page?.server !== server)
      page = {
        server,
        html: renderReferencePage(current, {
          product: brand.product,
          documentPath: publicApiPaths.document,
        }),
      };
    c.header('Cache-Control', 'no-cache');
    c.header(
      'Content-Security-Policy',
      `default-src 'none'; style-src '${referenceStyleHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    c.header('X-Content-Type-Options', 'nosniff');
    return c.html(page.html);
  });

  return app;
}
