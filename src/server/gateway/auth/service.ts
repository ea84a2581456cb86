/**
 * `/auth/v1`: the auth service, wire-compatible with Supabase Auth (GoTrue) as supabase-js
 * 2.119 uses it. One sub-app per concern; errors in GoTrue's 2024-01-01 format.
 */
import { Hono } from 'hono';
import { AuthError, OAuthGrantError } from '../../auth/errors';
import { createMailer, type Mailer } from '../../auth/mail';
import { dummyPasswordHash } from '../../auth/passwords';
import { createAuthRateLimits, type AuthRateLimits } from '../../auth/rate-limits';
import { createSmsSender } from '../../auth/sms';
import { TokenError } from '../../keys/verify';
import type { GatewayDeps } from '../context';
import { apiCors } from '../ops/cors';
import { adminRoutes } from './admin';
import { factorRoutes } from './factors';
import { passkeyRoutes } from './passkeys';
import type { AuthEnv, AuthServices } from './http';
import { identityRoutes } from './identities';
import { settingsRoutes } from './settings';
import { generateLinkRoutes } from './generate-link';
import { otpRoutes } from './otp';
import { signupRoutes } from './signup';
import { ssoRoutes } from './sso';
import { ssoAdminRoutes } from './sso-admin';
import { tokenRoutes } from './token';
import { userRoutes } from './user';

export const API_VERSION = '2024-01-01';

/** Browser navigations (mail links, OAuth redirects) and public keys carry no API key. */
const openPaths = [
  /^\/verify$/,
  /^\/authorize$/,
  /^\/callback$/,
  /^\/\.well-known\/jwks\.json$/,
  /^\/sso\/saml\/metadata$/,
];
/** The IdP's form post of a SAML response arrives through the user's browser, without a key. */
const openPosts = [/^\/sso\/saml\/acs$/];

export function createAuthServices(
  deps: GatewayDeps,
  options: { mailer?: Mailer; limits?: AuthRateLimits } = {},
): AuthServices {
  const mailer = options.mailer ?? createMailer(deps.config, deps.db, deps.log);
  if (deps.config.isProduction && mailer.kind === 'dev-mailbox') {
    deps.log.warn(
      'SMTP_URL is not set: confirmation and recovery mail is stored in auth.dev_mailbox, not sent',
    );
  }
  if (deps.config.isProduction && !deps.config.siteUrl) {
    deps.log.warn('SITE_URL is not set: auth links and redirects work only on loopback addresses');
  }
  const sms = createSmsSender(deps.config, deps.db);
  if (deps.config.isProduction && deps.config.auth.phone.enabled && sms.kind === 'dev-mailbox') {
    deps.log.warn(
      'AUTH_PHONE is on but Twilio is not configured: SMS codes are stored in auth.dev_mailbox, not sent',
    );
  }
  // Made at start-up, so not even the first unknown address costs an extra hash.
  void dummyPasswordHash();
  return {
    config: deps.config,
    db: deps.db,
    keys: deps.keys,
    gateway: deps,
    mailer,
    sms,
    limits: options.limits ?? createAuthRateLimits(deps.config),
  };
}

export function authService(services: AuthServices) {
  const app = new Hono<AuthEnv>();
  app.use('*', apiCors());
  app.use('*', async (c, next) => {
    await next();
    c.header('X-Supabase-Api-Version', API_VERSION);
  });
  app.use('*', async (c, next) => {
    const path = c.req.path.replace(/^.*\/auth\/v1/, '');
    if (
      c.req.method === 'OPTIONS' ||
      (c.req.method === 'GET' && openPaths.some((p) => p.test(path))) ||
      (c.req.method === 'POST' && openPosts.some((p) => p.test(path)))
    ) {
      return next();
    }
    const apiKey = c.req.header('apikey')?.trim() || c.req.query('apikey');
    if (!apiKey) throw new AuthError(401, 'no_authorization', 'No API key found in request');
    try {
      const claims = await services.gateway.verifier.verify(apiKey);
      c.set('apiRole', claims.role);
    } catch (error) {
      const detail = error instanceof TokenError ? `: ${error.message}` : '';
      throw new AuthError(401, 'no_authorization', `Invalid API key${detail}`);
    }
    return next();
  });

  app.route('/', signupRoutes(services));
  app.route('/', otpRoutes(services));
  app.route('/', tokenRoutes(services));
  app.route('/', userRoutes(services));
  app.route('/', factorRoutes(services));
  app.route('/', passkeyRoutes(services));
  app.route('/', identityRoutes(services));
  app.route('/', ssoRoutes(services));
  app.route('/', ssoAdminRoutes(services));
  app.route('/', generateLinkRoutes(services));
  app.route('/', adminRoutes(services));
  app.route('/', settingsRoutes(services));

  // Last, so it answers only what no route above took. (A sub-app's notFound is never called
  // when it is mounted with route(): the unmatched request went on to the web app's page.)
  app.all('*', (c) => {
    c.header('X-Supabase-Api-Version', API_VERSION);
    return c.json(
      { code: 'not_found', message: `No auth endpoint ${c.req.method} ${c.req.path}` },
      404,
    );
  });
  app.onError((error, c) => {
    c.header('X-Supabase-Api-Version', API_VERSION);
    if (error instanceof AuthError) {
      if (error.status === 429 && typeof error.extra.retry_after === 'number') {
        c.header('Retry-After', String(error.extra.retry_after));
      }
      const { retry_after: _retry, ...extra } = error.extra;
      return c.json({ code: error.code, message: error.message, ...extra }, error.status as 400);
    }
    if (error instanceof OAuthGrantError) {
      return c.json({ error: error.error, error_description: error.message }, 400);
    }
    services.gateway.log.error('auth service error', {
      method: c.req.method,
      path: c.req.path,
      error: (error as Error).message,
    });
    return c.json(
      {
        code: 'unexpected_failure',
        message: 'Unexpected failure, please check server logs for more information',
      },
      500,
    );
  });
  return app;
}
