/** Shared plumbing of the auth service: its context, request parsing, callers and redirects. */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { AuthError, validation } from '../../auth/errors';
import type { Mailer } from '../../auth/mail';
import type { AuthRateLimits } from '../../auth/rate-limits';
import type { SmsSender } from '../../auth/sms';
import { findSession, sessionExpiry, type AuthDeps, type SessionRow } from '../../auth/sessions';
import { loadUser, type LoadedUser } from '../../auth/users';
import type { JwtClaims } from '../../db/types';
import { TokenError } from '../../keys/verify';
import { bearerToken } from '../api-auth';
import { clientAddress } from '../ops/client-address';
import type { GatewayDeps } from '../context';

export interface AuthServices extends AuthDeps {
  gateway: GatewayDeps;
  mailer: Mailer;
  sms: SmsSender;
  limits: AuthRateLimits;
}

export interface AuthVariables {
  /** The API key's role: anon or service_role. */
  apiRole: 'anon' | 'service_role' | 'authenticated';
  claims: JwtClaims;
  session: SessionRow;
  user: LoadedUser;
}

export type AuthEnv = { Variables: AuthVariables };
export type AuthContext = Context<AuthEnv>;

export function clientInfo(c: Context): { ip: string; userAgent?: string } {
  return { ip: clientAddress(c), userAgent: c.req.header('user-agent') };
}

export function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw validation(`${key} must be a string`);
  return value;
}

export function optionalObject(
  body: Record<string, unknown>,
  key: string,
): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw validation(`${key} must be an object`);
  return value as Record<string, unknown>;
}

/** The PKCE challenge a client sent, validated; undefined for the implicit flow. */
export function pkceParams(
  source: Record<string, unknown>,
): { challenge: string; method: 's256' | 'plain' } | undefined {
  const challenge = source.code_challenge;
  const method = source.code_challenge_method;
  if (challenge === undefined || challenge === null || challenge === '') return undefined;
  if (typeof challenge !== 'string' || !/^[A-Za-z0-9._~-]{43,128}$/.test(challenge)) {
    throw validation('code_challenge must be 43 to 128 URL-safe characters');
  }
  const normalized = typeof method === 'string' ? method.toLowerCase() : '';
  if (normalized !== 's256' && normalized !== 'plain') {
    throw validation('code_challenge_method must be s256 or plain');
  }
  return { challenge, method: normalized };
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The public base of links in mail and redirects. Without SITE_URL the request's own origin
 * is used only on loopback: elsewhere the Host header is the caller's to choose, and a forged
 * one would put a reset link to the caller's server into a victim's mail.
 */
function siteUrl(services: Pick<AuthServices, 'config'>, c: Context): string {
  if (services.config.siteUrl) return services.config.siteUrl;
  const origin = new URL(c.req.url);
  if (loopbackHosts.has(origin.hostname)) return origin.origin;
  throw new AuthError(
    500,
    'unexpected_failure',
    'SITE_URL is not configured: set it to the public address of this deployment so auth links and redirects can be built',
  );
}

/**
 * Where a flow may send the browser back to: our own origin or a configured one. Anything else
 * falls back to the site URL, as Supabase Auth does, so links cannot be turned into open
 * redirects.
 */
export function safeRedirect(
  services: Pick<AuthServices, 'config'>,
  c: Context,
  requested: unknown,
): string {
  const site = siteUrl(services, c);
  if (typeof requested !== 'string' || requested === '') return site;
  let url: URL;
  try {
    url = new URL(requested, site);
  } catch {
    return site;
  }
  const own = new URL(c.req.url);
  const allowed = new Set([
    new URL(site).origin,
    ...(loopbackHosts.has(own.hostname) ? [own.origin] : []),
    ...services.config.auth.redirectOrigins,
  ]);
  return allowed.has(url.origin) ? url.toString() : site;
}

export function authBaseUrl(services: Pick<AuthServices, 'config'>, c: Context): string {
  return `${siteUrl(services, c)}/auth/v1`;
}

/** Appends query or fragment parameters to a redirect target. */
export function withParams(
  target: string,
  params: Record<string, string | number | undefined>,
  where: 'query' | 'hash',
): string {
  const url = new URL(target);
  const entries = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][];
  if (where === 'query') {
    for (const [key, value] of entries) url.searchParams.set(key, String(value));
    return url.toString();
  }
  const hash = new URLSearchParams(entries.map(([k, v]) => [k, String(v)]));
  url.hash = hash.toString();
  return url.toString();
}

/** The request's bearer token, verified, as GoTrue reports a missing or bad one. */
async function verifiedBearer(services: AuthServices, authorization: string | undefined) {
  const token = bearerToken(authorization);
  if (!token)
    throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  try {
    return await services.gateway.verifier.verify(token);
  } catch (error) {
    const message = error instanceof TokenError ? error.message : 'invalid JWT';
    throw new AuthError(
      403,
      'bad_jwt',
      `invalid JWT: unable to parse or verify signature, ${message}`,
    );
  }
}

/** The signed-in user an Authorization header names: a valid token whose session still exists. */
export async function currentUser(
  services: AuthServices,
  authorization: string | undefined,
): Promise<{ claims: JwtClaims; session: SessionRow; user: LoadedUser }> {
  const claims = await verifiedBearer(services, authorization);
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  }
  const session = await findSession(services.db, claims.session_id);
  if (!session || session.user_id !== claims.sub || sessionExpiry(services.config, session)) {
    throw new AuthError(
      403,
      'session_not_found',
      'Session from session_id claim in JWT does not exist',
    );
  }
  const user = await loadUser(services.db, claims.sub);
  if (!user)
    throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  return { claims, session, user };
}

/** Requires a signed-in user: a valid access token whose session still exists. */
export function requireUser(services: AuthServices) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const { claims, session, user } = await currentUser(services, c.req.header('authorization'));
    c.set('claims', claims);
    c.set('session', session);
    c.set('user', user);
    await next();
  });
}

export function requireServiceRole(services: AuthServices) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const claims = await verifiedBearer(services, c.req.header('authorization'));
    if (claims.role !== 'service_role') throw new AuthError(403, 'not_admin', 'User not allowed');
    c.set('claims', claims);
    await next();
  });
}
