/**
 * The gateway: one Hono app with a sub-app per service, mounted under Supabase's paths.
 */
import { Hono } from 'hono';
import { authService, createAuthServices } from './auth/service';
import { mailboxRoutes } from './auth/mailbox';
import type { GatewayDeps } from './context';
import { clientConfigRoutes } from './client-config';
import { functionsRoutes } from './functions/router';
import { healthRoutes } from './health';
import { publicApiRoutes } from './public-api';
import { clientAddresses } from './ops/client-address';
import { compression } from './ops/compression';
import { databaseUnavailable } from './ops/database-unavailable';
import { rateLimit } from './ops/rate-limit';
import { requestLog } from './ops/request-log';
import { broadcastRoutes } from './realtime/broadcast-api';
import { restService } from './rest/rest-service';
import { storageRoutes } from './storage/routes';
import { webRoutes } from './web';

export function createGateway(deps: GatewayDeps) {
  const app = new Hono();

  app.use('*', clientAddresses(deps.config.trustedProxies));
  app.use('*', requestLog(deps.log, deps.metrics));
  app.use('*', compression());
  app.use('*', databaseUnavailable());
  const limit = rateLimit(deps.config.apiRateLimitPerSecond, {
    sharedKeys: [deps.keys.anonKey],
    limiter: deps.rateLimiter,
  });
  for (const service of ['/rest/v1/*', '/storage/v1/*', '/functions/v1/*', '/realtime/v1/api/*'])
    app.use(service, limit);

  app.route('/health', healthRoutes(deps));
  app.route('/client-config.json', clientConfigRoutes(deps));
  const auth = createAuthServices(deps);
  app.route('/auth/v1', authService(auth));
  // Embedded mode only (no DATABASE_URL), never in production: see decision 0050.
  const devMailbox = !deps.config.isProduction && !deps.config.databaseUrl;
  if (devMailbox && auth.mailer.kind === 'dev-mailbox') {
    app.route('/_dev/mailbox', mailboxRoutes(deps.db, deps.config, deps.log));
  }
  app.route('/rest/v1', restService(deps));
  app.route('/storage/v1', storageRoutes(deps));
  app.route('/functions/v1', functionsRoutes(deps));
  // The WebSocket at /realtime/v1/websocket is the HTTP server's upgrade (realtime/websocket.ts).
  app.route('/realtime/v1/api/broadcast', broadcastRoutes(deps));
  app.route('/api', publicApiRoutes(deps));

  app.onError((error, c) => {
    // databaseUnavailable() above turns this 500 into a 503 when the database connection failed.
    deps.log.error('unhandled error', {
      method: c.req.method,
      path: c.req.path,
      error: error.message,
    });
    return c.json({ code: 'internal_error', message: 'Internal server error' }, 500);
  });

  app.route('/', webRoutes(deps.config.webDistDir));
  return app;
}
