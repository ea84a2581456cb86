/**
 * Resolves who a REST, storage or functions request runs as. Supabase clients send the API
 * key in `apikey` and a bearer token (the user's session token, or the API key again).
 * The bearer wins; with no bearer the API key's own role is used.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { JwtClaims } from '../db/types';
import type { TokenVerifier } from '../keys/verify';
import { TokenError } from '../keys/verify';
import type { ApiEnv } from './context';

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim();
}

/** PostgREST-shaped error body for authentication failures. */
function unauthorized(message: string, code = 'PGRST301') {
  return { code, message, details: null, hint: null };
}

/** The token a request runs as (the bearer, else the API key) and the API key it sent. */
export function requestCredentials(c: Context<ApiEnv>): { token?: string; apiKey?: string } {
  const apiKey = c.req.header('apikey')?.trim();
  return { token: bearerToken(c.req.header('authorization')) ?? apiKey, apiKey };
}

/**
 * Verifies the token, and the API key when it is a different one, and records the caller on
 * the context; throws the verifier's TokenError when either is not ours.
 */
export async function verifyCaller(
  c: Context<ApiEnv>,
  verifier: TokenVerifier,
  { token, apiKey }: { token: string; apiKey?: string },
): Promise<JwtClaims> {
  const claims = await verifier.verify(token);
  if (apiKey && apiKey !== token) await verifier.verify(apiKey);
  c.set('claims', claims);
  c.set('role', claims.role);
  c.set('token', token);
  c.set('apiKey', apiKey ?? token);
  return claims;
}

export function apiAuth(verifier: TokenVerifier, options: { optional?: boolean } = {}) {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const { token, apiKey } = requestCredentials(c);
    if (!token) {
      if (options.optional) {
        c.set('claims', { role: 'anon' });
        c.set('role', 'anon');
        c.set('token', '');
        c.set('apiKey', '');
        return next();
      }
      return c.json(unauthorized('No API key found in request', 'PGRST302'), 401);
    }
    try {
      await verifyCaller(c, verifier, { token, apiKey });
    } catch (error) {
      const message = error instanceof TokenError ? error.message : 'Invalid JWT';
      return c.json(unauthorized(message), 401);
    }
    return next();
  });
}
